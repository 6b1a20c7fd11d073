"""RandomSource's fast draw (speed only): the same seed gives the same dice as
``random.Random(seed).randint(1, sides)``, die for die, so seeded battles and logs never change."""

from __future__ import annotations

import random

import pytest

from ikusa.dice.source import RandomSource
from ikusa.engine.errors import DiceError


@pytest.mark.parametrize("seed", [0, 1, 2, 7, 12345, None])
def test_random_source_matches_randint_sequence(seed: int | None) -> None:
    if seed is None:
        src = RandomSource(None)
        ref = random.Random()
        ref.setstate(src._rng.getstate())
    else:
        src, ref = RandomSource(seed), random.Random(seed)
    for sides in (1, 2, 3, 4, 6, 7, 8, 10, 16, 17, 20, 100, 999, 1024, 10_000) * 4:
        for count in (0, 1, 2, 3, 5):
            assert src.roll(sides, count) == [ref.randint(1, sides) for _ in range(count)]


def test_random_source_still_refuses_bad_requests() -> None:
    src = RandomSource(1)
    for sides, count in ((0, 1), (10_001, 1), (10, -1), (10, 201)):
        with pytest.raises(DiceError):
            src.roll(sides, count)
