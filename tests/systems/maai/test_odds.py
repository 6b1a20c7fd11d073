"""Exact odds of maai checks (issue #2 §4): S-T01, S-T02, S-T52, the issue's 2D10+3>=11
numbers, and fate intervention odds derived by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikusa import api
from ikusa.dice.odds import at_least, sum_distribution
from ikusa.engine.errors import InputError
from ikusa.systems.maai.check import Check
from ikusa.systems.maai.odds import ALL_DICE, TN_GRID, best_reachable, odds_command, outcome_odds, success_table

F = Fraction


def test_issue_numbers_2d10_plus_3_vs_11() -> None:
    o = odds_command("2D10+3>=11")
    assert (o.odds.success, o.odds.critical, o.odds.fumble, o.odds.tenmei, o.odds.gouhou) == (
        F(79, 100), F(7, 100), F(3, 100), F(1, 100), F(1, 100))
    j = o.to_json()
    assert (j["success"], j["critical"], j["fumble"], j["tenmei"], j["gouhou"]) == (
        "79/100", "7/100", "3/100", "1/100", "1/100")


def test_s_t01_enumeration() -> None:
    """S-T01: 100 outcomes; min 2, max 20, mean 11; P(11) = P(doubles) = 10/100;
    P([10,10]) = P([1,1]) = 1/100."""
    assert len(ALL_DICE) == 100
    d = sum_distribution(2, 10)
    assert min(d) == 2 and max(d) == 20 and sum(k * p for k, p in d.items()) == 11
    assert d[11] == F(10, 100)
    # doubles: 会心 + 失着 over a check every roll passes or fails the same way
    wide = outcome_odds(0, 11)
    assert wide.critical + wide.fumble == F(10, 100)
    assert wide.tenmei == wide.gouhou == F(1, 100)


def test_s_t02_boundary_steps() -> None:
    """S-T02: P(≥k) − P(≥k+1) for k = 9…13 is 8, 9, 10, 9, 8 %."""
    d = sum_distribution(2, 10)
    steps = [at_least(d, k) - at_least(d, k + 1) for k in range(9, 14)]
    assert steps == [F(8, 100), F(9, 100), F(10, 100), F(9, 100), F(8, 100)]
    # the same through the check odds: raising the modifier by 1 at TN 11
    gains = [outcome_odds(m + 1, 11).success - outcome_odds(m, 11).success for m in range(-3, 2)]
    assert gains == [F(8, 100), F(9, 100), F(10, 100), F(9, 100), F(8, 100)]


def test_s_t52_success_table() -> None:
    """S-T52: success % at TN 5/7/…/19 for mod +0 and +3."""
    rows = dict(success_table(0, modifiers=(0, 3)))
    assert TN_GRID == (5, 7, 9, 11, 13, 15, 17, 19)
    assert [p * 100 for p in rows[0]] == [94, 85, 72, 55, 36, 21, 10, 3]
    assert [p * 100 for p in rows[3]] == [100, 97, 90, 79, 64, 45, 28, 15]


def test_fate_one_use_hand_derived() -> None:
    """2D10+3 ≥ 11 with one fate (S-R14, S-G27 order): any natural 7 can be lifted to 8 →
    P(成功) = P(sum ≥ 7) = 85/100; 会心 reachable from 7 doubles 4-4…10-10 and the 14 ordered
    neighbours 3-4…9-10 → 21/100; 天命 from 10-10, 9-10, 10-9 → 3/100; every failing double
    can be broken → 失着 0."""
    o = odds_command("2D10+3>=11", fate=1)
    assert o.odds.success == F(85, 100)
    assert o.odds.critical == F(21, 100)
    assert o.odds.tenmei == F(3, 100)
    assert o.odds.fumble == 0 and o.odds.gouhou == 0
    assert o.without_fate.success == F(79, 100)
    j = o.to_json()
    assert j["fate"] == 1 and j["success"] == "17/20" and j["without_fate"]["success"] == "79/100"


def test_crit_extension_odds() -> None:
    """2D10 ≥ 11 with CE (S-R12): doubles 6-6…10-10 (5) + ordered neighbours 5-6…9-10 (10)."""
    o = odds_command("2D10>=11CE")
    assert o.odds.critical == F(15, 100) and o.odds.success == F(55, 100)
    assert o.odds.fumble == F(5, 100)  # CE does not widen 失着


def test_even_target_warning_s_g01() -> None:
    assert odds_command("2D10>=12").warnings[0].startswith("S-G01")
    assert odds_command("2D10>=11").to_json()["warnings"] == []


def test_clamped_modifier_odds() -> None:
    """S-R07: +12 reads as +10."""
    assert odds_command("2D10+3+3+2+2+2>=19").odds == outcome_odds(10, 19)
    assert odds_command("2D10+3+3+2+2+2>=19").to_json()["applied_modifier"] == 10


@settings(max_examples=40, deadline=None)
@given(mod=st.integers(-10, 10), tn=st.integers(2, 30), ce=st.booleans())
def test_fate_properties(mod: int, tn: int, ce: bool) -> None:
    """Invariants: the six outcomes sum to 1; fate never lowers P(success) or raises
    P(業報); one use = :meth:`Check.best_fate` per roll; two uses never do worse."""
    none, one, two = (outcome_odds(mod, tn, ce, k) for k in (0, 1, 2))
    for o in (none, one, two):
        assert sum(p for _, p in o.probs) == 1
    assert none.success <= one.success <= two.success
    assert one.gouhou <= none.gouhou
    best = sum(1 for d in ALL_DICE if Check(d, mod, tn, crit_extension=ce).best_fate().outcome.succeeded)
    assert one.success == F(best, 100)


def test_best_reachable_two_uses() -> None:
    """S-T35 derived (fate.max_uses_per_roll = 2): [3,5]+1 vs 11 → [4,6]+1 = 11 succeeds."""
    c = Check((3, 5), 1, 11)
    assert not best_reachable(c, 1).success
    assert best_reachable(c, 2).success


def test_errors() -> None:
    with pytest.raises(InputError):
        odds_command("1D6")
    with pytest.raises(InputError):
        odds_command("2D10+3>=11", fate=-1)
    with pytest.raises(InputError):
        odds_command("2D10+3>=11FB")


def test_api_dispatch_and_render() -> None:
    o = api.odds("MAAI", "2D10+3>=11")
    assert o.to_json()["success"] == "79/100"
    from rich.console import Console

    console = Console(width=100, record=True)
    console.print(o.render())
    text = console.export_text()
    assert "79% (79/100)" in text and "TN19" in text
