"""QA regressions for the systems' dice-bot commands (systems/sengensyou/commands.py,
systems/command_syntax.py): a malformed check is refused with one line, never read as
"not a command" (silent empty output)."""

from __future__ import annotations

import pytest

from ikusa.api import roll
from ikusa.engine.errors import InputError, RuleViolation


@pytest.mark.parametrize("cmd", ["DP99999+7>=12", "DP61"])
def test_dp_over_the_limit_names_g_r01(cmd: str) -> None:
    """Was: ``DP99999`` (4+ digits) silently printed nothing; G-R01 caps one check at 60."""
    with pytest.raises(RuleViolation) as err:
        roll(cmd, "sengensyou", dice=[])
    assert err.value.rule == "G-R01"


@pytest.mark.parametrize("cmd", ["DP-1+7>=12", "DP", "SDP+3", "DP1" + "9" * 40])
def test_malformed_dp_is_an_input_error(cmd: str) -> None:
    """Was: silently not a command (empty output, exit 0)."""
    with pytest.raises(InputError, match="G-R01"):
        roll(cmd, "sengensyou", dice=[])


def test_dp_still_rolls_and_other_words_still_fall_back() -> None:
    r = roll("DP3+7>=12", "sengensyou", dice=[1, 1, 1])
    assert r is not None and r.text == "(DP3+7>=12) ＞ 3D6+7 ＞ 3[1,1,1]+7 ＞ 10 ＞ 失敗"
    assert roll("DPX", "sengensyou", dice=[]) is None
    r = roll("2D6", "sengensyou", dice=[2, 3])
    assert r is not None and r.text == "(2D6) ＞ 5[2,3] ＞ 5"


def test_long_number_in_a_check_says_too_large() -> None:
    """Was: 'cannot read '+999…' as arithmetic' for a modifier of 10+ digits."""
    with pytest.raises(InputError, match="number too large"):
        roll("2D10+" + "9" * 23 + ">=11", "maai", dice=[1, 2])
    r = roll("2D10+999999999>=11", "maai", dice=[1, 2])
    assert r is not None and "+999999999→+10" in r.text  # S-R07 clamp still applies


def test_deep_parentheses_are_refused_not_a_recursion_error() -> None:
    """Was: RecursionError traceback for 5000 nested parentheses in a maai modifier."""
    with pytest.raises(InputError, match="nested deeper"):
        roll("2D10+" + "(" * 5000 + "1" + ")" * 5000 + ">=11", "maai", dice=[1, 2])
    r = roll("2D10+((3))-(-2)>=11", "maai", dice=[1, 2])
    assert r is not None and r.text == "(2D10+((3))-(-2)>=11) ＞ 3[1,2]+5 ＞ 8 ＞ 失敗"


def test_long_sign_chain_is_evaluated_without_recursion() -> None:
    r = roll("2D10+" + "-" * 5000 + "1>=11", "maai", dice=[3, 10])
    assert r is not None and r.extra["modifier"] == 1


@pytest.mark.parametrize("system", ["maai", "sengensyou", "fantasy"])
def test_odds_refusal_has_one_field_prefix(system: str) -> None:
    """Was: 'error: <command>:command: not a maai check …' (two prefixes)."""
    from ikusa.api import odds

    with pytest.raises(InputError) as err:
        odds(system, "junk")
    assert str(err.value).startswith("command: not a ")
