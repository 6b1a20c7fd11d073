"""maai 2d10 checks: S-T01, S-T04…S-T10 with the texts' exact numbers."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from ikusa.engine.errors import RuleViolation
from ikusa.systems.maai.check import Check, Outcome, clamp_modifier, fate_uses

ALL = list(itertools.product(range(1, 11), repeat=2))


def test_s_t01_distribution() -> None:
    sums = [a + b for a, b in ALL]
    assert min(sums) == 2 and max(sums) == 20 and Fraction(sum(sums), 100) == 11
    assert sums.count(11) == 10
    assert sum(a == b for a, b in ALL) == 10
    assert ALL.count((10, 10)) == ALL.count((1, 1)) == 1


def test_s_t04_clamp() -> None:
    assert clamp_modifier(3 + 3 + 2 + 2 + 2) == 10
    assert clamp_modifier(-13) == -10
    assert Check((5, 6), 12, 11).total == 21


def test_s_t05_s_t06_doubles() -> None:
    assert Check((7, 7), 2, 11).total == 16
    assert Check((7, 7), 2, 11).outcome is Outcome.CRITICAL
    assert Check((7, 7), 2, 17).outcome is Outcome.FUMBLE


def test_s_r11_tenmei_gouhou_and_s_g29() -> None:
    assert Check((10, 10), 0, 11).outcome is Outcome.TENMEI
    assert Check((1, 1), 0, 11).outcome is Outcome.GOUHOU
    assert Check((10, 10), -10, 11).outcome is Outcome.FUMBLE  # S-G29: failing 10-10 is plain 失着
    assert Check((1, 1), 10, 11).outcome is Outcome.CRITICAL  # S-G29: succeeding 1-1 is plain 会心


def test_s_r12_crit_extension() -> None:
    assert Check((8, 7), 0, 11).outcome is Outcome.SUCCESS
    assert Check((8, 7), 0, 11, crit_extension=True).outcome is Outcome.CRITICAL
    assert Check((4, 5), 0, 11, crit_extension=True).outcome is Outcome.FAILURE  # only on success


def test_s_t07_fate_uses() -> None:
    assert [fate_uses(x) for x in (3, 1, 0, -1)] == [3, 1, 1, 1]


def test_s_t08_fate_bounds() -> None:
    with pytest.raises(RuleViolation, match="S-R16"):
        Check((1, 5), 0, 11).with_fate(0, -1)
    with pytest.raises(RuleViolation, match="S-R16"):
        Check((10, 5), 0, 11).with_fate(0, +1)


def test_s_t09_fate_makes_critical() -> None:
    c = Check((4, 5), 0, 9)
    assert c.outcome is Outcome.SUCCESS
    f = c.with_fate(0, +1)
    assert f.dice == (5, 5) and f.total == 10 and f.outcome is Outcome.CRITICAL


def test_s_t10_fate_down_to_doubles() -> None:
    f = Check((4, 5), 0, 8).with_fate(1, -1)
    assert f.dice == (4, 4) and f.outcome is Outcome.CRITICAL


def test_best_fate_never_worse() -> None:
    from ikusa.systems.maai.check import OUTCOME_RANK

    for dice in ALL:
        for tn in range(5, 20, 2):
            c = Check(dice, 0, tn)
            assert OUTCOME_RANK[c.best_fate().outcome] >= OUTCOME_RANK[c.outcome]


def test_rank_is_the_outcomes_rank_and_checks_are_values() -> None:
    """Check.rank is OUTCOME_RANK of its outcome (worked out once, issue #12) for every roll,
    modifier and TN; a check equals, hashes and pickles by its five fields."""
    import copy
    import pickle

    from ikusa.systems.maai.check import OUTCOME_RANK
    from ikusa.systems.maai.effects import ForcedCheck

    for dice in ALL:
        for mod in (-11, 0, 4):
            for tn in range(2, 24, 3):
                for ce in (False, True):
                    c = Check(dice, mod, tn, ce)
                    assert c.rank == OUTCOME_RANK[c.outcome]
    c = Check((7, 7), 2, 17, False, ((0, 1),))
    assert c == Check((7, 7), 2, 17, False, ((0, 1),)) and hash(c) == hash(Check((7, 7), 2, 17, False, ((0, 1),)))
    assert c != Check((7, 7), 2, 16, False, ((0, 1),))
    for twin in (pickle.loads(pickle.dumps(c)), copy.deepcopy(c), copy.copy(c)):
        assert twin == c and twin.outcome is Outcome.FUMBLE and twin.fated == ((0, 1),)
    f = ForcedCheck((2, 3), 0, 11, forced=Outcome.CRITICAL)
    assert (f.total, f.success, f.outcome, f.rank) == (5, True, Outcome.CRITICAL, 4)
    assert f != Check((2, 3), 0, 11) and pickle.loads(pickle.dumps(f)) == f
    assert repr(f) == ("ForcedCheck(dice=(2, 3), modifier=0, target=11, crit_extension=False, fated=(), "
                       "forced=<Outcome.CRITICAL: '会心'>)")
