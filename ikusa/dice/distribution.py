"""Exact distribution of a plain DiceBot sum (``ikusa odds "3D6>=12"``, no system).

A sum of dice groups and whole numbers (``3D6``, ``2D6+1D4-1``, ``D66`` is not a sum) with an
optional BCDice comparison.  Counts are convolved as integers, so every probability is an
exact fraction (never sampled), like the systems' odds.

>>> d = sum_odds("3D6>=12")
>>> str(d.success), d.low, d.high
('3/8', 3, 18)
>>> str(d.p_equal(10)), str(d.p_at_least(10))
('1/8', '5/8')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ikusa.dice.odds import COMPARISONS, frac_text, percent_text
from ikusa.engine.errors import InputError

if TYPE_CHECKING:  # rich is imported by render() only: ``ikusa odds --json`` never loads it (issue #12)
    from rich.console import RenderableType

    from ikusa.dice.term_table import Group, Table, Text

#: the dice bot's own limits (README "Limits")
MAX_DICE = 200
MAX_SIDES = 10_000
#: the widest range of totals enumerated (dice × sides summed over the groups)
MAX_SPAN = 20_000

_TERM = re.compile(r"([+-]?)(?:(\d*)D(\d+)|(\d+))")
_CMP = re.compile(r"^(?P<expr>[^<>=!]+?)(?:(?P<op>>=|<=|<>|!=|==|>|<|=)(?P<tn>[+-]?\d+))?$")


def _convolve(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


@dataclass(frozen=True, slots=True)
class SumOdds:
    """P of each total of a dice sum; ``op``/``target`` from the comparison, if any."""

    command: str
    low: int
    counts: tuple[int, ...]
    op: str | None = None
    target: int | None = None

    @property
    def high(self) -> int:
        return self.low + len(self.counts) - 1

    @property
    def ways(self) -> int:
        return sum(self.counts)

    def p_equal(self, total: int) -> Fraction:
        i = total - self.low
        return Fraction(self.counts[i], self.ways) if 0 <= i < len(self.counts) else Fraction(0)

    def p_at_least(self, total: int) -> Fraction:
        i = max(0, total - self.low)
        return Fraction(sum(self.counts[i:]), self.ways)

    @property
    def mean(self) -> Fraction:
        return Fraction(sum((self.low + i) * c for i, c in enumerate(self.counts)), self.ways)

    @property
    def success(self) -> Fraction | None:
        if self.op is None or self.target is None:
            return None
        test = COMPARISONS[self.op]
        target = self.target
        return Fraction(sum(c for i, c in enumerate(self.counts) if test(self.low + i, target)), self.ways)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "system": "DiceBot", "command": self.command, "min": self.low, "max": self.high,
            "mean": frac_text(self.mean),
            "distribution": {str(self.low + i): frac_text(Fraction(c, self.ways)) for i, c in enumerate(self.counts)},
            "at_least": {str(self.low + i): frac_text(self.p_at_least(self.low + i)) for i in range(len(self.counts))},
        }
        if self.success is not None:
            out.update(comparison=self.op, target=self.target, success=frac_text(self.success),
                       failure=frac_text(1 - self.success))
        return out

    def render(self) -> Group:
        from ikusa.dice.term_table import Group, Table, Text

        head = Text.assemble(("DiceBot ", "bold"), (self.command, "bold cyan"),
                             f"  ({self.ways:,} equally likely rolls enumerated; mean {float(self.mean):.2f})")
        parts: list[Text | Table] = [head]
        if self.success is not None:
            parts.append(Text(f"成功 {percent_text(self.success)} ({frac_text(self.success)})  /  失敗 "
                              f"{percent_text(1 - self.success)} ({frac_text(1 - self.success)})"))
        table = Table(title="合計の分布 (正確値)", title_justify="left")
        for col in ("合計", "=", "≥"):
            table.add_column(col, justify="right")
        shown = range(self.low, self.high + 1)
        if len(self.counts) > 60:  # a wide sum: the totals where 99.9 % of the mass lies
            lo = next(t for t in shown if self.p_at_least(t + 1) < Fraction(9995, 10000))
            hi = next(t for t in shown if self.p_at_least(t + 1) < Fraction(5, 10000))
            shown = range(lo, hi + 1)
        for t in shown:
            table.add_row(str(t), percent_text(self.p_equal(t)), percent_text(self.p_at_least(t)))
        parts.append(table)
        return Group(*parts)

    def __rich__(self) -> RenderableType:
        return self.render()


def sum_odds(command: str) -> SumOdds:
    """Exact distribution of ``NdM[+NdM…][±k][op TN]`` (the DiceBot sum, BCDice's ``3D6>=12``)."""
    text = command.strip().split(" ", 1)[0].upper()
    if text.startswith("S"):
        text = text[1:]  # secret: the odds are the same
    m = _CMP.match(text)
    if m is None:
        raise InputError(f"not a dice sum: {command!r}; expected e.g. 3D6, 2D6+1D4-1, 3D6>=12", field="command")
    expr = m.group("expr")
    pos = 0
    low = 0
    counts = [1]
    dice = span = 0
    while pos < len(expr):
        t = _TERM.match(expr, pos)
        if t is None or t.end() == pos or (pos > 0 and not t.group(1)):
            raise InputError(f"not a dice sum: {command!r}; only NdM and whole numbers joined by + and -",
                             field="command")
        sign = -1 if t.group(1) == "-" else 1
        if t.group(4) is not None:
            low += sign * int(t.group(4)[:9])
        else:
            n = int(t.group(2)[:9]) if t.group(2) else 1
            sides = int(t.group(3)[:9])
            dice += n
            span += n * max(sides - 1, 0)
            if not 1 <= sides <= MAX_SIDES:
                raise InputError(f"dice have 1…{MAX_SIDES:,} sides, not {sides}", field="command")
            if dice > MAX_DICE or span > MAX_SPAN:
                raise InputError(f"too many dice to enumerate exactly (at most {MAX_DICE} dice and a range of "
                                 f"{MAX_SPAN:,} totals)", field="command")
            one = [1] * sides
            for _ in range(n):
                counts = _convolve(counts, one)
            if sign > 0:
                low += n
            else:
                counts.reverse()
                low -= n * sides
        pos = t.end()
    tn = m.group("tn")
    return SumOdds(text, low, tuple(counts), m.group("op"), int(tn[:10]) if tn is not None else None)
