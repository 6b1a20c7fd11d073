"""fantasy host 2D6 check (F.C, F-H01/F-H02): 成功/失敗, 自動成功/自動失敗 (F-G04), ties (F-G05),
listed modifiers, and its exact odds."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikusa import api
from ikusa.dice.result import RollResult
from ikusa.dice.source import ScriptedSource
from ikusa.engine.errors import InputError
from ikusa.systems.fantasy.check import CheckOptions, CheckResult, FantasyCheck, Modifier
from ikusa.systems.fantasy.commands import roll_command
from ikusa.systems.fantasy.odds import odds_command, success_probability


def roll(cmd: str, *dice: int) -> RollResult:
    r = roll_command(cmd, ScriptedSource(list(dice)))
    assert r is not None
    return r


def test_text_and_flags() -> None:
    r = roll("2D6+5-2>=12", 3, 4)
    assert r.text == "(2D6+5-2>=12) ＞ 7[3,4]+5-2 ＞ 10 ＞ 失敗"
    assert (r.success, r.failure, r.critical, r.fumble) == (False, True, False, False)
    r = roll("2D6+5>=12", 3, 4)
    assert r.text == "(2D6+5>=12) ＞ 7[3,4]+5 ＞ 12 ＞ 成功" and r.success  # F-G05: tie succeeds
    assert roll("S2d6>=7 直感ST", 3, 4).secret


def test_f_g04_automatic_results() -> None:
    r = roll("2D6+3>=20", 6, 6)
    assert r.text == "(2D6+3>=20) ＞ 12[6,6]+3 ＞ 15 ＞ 自動成功"
    assert (r.success, r.failure, r.critical, r.fumble) == (True, False, True, False)
    r = roll("2D6+10>=5", 1, 1)
    assert r.text == "(2D6+10>=5) ＞ 2[1,1]+10 ＞ 12 ＞ 自動失敗"
    assert (r.success, r.failure, r.critical, r.fumble) == (False, True, False, True)


def test_f_t07_cliff() -> None:
    """F-T07: 直感ST 達成値 11 vs TN 12 → falls (failure); 12 → does not fall."""
    assert FantasyCheck((4, 3), base=4, target=12).result is CheckResult.FAILURE
    assert FantasyCheck((4, 4), base=4, target=12).result is CheckResult.SUCCESS


def test_listed_modifiers_f_r12_f_r13() -> None:
    c = FantasyCheck((5, 4), base=6, target=12, modifiers=(Modifier("伏せ", -2), Modifier("暗闇", -4)))
    assert c.total == 9 and c.result is CheckResult.FAILURE
    assert [m.text() for m in c.modifiers] == ["伏せ-2", "暗闇-4"]


def test_options_named_defaults() -> None:
    assert CheckOptions().auto_failure_at == 2 and CheckOptions().auto_success_at == 12
    no_auto = CheckOptions(auto_failure_at=None, auto_success_at=None, tie="failure")
    assert FantasyCheck((6, 6), base=0, target=20, options=no_auto).result is CheckResult.FAILURE
    assert FantasyCheck((3, 4), base=5, target=12, options=no_auto).result is CheckResult.FAILURE
    r = roll_command("2D6>=3", ScriptedSource([1, 1]), options=no_auto)
    assert r is not None and r.failure and not r.fumble


def test_odds() -> None:
    o = odds_command("2D6+5>=12")
    assert o.success == Fraction(21, 36) and o.auto_success == o.auto_failure == Fraction(1, 36)
    assert success_probability(0, 100) == Fraction(1, 36)  # only 自動成功
    assert success_probability(20, 2) == Fraction(35, 36)  # all but 自動失敗
    j = o.to_json()
    assert j["success"] == "7/12" and j["results"]["自動失敗"] == "1/36"
    with pytest.raises(InputError):
        odds_command("2D10>=11")
    with pytest.raises(InputError):
        odds_command("2D6>=7", fate=1)


def test_api() -> None:
    r = api.roll("2D6+5>=12", system="fantasy", dice=[6, 6])
    assert r is not None and r.critical


@settings(max_examples=100, deadline=None)
@given(a=st.integers(1, 6), b=st.integers(1, 6), mod=st.integers(-10, 15), tn=st.integers(0, 25))
def test_flags_invariant(a: int, b: int, mod: int, tn: int) -> None:
    """Exactly one of success/failure; critical ⇔ 自動成功 ([6,6]); fumble ⇔ 自動失敗 ([1,1]);
    otherwise success ⇔ 達成値 ≥ TN (F-G04, F-G05)."""
    r = roll(f"2D6{mod:+d}>={tn}", a, b)
    assert r.success != r.failure
    assert r.critical == (a == b == 6) and r.fumble == (a == b == 1)
    if not (r.critical or r.fumble):
        assert r.success == (a + b + mod >= tn)


@settings(max_examples=30, deadline=None)
@given(mod=st.integers(-10, 15), tn=st.integers(0, 25))
def test_odds_sum_to_one_and_monotone(mod: int, tn: int) -> None:
    o = odds_command(f"2D6{mod:+d}>={tn}")
    assert sum(p for _, p in o.results) == 1
    assert success_probability(mod, tn) >= success_probability(mod, tn + 1)
