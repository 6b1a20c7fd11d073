"""連撃疲労: S-R66…S-R68, S-G46; S-T37, S-T38, S-T39."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikusa.systems.maai.catalog import load_catalog
from ikusa.systems.maai.costs import final_cost, shinpu_modifiers
from ikusa.systems.maai.fatigue import fatigue_penalties, fatigue_penalty, mitigation_sources
from ikusa.systems.maai.options import options_from_dict

CAT = load_catalog()


def test_s_t37_standard_weapon() -> None:
    assert fatigue_penalties(6) == [0, 0, 0, -2, -3, -4]


def test_s_t38_kodachi_in_shinpu() -> None:
    m = CAT.maneuver("kodachi.renzoku_giri")
    src = mitigation_sources(m, CAT, in_shinpu=True)
    assert src == ["short_weapon_shinpu"]
    assert fatigue_penalties(6, src) == [0, 0, 0, -1, -2, -3]
    assert final_cost(m.cost, shinpu_modifiers(m, CAT, in_shinpu=True)) == 1


def test_s_t39_shura_no_in_does_not_stack() -> None:
    m = CAT.maneuver("tantou.sakate_giri")
    src = mitigation_sources(m, CAT, in_shinpu=True, feats=["shura_no_in"])
    assert len(src) == 2
    assert fatigue_penalty(4, src) == -1


def test_s_r67_not_short_or_not_in_shinpu() -> None:
    assert mitigation_sources(CAT.maneuver("kanabou.kyouda"), CAT, in_shinpu=True) == []
    assert mitigation_sources(CAT.maneuver("kodachi.renzoku_giri"), CAT, in_shinpu=False) == []


def test_s_g46_floor_blocked_only_mode() -> None:
    o = options_from_dict({"fatigue": {"mitigation_mode": "floor_blocked_only"}})
    assert mitigation_sources(CAT.maneuver("tantou.sashi"), CAT, in_shinpu=True, options=o) == ["short_weapon_shinpu"]
    heavy = CAT.maneuver("tanto.kyuusho_nuki")  # a 2-cost short technique
    assert mitigation_sources(heavy, CAT, in_shinpu=True, options=o) == []
    assert mitigation_sources(heavy, CAT, in_shinpu=True) == ["short_weapon_shinpu"]


def test_bool_form() -> None:
    assert fatigue_penalties(5, True) == [0, 0, 0, -1, -2] and fatigue_penalties(5, False) == [0, 0, 0, -2, -3]


def test_index_starts_at_one() -> None:
    with pytest.raises(ValueError):
        fatigue_penalty(0)


@settings(max_examples=60)
@given(st.integers(1, 30), st.booleans())
def test_fatigue_monotone_and_mitigation_one_step(k: int, mitigated: bool) -> None:
    src = ["x", "y"] if mitigated else []
    assert fatigue_penalty(k + 1, src) <= fatigue_penalty(k, src) <= 0
    diff = fatigue_penalty(k, ["x"]) - fatigue_penalty(k)
    assert diff == (1 if k >= 4 else 0)
    if k >= 4:
        assert fatigue_penalty(k) == -(k - 2)
