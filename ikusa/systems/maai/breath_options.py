"""The fixed options of a breath (000 §3.3–§3.4): ``end``, ``pass`` (S-G21) and the options of a
reserve, a stance, 止血 or a feat, memoised per encounter on what they show (issue #12)."""

from __future__ import annotations

from ikusa.engine.protocol import Option
from ikusa.systems.maai.moves import Move

END = Option("end", "一呼吸を終える", cost=0, data={"kind": "end"})
PASS = Option("pass", "パス (この間合はもう一呼吸しない; 活力は反応用に残る)", cost=0, data={"kind": "pass"})


def simple_option(memo: dict[tuple[object, ...], Option], what: str, m: Move, cost: int, within: bool) -> Option:
    """A reserve / stance / 止血 / feat option of ``m`` (memoised on what it shows)."""
    ck = (what, m.id, m.name, cost, within)
    o = memo.get(ck)
    if o is None:
        if what == "reserve":
            o = Option(f"reserve:{m.id}", f"{m.name} を予約 (活力{cost})", cost=cost,
                       data={"kind": "reserve", "move": m.id, "within": within})
        elif what == "stance":
            o = Option(f"stance:{m.id}", f"構え {m.name} (活力{cost})", cost=cost,
                       data={"kind": "stance", "move": m.id, "within": within})
        elif what == "maintenance":
            o = Option(f"use:{m.id}", f"{m.name} (止血, 活力{cost})", cost=cost,
                       data={"kind": "feat", "move": m.id, "within": within})
        else:
            o = Option(f"use:{m.id}", f"{m.name} (活力{cost})", cost=cost,
                       data={"kind": "feat", "move": m.id, "within": within})
        memo[ck] = o
    return o
