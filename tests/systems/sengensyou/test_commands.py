"""千幻抄 dice-bot commands: BCDice's SGS (exact text and flags) and the DP dice-pool check
(G-R01, G-R03, G-R29, G-G30; G-T17, G-T19, G-T24)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikusa import api
from ikusa.dice import bcdice
from ikusa.dice.result import RollResult
from ikusa.dice.source import DiceSource, ScriptedSource
from ikusa.engine.errors import InputError, RuleViolation
from ikusa.systems.sengensyou.check import PoolCheck, check_dice_count, fixed_dice_value, pool_total
from ikusa.systems.sengensyou.commands import roll_command


def roll(cmd: str, *dice: int) -> RollResult:
    src = ScriptedSource(list(dice))
    r = roll_command(cmd, src)
    assert r is not None, cmd
    assert src.remaining == 0
    return r


def test_sgs_plain_critical_fumble_bcdice_text() -> None:
    r = roll("SGS", 4, 1, 3)
    assert r.text == "(3D6) ＞ 8[4,1,3] ＞ 8"
    assert not (r.success or r.failure or r.critical or r.fumble)
    r = roll("SGS", 5, 5, 6)
    assert r.text == "(3D6) ＞ 16[5,5,6] ＞ 16 ＞ クリティカル" and r.critical and not r.fumble
    r = roll("SGS", 1, 2, 2)
    assert r.text == "(3D6) ＞ 5[1,2,2] ＞ 5 ＞ ファンブル" and r.fumble and not r.critical


def test_sgs_modifier_forms() -> None:
    assert roll("SGS+4+6", 4, 1, 3).text == "(3D6+10) ＞ 8[4,1,3] ＞ 8+10 ＞ 18"
    assert roll("SGS-2", 4, 1, 3).text == "(3D6-2) ＞ 8[4,1,3] ＞ 8-2 ＞ 6"
    assert roll("SGS+2*3", 4, 1, 3).text == "(3D6+6) ＞ 8[4,1,3] ＞ 8+6 ＞ 14"
    assert roll("SGS+0", 4, 1, 3).text == "(3D6) ＞ 8[4,1,3] ＞ 8"
    assert roll("sgs+1 回避", 6, 6, 4).text == "(3D6+1) ＞ 16[6,6,4] ＞ 16+1 ＞ 17 ＞ クリティカル"


def test_sgs_boundaries_15_and_6_are_plain() -> None:
    assert roll("SGS", 5, 5, 5).text == "(3D6) ＞ 15[5,5,5] ＞ 15"
    assert roll("SGS", 1, 2, 3).text == "(3D6) ＞ 6[1,2,3] ＞ 6"


def test_sgs_reads_no_comparison_as_bcdice() -> None:
    """BCDice 3.16.1 refuses a comparison after SGS (issue #10): not a command, no die
    drawn; the judged 3D6 check is ikusa's own DP3."""
    for cmd in ("SGS+2>=12", "SGS>10", "SGS<=10"):
        assert roll_command(cmd, ScriptedSource([])) is None
    r = roll("DP3+2>=12", 5, 5, 6)
    assert r.text == "(DP3+2>=12) ＞ 3D6+2 ＞ 16[5,5,6]+2 ＞ 18 ＞ 成功" and r.success


def test_secret_prefix() -> None:
    r = roll("SSGS+1", 4, 1, 3)
    assert r.secret and r.text == "(3D6+1) ＞ 8[4,1,3] ＞ 8+1 ＞ 9"
    assert roll("SDP2+3>=9", 3, 3).secret


def test_dp_pool_check_g_r01() -> None:
    r = roll("DP3+7>=12", 4, 1, 5)
    assert r.text == "(DP3+7>=12) ＞ 3D6+7 ＞ 10[4,1,5]+7 ＞ 17 ＞ 成功"
    assert r.success and r.dice == [(4, 6), (1, 6), (5, 6)]
    assert r.extra["dp"] == 3 and r.extra["judgement_value"] == 7 and r.extra["total"] == 17
    assert roll("DP1+4+3>=12", 4).text == "(DP1+7>=12) ＞ 1D6+7 ＞ 4[4]+7 ＞ 11 ＞ 失敗"
    assert roll("DP2", 3, 4).text == "(DP2) ＞ 2D6 ＞ 7[3,4] ＞ 7"


def test_g_t17_movement_example() -> None:
    """G-T17: 身体 3 + 〈回避〉 2, 2 DP = [3,4] → 12 m reachable."""
    assert roll("DP2+3+2>=9", 3, 4).extra["total"] == 12
    assert pool_total(5, [3, 4]) == 12


def test_dp_zero_is_diceless_with_warning_g_r03() -> None:
    r = roll("DP0+5>=5")
    assert r.text == "(DP0+5>=5) ＞ ダイスなし ＞ 5 ＞ 成功" and r.dice == []
    assert any(w.startswith("G-R03") for w in r.extra["warnings"])


def test_g_t24_combat_needs_a_die() -> None:
    """G-T24: a shot with 0 DP is refused; movement with 0 DP is allowed."""
    with pytest.raises(RuleViolation) as exc:
        check_dice_count(0, combat=True)
    assert exc.value.rule == "G-R03"
    check_dice_count(0, combat=False)
    check_dice_count(1, combat=True)


def test_g_t19_fixed_mode_g_r29_g_g30() -> None:
    """G-T19: 2 dice → 7; 3 dice → 10.5 → 10 (floor)."""
    assert fixed_dice_value(2) == 7 and fixed_dice_value(3) == 10
    assert fixed_dice_value(3, "ceil") == 11
    with pytest.raises(ValueError):
        fixed_dice_value(3, "exact")
    assert fixed_dice_value(4, "exact") == 14
    r = roll("DPF3+7>=17")
    assert r.text == "(DPF3+7>=17) ＞ 固定値 3×3.5→10 ＞ 10+7 ＞ 17 ＞ 成功" and r.dice == []
    assert roll("DPF2").text == "(DPF2) ＞ 固定値 2×3.5=7 ＞ 7"
    r = roll_command("DPF3+7>=18", ScriptedSource([]), fixed_rounding="ceil")
    assert r is not None and r.text == "(DPF3+7>=18) ＞ 固定値 3×3.5→11 ＞ 11+7 ＞ 18 ＞ 成功"
    assert PoolCheck(7, fixed_dice=3).total == 17


def test_dp_limits() -> None:
    with pytest.raises(RuleViolation):
        roll_command("DP61", ScriptedSource([]))


def test_fallback_and_api(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def fake(command: str, dice: DiceSource, *, evaluate: object = None) -> RollResult | None:
        seen.append(command)
        return None

    monkeypatch.setattr(bcdice, "roll_command", fake)
    assert roll_command("2D6+1", ScriptedSource([])) is None
    assert roll_command("SGSX", ScriptedSource([])) is None
    assert seen == ["2D6+1", "SGSX"]
    r = api.roll("SGS+4+6", system="Sengensyou", dice=[5, 5, 6])
    assert r is not None and r.text == "(3D6+10) ＞ 16[5,5,6] ＞ 16+10 ＞ 26 ＞ クリティカル"


def test_bad_arithmetic_is_input_error() -> None:
    with pytest.raises(InputError):
        roll_command("SGS+4/0", ScriptedSource([1, 1, 1]))


@settings(max_examples=100, deadline=None)
@given(dice=st.lists(st.integers(1, 6), min_size=3, max_size=3), mod=st.integers(-20, 20))
def test_sgs_flags_invariant(dice: list[int], mod: int) -> None:
    """critical ⇔ natural ≥ 16, fumble ⇔ natural ≤ 5, never both; total = natural + mod."""
    r = roll(f"SGS{mod:+d}", *dice)
    nat = sum(dice)
    assert r.critical == (nat >= 16) and r.fumble == (nat <= 5)
    assert r.text.split(" ＞ ")[-1 - (r.critical or r.fumble)] == str(nat + mod)
