"""Exact odds helpers shared by the systems' ``odds`` modules.

Probabilities are :class:`fractions.Fraction` everywhere: computed by enumeration or
convolution, never sampled.  JSON carries them as strings (``"79/100"``); the terminal shows
percentages rounded half up.

>>> dist = sum_distribution(2, 6)
>>> dist[7], at_least(dist, 10)
(Fraction(1, 6), Fraction(1, 6))
>>> frac_text(Fraction(79, 100)), percent_text(Fraction(79, 100)), percent_text(Fraction(1, 216))
('79/100', '79%', '0.46%')
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ikusa.dice.term_table import Group

#: BCDice comparison operators (``=``/``<>`` spellings included)
COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt,
    "==": operator.eq, "=": operator.eq, "!=": operator.ne, "<>": operator.ne,
}


class OddsResult(Protocol):
    """What every ``ikusa.systems.<id>.odds.odds_command`` returns."""

    def to_json(self) -> dict[str, Any]:
        """Exact fractions as strings (the ``--json`` shape of ``ikusa odds``)."""
        ...

    def render(self) -> Group:
        """The tables for the terminal (:func:`ikusa.dice.term_table.print_renderable`; a rich
        renderable through ``__rich__``)."""
        ...


def frac_text(p: Fraction) -> str:
    """``"79/100"``; whole numbers as ``"0"``/``"1"``."""
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def percent_text(p: Fraction, digits: int = 2) -> str:
    """``79%`` when exact, else rounded half up to ``digits`` decimals (``0.46%``); a value
    that is not exactly 0 or 1 never shows as ``0%``/``100%`` (``<0.01%``, ``>99.99%``)."""
    value = p * 100
    if value.denominator == 1:
        return f"{value.numerator}%"
    q = Decimal(value.numerator) / Decimal(value.denominator)
    step = Decimal(1).scaleb(-digits)
    shown = q.quantize(step, rounding=ROUND_HALF_UP)
    if shown >= 100:  # never print 100% for something that can fail
        return f">{(100 - step):f}%"
    if shown <= 0:  # nor 0% for something that can happen
        return f"<{step:f}%"
    return f"{shown.normalize():f}%"


@lru_cache(maxsize=256)
def sum_counts(n: int, sides: int) -> tuple[tuple[int, int], ...]:
    """``(total, ways)`` pairs for the sum of ``n`` dice with ``sides`` faces, by total."""
    counts: dict[int, int] = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for total, c in counts.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + c
        counts = nxt
    return tuple(sorted(counts.items()))


def sum_distribution(n: int, sides: int) -> dict[int, Fraction]:
    """Exact distribution of the sum of ``n`` dice with ``sides`` faces (convolution);
    ``n = 0`` is the point mass at 0."""
    if n < 0 or sides < 1:
        raise ValueError(f"cannot roll {n}d{sides}")
    denom = sides**n
    return {total: Fraction(c, denom) for total, c in sum_counts(n, sides)}


def shifted(dist: Mapping[int, Fraction], by: int) -> dict[int, Fraction]:
    """The distribution of X + ``by``."""
    return {k + by: p for k, p in dist.items()}


def at_least(dist: Mapping[int, Fraction], x: int) -> Fraction:
    """P(X ≥ x)."""
    return sum((p for k, p in dist.items() if k >= x), Fraction(0))


def probability(dist: Mapping[int, Fraction], op: str, target: int) -> Fraction:
    """P(X op target) for a BCDice comparison operator."""
    cmp = COMPARISONS[op]
    return sum((p for k, p in dist.items() if cmp(k, target)), Fraction(0))


def mean(dist: Mapping[int, Fraction]) -> Fraction:
    return sum((k * p for k, p in dist.items()), Fraction(0))
