"""maai dice-bot commands (issue #2 §2): the 2D10 check text, flags, clamp (S-R07), doubles
(S-R08…S-R12), fate intervention (S-R14…S-R16, S-G27), even TNs (S-G01)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikusa import api
from ikusa.dice import bcdice
from ikusa.dice.result import RollResult
from ikusa.dice.source import DiceSource, ScriptedSource
from ikusa.engine.errors import InputError, RuleViolation
from ikusa.systems.command_syntax import Evaluator
from ikusa.systems.maai import commands
from ikusa.systems.maai.check import Check, Outcome
from ikusa.systems.maai.commands import apply_best_fate, apply_fate, roll_command


def roll(cmd: str, *dice: int) -> RollResult:
    src = ScriptedSource(list(dice))
    r = roll_command(cmd, src)
    assert r is not None, cmd
    assert src.remaining == 0
    return r


def flags(r: RollResult) -> tuple[bool, bool, bool, bool]:
    return r.success, r.failure, r.critical, r.fumble


def test_text_form_of_the_issue() -> None:
    r = roll("2D10+3>=11", 7, 7)
    assert r.text == "(2D10+3>=11) ＞ 14[7,7]+3 ＞ 17 ＞ 会心"
    assert r.dice == [(7, 10), (7, 10)]
    assert r.extra["outcome"] == "会心" and r.extra["total"] == 17 and r.extra["target"] == 11


@pytest.mark.parametrize(
    ("cmd", "dice", "text_tail", "expected"),
    [
        ("2D10+3>=11", (2, 6), "8[2,6]+3 ＞ 11 ＞ 成功", (True, False, False, False)),
        ("2D10+3>=11", (2, 4), "6[2,4]+3 ＞ 9 ＞ 失敗", (False, True, False, False)),
        ("2D10+3>=11", (4, 4), "8[4,4]+3 ＞ 11 ＞ 会心", (True, False, True, False)),
        ("2D10+3>=11", (3, 3), "6[3,3]+3 ＞ 9 ＞ 失着", (False, True, False, True)),
        ("2D10+3>=11", (10, 10), "20[10,10]+3 ＞ 23 ＞ 天命", (True, False, True, False)),
        ("2D10+3>=11", (1, 1), "2[1,1]+3 ＞ 5 ＞ 業報", (False, True, False, True)),
    ],
)
def test_six_outcomes_and_flags_s_r08_s_r11(
    cmd: str, dice: tuple[int, int], text_tail: str, expected: tuple[bool, bool, bool, bool]
) -> None:
    r = roll(cmd, *dice)
    assert r.text == f"({cmd}) ＞ {text_tail}"
    assert flags(r) == expected


def test_s_t05_s_t06_worked_examples() -> None:
    """S-T05: [7,7] 勇+2 vs TN 11 → 16, 会心; S-T06: vs 防備 17 → 失着."""
    assert roll("2D10+2>=11", 7, 7).text.endswith("14[7,7]+2 ＞ 16 ＞ 会心")
    r = roll("2D10+2>=17", 7, 7)
    assert r.text.endswith("14[7,7]+2 ＞ 16 ＞ 失着") and r.fumble and r.failure


def test_s_t04_clamp_shown_and_applied() -> None:
    """S-T04: +3 +3 +2 +2 +2 = +12 → applied +10; −13 → −10 (S-R07)."""
    r = roll("2D10+3+3+2+2+2>=11", 2, 3)
    assert r.text == "(2D10+3+3+2+2+2>=11) ＞ 5[2,3]+12→+10 ＞ 15 ＞ 成功"
    assert r.extra["modifier"] == 12 and r.extra["applied_modifier"] == 10
    assert any("S-R07" in w for w in r.extra["warnings"])
    r = roll("2D10-13>=5", 9, 8)
    assert r.text == "(2D10-13>=5) ＞ 17[9,8]-13→-10 ＞ 7 ＞ 成功"


def test_modifier_forms() -> None:
    assert roll("2D10>=11", 5, 6).text == "(2D10>=11) ＞ 11[5,6] ＞ 11 ＞ 成功"
    assert roll("2D10-2>=11", 6, 6).text == "(2D10-2>=11) ＞ 12[6,6]-2 ＞ 10 ＞ 失着"
    assert roll("2D10+3+2>=11", 1, 2).extra["total"] == 8
    # case-insensitive, full-width, comment after a space
    assert roll("2d10+3>=11 源三郎の横斬り", 7, 7).text == "(2D10+3>=11) ＞ 14[7,7]+3 ＞ 17 ＞ 会心"
    assert roll("２Ｄ１０＋３＞＝１１", 7, 7).extra["outcome"] == "会心"


def test_secret_prefix() -> None:
    r = roll("S2D10+3>=11", 7, 7)
    assert r.secret and r.text == "(2D10+3>=11) ＞ 14[7,7]+3 ＞ 17 ＞ 会心"
    assert not roll("2D10+3>=11", 7, 7).secret


def test_s_g01_even_target_allowed_with_warning() -> None:
    r = roll("2D10>=12", 6, 6)
    assert r.success and any(w.startswith("S-G01") for w in r.extra["warnings"])
    assert roll("2D10>=11", 6, 6).extra["warnings"] == []


def test_s_r12_crit_extension_suffix() -> None:
    """CE: a success whose dice differ by exactly 1 is 会心; a failure stays 失敗."""
    assert roll("2D10>=11", 5, 6).extra["outcome"] == "成功"
    r = roll("2D10>=11CE", 5, 6)
    assert r.text == "(2D10>=11CE) ＞ 11[5,6] ＞ 11 ＞ 会心" and r.critical
    assert roll("2D10>=13CE", 5, 6).extra["outcome"] == "失敗"
    assert roll("2D10>=11CE", 4, 6).extra["outcome"] == "失敗"


def test_s_t09_fate_plus_one_makes_doubles() -> None:
    """S-T09: [4,5] succeeds; fate +1 on the 4 → [5,5] → 会心."""
    before = roll("2D10>=9", 4, 5)
    after = apply_fate(before, 0, +1)
    assert after.text == "(2D10>=9) ＞ 9[4,5] ＞ 9 ＞ 成功 ＞ 運命介入[4→5,5] ＞ 10[5,5] ＞ 10 ＞ 会心"
    assert flags(after) == (True, False, True, False)
    assert after.extra["dice"] == [5, 5] and after.extra["rolled"] == [4, 5] and after.extra["fate"] == [[0, 1]]
    assert after.extra["before_fate"]["outcome"] == "成功"
    # the original result is unchanged
    assert before.text == "(2D10>=9) ＞ 9[4,5] ＞ 9 ＞ 成功" and not before.critical


def test_s_t10_fate_minus_one_on_second_die() -> None:
    """S-T10: [4,5] → fate −1 on the 5 → [4,4] → doubles; still succeeding → 会心."""
    after = apply_fate(roll("2D10+3>=11", 4, 5), 1, -1)
    assert after.text.endswith("＞ 運命介入[4,5→4] ＞ 8[4,4]+3 ＞ 11 ＞ 会心")


def test_s_t08_s_r16_fate_cannot_leave_1_to_10() -> None:
    with pytest.raises(RuleViolation) as low:
        apply_fate(roll("2D10>=11", 1, 5), 0, -1)
    assert low.value.rule == "S-R16"
    with pytest.raises(RuleViolation) as high:
        roll_command("2D10>=11F2+", ScriptedSource([3, 10]))
    assert high.value.rule == "S-R16"


def test_s_g27_one_fate_per_roll() -> None:
    once = apply_fate(roll("2D10>=11", 4, 5), 0, 1)
    with pytest.raises(RuleViolation) as exc:
        apply_fate(once, 1, 1)
    assert exc.value.rule == "S-G27"
    assert apply_fate(once, 1, 1, max_uses_per_roll=2).extra["dice"] == [5, 6]
    with pytest.raises(RuleViolation):
        roll_command("2D10>=11F1+F2-", ScriptedSource([4, 5]))
    two = roll_command("2D10>=11F1+F2-", ScriptedSource([4, 5]), max_fate_per_roll=2)
    assert two is not None and two.extra["dice"] == [5, 4] and two.extra["fate"] == [[0, 1], [1, -1]]


def test_fate_command_suffixes() -> None:
    r = roll("2D10+3>=11F1+", 4, 5)
    assert r.text == "(2D10+3>=11F1+) ＞ 9[4,5]+3 ＞ 12 ＞ 成功 ＞ 運命介入[4→5,5] ＞ 10[5,5]+3 ＞ 13 ＞ 会心"
    assert roll("2D10+3>=11F2-", 4, 5).extra["dice"] == [4, 4]
    # FB: best intervention (業報 → 失敗 is the best a [1,1] at TN 11 can do)
    r = roll("2D10>=11FB", 1, 1)
    assert r.text == "(2D10>=11FB) ＞ 2[1,1] ＞ 2 ＞ 業報 ＞ 運命介入[1→2,1] ＞ 3[2,1] ＞ 3 ＞ 失敗"
    assert flags(r) == (False, True, False, False)
    # FB that cannot improve spends nothing
    r = roll("2D10>=11FB", 10, 10)
    assert r.text.endswith("＞ 天命 ＞ 運命介入なし(改善なし)") and r.extra["fate"] == []


def test_apply_best_fate_failure_to_success() -> None:
    r = apply_best_fate(roll("2D10+1>=13", 5, 6))  # 12 < 13
    assert r.success and r.extra["total"] == 13


def test_apply_fate_needs_a_maai_check() -> None:
    with pytest.raises(InputError):
        apply_fate(RollResult(text="(1D6) ＞ 3"), 0, 1)


def test_other_commands_fall_back_to_common_dicebot(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def fake(command: str, dice: DiceSource, *, evaluate: object = None) -> RollResult | None:
        seen.append(command)
        return RollResult(text="common")

    monkeypatch.setattr(bcdice, "roll_command", fake)
    for cmd in ("1D6", "2D10+3", "2D10+3>11", "3D10>=11", "choice[a,b]"):
        r = roll_command(cmd, ScriptedSource([]))
        assert r is not None and r.text == "common"
    assert seen == ["1D6", "2D10+3", "2D10+3>11", "3D10>=11", "choice[a,b]"]
    assert roll_command("", ScriptedSource([])) is None


def test_through_the_api() -> None:
    r = api.roll("2D10+3>=11", system="maai", dice=[7, 7])
    assert r is not None and r.text == "(2D10+3>=11) ＞ 14[7,7]+3 ＞ 17 ＞ 会心"
    assert commands.SYSTEM_ID == "maai"


@settings(max_examples=150, deadline=None)
@given(
    a=st.integers(1, 10), b=st.integers(1, 10), mod=st.integers(-15, 15), tn=st.integers(2, 25),
    ce=st.booleans(),
)
def test_flags_agree_with_check(a: int, b: int, mod: int, tn: int, ce: bool) -> None:
    """Invariant: flags are the outcome's (S-R08…S-R12): exactly one of success/failure,
    critical ⇒ success, fumble ⇒ failure; the text ends with the outcome."""
    cmd = f"2D10{mod:+d}>={tn}{'CE' if ce else ''}"
    r = roll(cmd, a, b)
    outcome = Check((a, b), mod, tn, crit_extension=ce).outcome
    assert r.text.endswith(f"＞ {outcome.value}")
    assert r.success != r.failure
    assert r.success == outcome.succeeded
    assert r.critical == (outcome in (Outcome.CRITICAL, Outcome.TENMEI))
    assert r.fumble == (outcome in (Outcome.FUMBLE, Outcome.GOUHOU))
    assert not (r.critical and r.fumble)


def test_fallback_passes_the_system_evaluator_for_repeats(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the common dice bot takes ``evaluate`` (repeats ``x3 CMD``), the system passes its
    own evaluator, so a repeated maai check is a maai check."""

    def fake(command: str, dice: DiceSource, *, evaluate: Evaluator | None = None) -> RollResult | None:
        assert evaluate is not None
        inner = evaluate(command.split(" ", 1)[1], dice)
        return RollResult(text="repeat:" + (inner.text if inner else ""))

    monkeypatch.setattr(bcdice, "roll_command", fake)
    r = roll_command("x1 2D10+3>=11", ScriptedSource([7, 7]))
    assert r is not None and r.text == "repeat:(2D10+3>=11) ＞ 14[7,7]+3 ＞ 17 ＞ 会心"
