"""RandomSource.pair (the maai check's draw, issue #12) gives exactly the draws of roll(sides, 2):
the same seed gives the same sequence whichever of the two a caller uses."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from ikusa.dice.source import RandomSource


@given(st.integers(min_value=0, max_value=2**32), st.lists(st.integers(min_value=1, max_value=100), min_size=1,
                                                             max_size=30))
def test_pair_draws_what_roll_draws(seed: int, sides: list[int]) -> None:
    a, b = RandomSource(seed), RandomSource(seed)
    for s in sides:
        assert b.pair(s) == tuple(a.roll(s, 2))
    # and the streams stay in step afterwards
    assert a.roll(6, 3) == b.roll(6, 3)


def test_pair_is_randint() -> None:
    src, rng = RandomSource(12), random.Random(12)
    got = [src.pair(10) for _ in range(500)]
    assert got == [(rng.randint(1, 10), rng.randint(1, 10)) for _ in range(500)]
    assert {v for p in got for v in p} == set(range(1, 11))
