"""Abuse limits (ikusa.dice.bcdice.limits): BCDice's answers over its per-roll limits
(issue #10), clear IkusaErrors over the per-command budget, never a hang."""

from __future__ import annotations

import pytest

import ikusa
from ikusa import DiceError, InputError
from ikusa.dice.source import RandomSource, ScriptedSource


def _text(cmd: str, dice: list[int] | None = None) -> str:
    res = ikusa.roll(cmd, dice=dice if dice is not None else [])
    assert res is not None, cmd
    return res.text


def test_over_200_dice_in_one_roll_rolls_nothing() -> None:
    """BCDice's roll_barabara: a roll of more than 200 dice (or fewer than 1) is no dice."""
    assert ikusa.roll("200D6", dice=RandomSource(1)) is not None
    assert _text("201D6") == "(201D6) ＞ 0"
    assert _text("500d6") == "(500D6) ＞ 0"
    assert _text("201D") == "(201D6) ＞ 0"
    assert _text("300B6") == "(300B6) ＞ "
    assert _text("250R6[>=7]") == "(250R6[>=7]) ＞  ＞ 成功数0"
    assert _text("(0-1)D6") == "(-1D6) ＞ 0"


def test_the_budget_is_10000_dice_per_command() -> None:
    """Rolls of at most 200 add up (300 dice); a command draws at most 10,000 dice."""
    res = ikusa.roll("100D6+100D6+100D6", dice=RandomSource(1))
    assert res is not None and len(res.dice) == 300
    res = ikusa.roll("x50 200D6", dice=RandomSource(1))
    assert res is not None and len(res.dice) == 10_000
    with pytest.raises(DiceError, match="at most 10000 dice"):
        ikusa.roll("x51 200D6", dice=RandomSource(1))
    with pytest.raises(DiceError, match="at most 10000 dice"):
        ikusa.roll("5001D66", dice=RandomSource(1))  # two d6 per d66 value, no 200 cap (BCDice)


def test_sides_over_10000_show_zero_and_draw_nothing() -> None:
    assert ikusa.roll("1D10000", dice=[10000]) is not None
    assert _text("1D10001") == "(1D10001) ＞ 0"
    assert _text("2D10001") == "(2D10001) ＞ 0[0,0] ＞ 0"
    assert _text("1D0") == "(1D0) ＞ 0"
    assert _text("2U10001[5]") == "(2U10001[5]) ＞ 0,0 ＞ 0/0(最大/合計)"
    assert _text("1R10001[5]") == "(1R10001[>=5]) ＞ 0 ＞ 成功数0"


def test_exploding_dice_cannot_run_away() -> None:
    """A d6 exploding on 2+ that keeps rolling 6: stopped at 10,000 dice drawn."""
    with pytest.raises(DiceError, match="too many dice"):
        ikusa.roll("1U6[2]", dice=ScriptedSource([6] * 10_001))


def test_reroll_dice_cannot_run_away() -> None:
    """``1R1[=1]`` rerolls every die forever: BCDice stops after 10,000 groups, and
    ``2R1[=1]`` runs over the 10,000-dice budget (BCDice: TooManyRandsError)."""
    res = ikusa.roll("1R1[=1]", dice=RandomSource(1))
    assert res is not None and len(res.dice) == 10_000 and res.text.endswith("+ 1 ＞ 成功数0")
    with pytest.raises(DiceError, match="too many dice"):
        ikusa.roll("2R1[=1]", dice=RandomSource(1))


def test_repeat_count_answers_as_bcdice() -> None:
    assert ikusa.roll("x100 1D6", dice=RandomSource(1)) is not None
    for cmd in ("x101 1D6", "rep0 1D6", "repeat99999999999999 1D6"):
        assert _text(cmd) == "繰り返し回数は1以上、100以下としてください"
    res = ikusa.roll("sx0 1D6", dice=[])
    assert res is not None and res.secret


def test_huge_numbers_are_refused() -> None:
    with pytest.raises(InputError, match="number too large"):
        ikusa.roll("1D6+" + "9" * 1001, dice=RandomSource(1))
    with pytest.raises(InputError, match="number too large"):
        ikusa.roll("1D6" + ("*" + "9" * 900) * 3, dice=RandomSource(1))


def test_long_chains_do_not_recurse() -> None:
    res = ikusa.roll("1D6" + "+1" * 5000, dice=[4])
    assert res is not None and res.text.endswith(" ＞ 5004")
    assert _text("C(" + "-" * 5001 + "1)") == "c(" + "-" * 5001 + "1) ＞ -1"


def test_deep_parentheses_are_not_a_command() -> None:
    ok = "(" * 50 + "1D6" + ")" * 50
    assert ikusa.roll(ok, dice=[3]) is not None
    assert ikusa.roll("(" * 150 + "1D6" + ")" * 150, dice=[3]) is None
    assert ikusa.roll("-" * 5000 + "1D6", dice=[3]) is not None


def test_division_by_zero() -> None:
    """C() answers BCDice's message; elsewhere outside sum dice it is an InputError."""
    assert _text("C(1/0)") == "c(1/0) ＞ ゼロ除算が発生したため計算できませんでした"
    assert _text("C(1/0R)") == "c(1/0R) ＞ ゼロ除算が発生したため計算できませんでした"
    with pytest.raises(InputError, match="division by zero"):
        ikusa.roll("2B6>=1/0", dice=RandomSource(1))


def test_choice_ranges_are_never_materialised() -> None:
    assert _text("choice[1-1000]") == "項目数は100以下としてください"
    assert _text("choice3[1-" + "9" * 5000 + "]") == "項目数は100以下としてください"
    assert ikusa.roll("choice5[1-3]", dice=[]) is None
