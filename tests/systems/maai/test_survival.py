"""Survival roll: S-R62; S-T35 with the fate variant (S-G27)."""

from __future__ import annotations

from ikusa.systems.maai.options import options_from_dict
from ikusa.systems.maai.survival import survival_check, survival_modifier


def test_s_t35_worked() -> None:
    assert survival_modifier(1, 0) == 1
    ok = survival_check((5, 7), tai=1, luck=0)
    assert (ok.check.total, ok.survived) == (13, True)
    dead = survival_check((3, 5), tai=1, luck=0)
    assert (dead.check.total, dead.survived) == (9, False)


def test_s_t35_one_fate_use_is_not_enough() -> None:
    r = survival_check((3, 5), tai=1, luck=0, fate_left=1)
    assert not r.survived and r.fate_used == 0  # 10 < 11: nothing is spent


def test_s_t35_derived_two_uses_per_roll() -> None:
    """S-T35 derived: two uses on one roll lift [3,5] to [4,6].  (ANALYSIS states it with 運+2,
    but then max(體, 運) = +2 and a single use already gives [4,5]+2 = 11; so the two-use case
    is tested with the modifier +1 and two uses left.)"""
    two = options_from_dict({"fate": {"max_uses_per_roll": 2}})
    r = survival_check((3, 5), tai=1, luck=0, fate_left=2, options=two)
    assert r.check.dice == (4, 6) and r.check.total == 11 and r.survived and r.fate_used == 2
    assert not survival_check((3, 5), tai=1, luck=0, fate_left=2).survived  # default 1 per roll
    lucky = survival_check((3, 5), tai=1, luck=2, fate_left=2)
    assert lucky.check.total == 11 and lucky.survived and lucky.fate_used == 1


def test_fate_spent_only_when_needed_and_doubles_mean_nothing() -> None:
    r = survival_check((4, 5), tai=1, luck=0, fate_left=1)
    assert r.survived and r.fate_used == 1 and r.check.total == 11
    assert survival_check((1, 1), tai=3, luck=0).survived is False
    assert survival_check((10, 10), tai=-3, luck=-1).survived is True
