"""千幻抄 checks (003): the dice-pool check and BCDice's 3D6 ``SGS`` check.  Pure functions.

Dice-pool check (G-R01, G-H03, 003:L318,L321,L327): spending n DP rolls n d6;
達成値 = 判定値 (特性値 + skill Lv + modifiers) + the n dice.

* Combat actions and ability activation roll at least one die (G-R03, G-G10); movement and
  perception checks may be diceless (達成値 = 判定値).
* G-R29 (003:L245): the GM may skip rolling for enemies and use dice × 3.5; G-G30's default
  rounds that down (``gm.fixed_roll_rounding = "floor"``; also ``"ceil"``, ``"exact"``).

>>> pool_total(7, [4, 1, 5])
17
>>> fixed_dice_value(2), fixed_dice_value(3), fixed_dice_value(3, "ceil")
(7, 10, 11)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import ceil, floor
from typing import Literal

from mypy_extensions import mypyc_attr

from ikusa.engine.errors import RuleViolation

#: G-G30 ``gm.fixed_roll_rounding``
FixedRounding = Literal["floor", "ceil", "exact"]
DEFAULT_FIXED_ROUNDING: FixedRounding = "floor"

#: BCDice ``SGS``: natural 3D6 ≥ 16 is クリティカル, ≤ 5 ファンブル
SGS_DICE = 3
SGS_CRITICAL_AT = 16
SGS_FUMBLE_AT = 5

#: a sanity bound on one dice-pool check (DP max per G-G03 is around 10 + three stats)
MAX_POOL = 60


def pool_total(judgement_value: int, dice: Sequence[int]) -> int:
    """G-R01: 達成値 = 判定値 + the sum of the dice rolled for the DP spent."""
    return judgement_value + sum(dice)


def fixed_dice_value(n_dice: int, rounding: FixedRounding = DEFAULT_FIXED_ROUNDING) -> int:
    """G-R29 / G-G30: the GM's fixed value for ``n_dice`` unrolled dice, 3.5 each, rounded
    down by default.  ``"exact"`` is only allowed when the value is whole."""
    value = Fraction(7, 2) * n_dice
    if rounding == "floor":
        return floor(value)
    if rounding == "ceil":
        return ceil(value)
    if value.denominator != 1:
        raise ValueError(f"{n_dice} × 3.5 = {float(value)} is not whole; choose floor or ceil rounding")
    return int(value)


def check_dice_count(n_dice: int, *, combat: bool) -> None:
    """G-R03 / G-G10 (003:L52-57): combat actions and ability activation spend at least one
    die; only movement/perception-type checks may be diceless.  Also 0 ≤ n ≤ MAX_POOL."""
    if n_dice < 0:
        raise RuleViolation("G-R01", "003 判定とDP", f"cannot spend {n_dice} DP")
    if n_dice > MAX_POOL:
        raise RuleViolation("G-R01", "003 判定とDP", f"{n_dice} DP is more than the {MAX_POOL} one check can use")
    if combat and n_dice == 0:
        raise RuleViolation(
            "G-R03", "003 ダイスなし判定",
            "combat actions and ability activation must roll at least 1 die (0 DP only for movement/perception)",
        )


@mypyc_attr(allow_interpreted_subclasses=True)  # copied via cls.__new__ (deepcopy, pickle): see setup.py
@dataclass(frozen=True, slots=True)
class PoolCheck:
    """One dice-pool check: 判定値, the dice rolled (empty when diceless or fixed), and for
    the GM's fixed mode the number of unrolled dice."""

    judgement_value: int
    dice: tuple[int, ...] = ()
    fixed_dice: int = 0
    rounding: FixedRounding = DEFAULT_FIXED_ROUNDING

    @property
    def dice_count(self) -> int:
        return len(self.dice) + self.fixed_dice

    @property
    def dice_value(self) -> int:
        """The dice part of 達成値: the sum rolled, or the fixed value (G-R29)."""
        if self.fixed_dice:
            return fixed_dice_value(self.fixed_dice, self.rounding)
        return sum(self.dice)

    @property
    def total(self) -> int:
        """達成値 (G-R01)."""
        return self.judgement_value + self.dice_value


def sgs_critical(natural: int) -> bool:
    """BCDice Sengensyou ``SGS``: the natural 3D6 is 16 or more."""
    return natural >= SGS_CRITICAL_AT


def sgs_fumble(natural: int) -> bool:
    """BCDice Sengensyou ``SGS``: the natural 3D6 is 5 or less."""
    return natural <= SGS_FUMBLE_AT
