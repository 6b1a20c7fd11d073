"""Issue #2 §2 abuse limits (ikusa.dice.bcdice.limits): clear IkusaErrors, never a hang."""

from __future__ import annotations

import pytest

import ikusa
from ikusa import DiceError, InputError
from ikusa.dice.source import RandomSource, ScriptedSource


def test_at_most_200_dice_in_one_term() -> None:
    assert ikusa.roll("200D6", dice=RandomSource(1)) is not None
    with pytest.raises(DiceError, match="at most 200"):
        ikusa.roll("201D6", dice=RandomSource(1))


def test_at_most_200_dice_across_the_command() -> None:
    """The budget is per command: 100D6+101D6 is 201 dice."""
    with pytest.raises(DiceError, match="too many dice"):
        ikusa.roll("100D6+101D6", dice=RandomSource(1))
    with pytest.raises(DiceError, match="too many dice"):
        ikusa.roll("150B6+51B6", dice=RandomSource(1))
    with pytest.raises(DiceError, match="too many dice"):
        ikusa.roll("101D66", dice=RandomSource(1))  # two d6 per d66 value


def test_sides_limit() -> None:
    assert ikusa.roll("1D10000", dice=[10000]) is not None
    for cmd in ("1D10001", "2B10001", "1U10001[10000]", "1R10001[5]"):
        with pytest.raises(DiceError, match="1..10000 sides"):
            ikusa.roll(cmd, dice=RandomSource(1))
    with pytest.raises(DiceError, match="sides"):
        ikusa.roll("1D0", dice=RandomSource(1))


def test_exploding_dice_cannot_run_away() -> None:
    """A d6 exploding on 2+ that keeps rolling 6: stopped at 200 dice drawn."""
    with pytest.raises(DiceError, match="too many dice"):
        ikusa.roll("1U6[2]", dice=ScriptedSource([6] * 300))


def test_reroll_dice_cannot_run_away() -> None:
    """``1R1[=1]`` rerolls every die forever in BCDice until its 10,000-loop cap."""
    with pytest.raises(DiceError, match="too many dice"):
        ikusa.roll("1R1[=1]", dice=RandomSource(1))


def test_repeat_limit() -> None:
    assert ikusa.roll("x100 1D6", dice=RandomSource(1)) is not None
    for cmd in ("x101 1D6", "rep0 1D6", "repeat99999999999999 1D6"):
        with pytest.raises(InputError, match="1..100"):
            ikusa.roll(cmd, dice=RandomSource(1))


def test_repeat_budget_is_per_repetition() -> None:
    res = ikusa.roll("x2 150D6", dice=RandomSource(1))
    assert res is not None and len(res.dice) == 300


def test_huge_numbers_are_refused() -> None:
    with pytest.raises(InputError, match="number too large"):
        ikusa.roll("1D6+" + "9" * 1001, dice=RandomSource(1))
    with pytest.raises(InputError, match="number too large"):
        ikusa.roll("1D6" + ("*" + "9" * 900) * 3, dice=RandomSource(1))


def test_long_chains_do_not_recurse() -> None:
    res = ikusa.roll("1D6" + "+1" * 5000, dice=[4])
    assert res is not None and res.text.endswith(" ＞ 5004")


def test_deep_parentheses_are_not_a_command() -> None:
    ok = "(" * 50 + "1D6" + ")" * 50
    assert ikusa.roll(ok, dice=[3]) is not None
    assert ikusa.roll("(" * 150 + "1D6" + ")" * 150, dice=[3]) is None
    assert ikusa.roll("-" * 5000 + "1D6", dice=[3]) is not None


def test_negative_dice_count() -> None:
    with pytest.raises(DiceError, match="negative"):
        ikusa.roll("(0-1)D6", dice=RandomSource(1))


def test_division_by_zero_outside_sum_dice_is_an_input_error() -> None:
    with pytest.raises(InputError, match="division by zero"):
        ikusa.roll("2B6>=1/0", dice=RandomSource(1))
