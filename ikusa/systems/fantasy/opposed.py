"""Exact odds of an opposed fantasy check, ``2D6+5>=2D6+3`` (F-H01: opposed checks are all of
the host's combat, 002's attack against evasion).

Both sides roll 2D6 + their value; the left side (the actor) wins when its 達成値 stands in the
comparison against the right side's.  自動成功/自動失敗 (F-G04, [6,6]/[1,1]) come first, as in
the combat's hit roll (:func:`ikusa.systems.fantasy.resolution.hit_probability`): the actor's
自動失敗 loses, its 自動成功 wins unless the opposer also rolls 自動成功; otherwise the opposer's
自動失敗 loses and its 自動成功 wins; only then are the totals compared.  1,296 pairs of rolls
are enumerated.

>>> o = opposed_odds("2D6+5>=2D6+3")
>>> str(o.win), str(o.tie)
('487/648', '119/1296')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from ikusa.dice.odds import COMPARISONS, frac_text, percent_text
from ikusa.dice.term_table import Group, Table, Text
from ikusa.engine.errors import InputError
from ikusa.systems.command_syntax import ARITH, eval_int, split_command

if TYPE_CHECKING:
    from rich.console import RenderableType

OPPOSED_RE = re.compile(rf"^2D6(?P<a>(?:[-+]{ARITH}*)?)(?P<op>>=|>)2D6(?P<b>(?:[-+]{ARITH}*)?)$")


@mypyc_attr(allow_interpreted_subclasses=True)  # copied via cls.__new__ (deepcopy, pickle): see setup.py
@dataclass(frozen=True, slots=True)
class OpposedOdds:
    command: str
    actor: int
    opposer: int
    op: str
    win: Fraction
    tie: Fraction
    by_auto: Fraction

    def to_json(self) -> dict[str, Any]:
        return {"system": "fantasy", "command": self.command, "kind": "opposed", "actor_value": self.actor,
                "opposer_value": self.opposer, "comparison": self.op, "success": frac_text(self.win),
                "failure": frac_text(1 - self.win), "tie": frac_text(self.tie),
                "decided_by_auto": frac_text(self.by_auto)}

    def render(self) -> Group:
        tie_to = "actor" if self.op == ">=" else "opposer"
        head = Text.assemble(("fantasy ", "bold"), (f"2D6{self.actor:+d} {self.op} 2D6{self.opposer:+d}", "bold cyan"),
                             f"  (opposed, F-H01; 1,296 pairs enumerated; ties go to the {tie_to})")
        t = Table(title="対抗判定の確率 (正確値)", title_justify="left")
        t.add_column("結果")
        t.add_column("確率", justify="right")
        t.add_row("左 (actor) の勝ち", f"{percent_text(self.win)} ({frac_text(self.win)})")
        t.add_row("右 (opposer) の勝ち", f"{percent_text(1 - self.win)} ({frac_text(1 - self.win)})")
        t.add_row("達成値が同じ", f"{percent_text(self.tie)} ({frac_text(self.tie)})")
        t.add_row("自動成功/自動失敗で決まる (F-G04)", f"{percent_text(self.by_auto)} ({frac_text(self.by_auto)})")
        return Group(head, t)

    def __rich__(self) -> RenderableType:
        return self.render()


def _auto(a: int, b: int) -> int:
    """+1 自動成功 ([6,6]), −1 自動失敗 ([1,1]), 0 neither (F-G04)."""
    return 1 if a == b == 6 else -1 if a == b == 1 else 0


def opposed_odds(command: str) -> OpposedOdds:
    """Exact odds of ``2D6[+a]>=2D6[+b]`` (or ``>``: ties to the opposer)."""
    word, _comment = split_command(command)
    if word.startswith("S") and OPPOSED_RE.match(word[1:]):
        word = word[1:]
    m = OPPOSED_RE.match(word)
    if m is None:
        raise InputError(f"not an opposed fantasy check: {command!r}; expected 2D6[+a]>=2D6[+b]", field="command")
    a, b, op = eval_int(m.group("a")), eval_int(m.group("b")), m.group("op")
    test = COMPARISONS[op]
    rolls = list(product(range(1, 7), repeat=2))
    win = tie = auto = 0
    for x in rolls:
        ax = _auto(*x)
        for y in rolls:
            ay = _auto(*y)
            if ax == -1 or (ax == 0 and ay == 1):
                auto += 1
                continue
            if ax == 1 or ay == -1:
                auto += 1
                win += (ax == 1 and ay != 1) or ax == 0
                continue
            ta, tb = sum(x) + a, sum(y) + b
            tie += ta == tb
            win += test(ta, tb)
    n = len(rolls) ** 2
    return OpposedOdds(word, a, b, op, Fraction(win, n), Fraction(tie, n), Fraction(auto, n))
