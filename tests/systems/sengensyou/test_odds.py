"""Exact odds of 千幻抄 checks: the DP pool distribution (G-R01) and SGS (3D6)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikusa.dice.odds import sum_distribution
from ikusa.engine.errors import InputError
from ikusa.systems.sengensyou.odds import odds_command

F = Fraction


def test_sgs_critical_fumble() -> None:
    """P(natural 3D6 ≥ 16) = P(≤ 5) = 10/216."""
    o = odds_command("SGS+2>=12")
    assert o.critical == o.fumble == F(10, 216)
    assert o.success == F(5, 8)  # 3D6 ≥ 10
    j = o.to_json()
    assert j["critical"] == "5/108" and j["success"] == "5/8" and j["mean"] == "25/2"


def test_dp_check_distribution() -> None:
    o = odds_command("DP3+7>=12")
    assert o.success == F(53, 54)  # 1 − P(3D6 ≤ 4) = 1 − 4/216
    assert o.at_least(18) == F(1, 2)
    assert sum(p for _, p in o.distribution) == 1
    assert min(o.dist) == 10 and max(o.dist) == 25
    j = o.to_json()
    assert j["distribution"]["10"] == "1/216" and j["at_least"]["10"] == "1"
    rows = j["table"]["rows"]
    assert [r["dice"] for r in rows] == [1, 2, 3, 4, 5, 6]


def test_fixed_and_diceless_are_certain() -> None:
    assert odds_command("DPF3+7>=17").success == 1
    assert odds_command("DPF3+7>=18").success == 0
    assert odds_command("DP0+5>=5").dist == {5: F(1)}


@settings(max_examples=20, deadline=None)
@given(n=st.integers(1, 3), j=st.integers(-5, 10), x=st.integers(0, 30))
def test_pool_matches_brute_force(n: int, j: int, x: int) -> None:
    """P(判定値 + nD6 ≥ X) equals counting all 6^n rolls."""
    hits = sum(1 for roll in product(range(1, 7), repeat=n) if j + sum(roll) >= x)
    assert odds_command(f"DP{n}{j:+d}>={x}").success == F(hits, 6**n)


def test_convolution_symmetry() -> None:
    d = sum_distribution(4, 6)
    assert all(d[k] == d[28 - k] for k in range(4, 25))


def test_errors() -> None:
    with pytest.raises(InputError):
        odds_command("2D10+3>=11")
    with pytest.raises(InputError):
        odds_command("SGS", fate=1)
