"""Seeded maai battles played to the end with one policy for every side, with a check before every
decision: shared by the invariant tests of the kept attack lists and of the count index."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from ikusa.dice.source import RandomSource
from ikusa.systems.maai.encounter import MaaiEncounter
from ikusa.systems.maai.state import MaaiState


def play_checking(enc: MaaiEncounter, policy: Any, seeds: Iterable[int],
                  check: Callable[[MaaiState], int]) -> tuple[int, int]:
    """A battle of ``enc`` per seed (the seed's dice and AI choices); ``check(state)`` before every
    decision.  Returns the sum of what the checks answered and the 間合 the battles took."""
    total = maai = 0
    for seed in seeds:
        st = MaaiState(enc)
        rng, dice = random.Random(seed), RandomSource(seed)
        while (d := st.pending()) is not None:
            total += check(st)
            st.apply(policy.choose(st, d, rng), dice)
        maai += st.maai
    return total, maai
