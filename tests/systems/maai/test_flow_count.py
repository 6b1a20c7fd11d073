"""The count (S-R35): the §3.4 timeline (S-T17) from the example file, 先攻 (S-T18)."""

from __future__ import annotations

from pathlib import Path

from ikusa.dice.source import ScriptedSource
from ikusa.engine.runner import load_encounter
from ikusa.systems.maai.state import MaaiState

from .maai_flow_support import find, push, state, unit

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "maai" / "count_example.yaml"


def test_s_t17_count_timeline_from_example_file() -> None:
    """S-T17 (000 §3.4): 黒 @12 (5 → 7), 源三郎 @11 (5 → 6), 鬼 @10 (3 → 7, reserved 受け流し
    at 0 so 源三郎 stays 6), then count 7: 黒 before 鬼 (技 +2 > +0), 黒 3 → 4, then 鬼."""
    loaded = load_encounter(EXAMPLE)
    s = loaded.module.new_state(loaded.encounter)
    assert isinstance(s, MaaiState)
    v = {u.id: u for u in s.units}
    breaths: list[tuple[str, int, int, int]] = []  # (unit, count, spent, vigor after)
    counts: dict[str, int] = {}
    for step in loaded.doc.script:
        src = ScriptedSource(step.dice)
        for e in s.apply(step.action, src):
            if e.kind == "breath":
                counts[e.data["unit"]] = e.data["count"]
            if e.kind == "breath_end":
                u = e.data["unit"]
                breaths.append((u, counts[u], e.data["spent"], e.data["vigor"]))
        assert src.remaining == 0
        if breaths and breaths[-1][0] == "oni" and len(breaths) == 3:
            # step 3: the reserved 受け流し cost nothing: 源三郎 still at 6
            assert v["genzaburo"].vigor == 6
    assert breaths[:5] == [
        ("kuro", 12, 5, 7),
        ("genzaburo", 11, 5, 6),
        ("oni", 10, 3, 7),
        ("kuro", 7, 3, 4),
        ("oni", 7, 3, 4),
    ]
    # 鬼's second 強打 met an improvised 受け流し: 1.5 × 1 → 2 (S-T20)
    assert v["genzaburo"].vigor == 4
    # the count then comes back to 黒 at 4, and its 緊急回避 reservation expires (S-R38)
    d = s.pending()
    assert d is not None and d.actor == "kuro" and v["kuro"].reservations == []


def test_s_t17_tie_goes_to_higher_gi_then_allies() -> None:
    """S-R35 step 4 / S-G49: equal 活力 → higher 技 first; equal 技 → the ally side (first listed)."""
    k = ["katana.yokogiri"]
    s = state(unit("e", "B", gi=0, maneuvers=k), unit("a", "A", gi=0, maneuvers=k))
    d = s.pending()
    assert d is not None and d.actor == "a"
    s2 = state(unit("a", "A", gi=0, maneuvers=k), unit("e", "B", gi=0, armour=["重甲"], maneuvers=k),
               unit("f", "B", gi=1, maneuvers=k))
    d2 = s2.pending()
    assert d2 is not None and d2.actor == "f"  # 活力 11 first


def test_s_t18_initiative_first_breath_only() -> None:
    """S-T18: 活力 11 with 先攻 +2 acts at count 13 before a 活力 12 unit, spends 5 → 活力 6 (not 8)."""
    s = state(unit("p", "A", gi=1, 先攻=2, maneuvers=["katana.yokogiri", "katana.ukenagashi"], fate=0),
              unit("q", "B", gi=2, wounds=9, maneuvers=["katana.yokogiri"], fate=0))
    d = s.pending()
    assert d is not None and d.actor == "p"
    first = s.ev  # events buffered before the first decision
    assert find(first, "breath").data["count"] == 13
    push(s, "use:katana.yokogiri>q", 3, 8)
    push(s, "use:katana.yokogiri>q", 3, 8)
    ev = push(s, "reserve:katana.ukenagashi")
    ev = push(s, "end")
    assert s.by_id["p"].vigor == 6
    b = find(ev, "breath")
    assert (b.data["unit"], b.data["count"]) == ("q", 12)
    # from now on p behaves as 活力 6: its next count is 6, not 8
    assert s.by_id["p"].count_value() == 6
