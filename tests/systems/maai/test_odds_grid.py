"""The maai odds table computed over the 10×10 grid (issue #12, speed) gives exactly the
counts of enumerating every roll with :func:`best_reachable` (S-R14/S-R16, S-G27), for
every fate count, modifier (clamped, S-R07), TN and 会心拡張."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from ikusa.systems.maai import odds
from ikusa.systems.maai.check import Check, Outcome


def _by_enumeration(mod: int, tn: int, ce: bool, fate: int) -> tuple[tuple[Outcome, Fraction], ...]:
    counts = Counter(odds.best_reachable(Check(d, mod, tn, crit_extension=ce), fate).outcome for d in odds.ALL_DICE)
    return tuple((o, Fraction(counts[o], 100)) for o in Outcome)


@settings(max_examples=60, deadline=None)
@given(mod=st.integers(-13, 13), tn=st.integers(1, 32), ce=st.booleans(), fate=st.integers(0, 3))
def test_grid_equals_enumeration(mod: int, tn: int, ce: bool, fate: int) -> None:
    assert odds.outcome_odds(mod, tn, ce, fate).probs == _by_enumeration(mod, tn, ce, fate)


def test_s_t52_rows_and_cold_recompute() -> None:
    """S-T52: 2D10+0 ≥ 11 succeeds 55/100 and +3 ≥ 11 79/100; clearing the caches and
    recomputing gives the same table."""
    before = odds.success_table(1)
    odds.clear_caches()
    rows = dict(odds.success_table(0, modifiers=(0, 3), targets=(11,)))
    assert rows == {0: [Fraction(55, 100)], 3: [Fraction(79, 100)]}
    assert odds.success_table(1) == before
