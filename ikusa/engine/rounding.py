"""Rounding helpers.  Never use Python's ``round`` for rules (banker's rounding)."""

from __future__ import annotations

from fractions import Fraction
from math import ceil, floor


def round_half_up(x: float | Fraction | int) -> int:
    """四捨五入 (S-R06, 000 §3.1): 0.5 rounds up, also for negative halves toward +inf.

    >>> [round_half_up(v) for v in (1.5, 3.0, 4.5, 2.5, 0.49)]
    [2, 3, 5, 3, 0]
    """
    return floor(Fraction(x) + Fraction(1, 2))


def round_up(x: float | Fraction | int) -> int:
    """切り上げ (ceiling), as 003 uses it where it says so.

    >>> round_up(Fraction(5, 2)), round_up(3)
    (3, 3)
    """
    return ceil(Fraction(x))
