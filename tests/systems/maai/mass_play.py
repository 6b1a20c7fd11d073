"""Seeded maai battles played to the end with one policy for every side, with a check before every
decision, and one step of a session with random GM rulings mixed in: shared by the invariant tests
of the kept attack lists, the count index, the kept end test and the breath memo."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from ikusa.dice.source import DiceSource, RandomSource
from ikusa.engine.errors import InputError
from ikusa.engine.protocol import Decision
from ikusa.systems.maai.encounter import MaaiEncounter
from ikusa.systems.maai.state import MaaiState
from tests.systems.ruling_driver import Session
from tests.systems.test_rulings_property import random_ruling


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


def rule_or_act(s: Session, rng: random.Random, dice: DiceSource, rate: float,
                pick: Callable[[Session, random.Random, dict[str, Any]], dict[str, Any]] | None = None,
                act: Callable[[Session, Decision, random.Random], str] | None = None) -> str | None:
    """One step of ``s``: with probability ``rate`` a random GM ruling (``pick`` may replace it), a
    refused one ignored; else ``act``'s answer (default: a random option) to the pending decision.
    Returns the ruling's op when one was applied."""
    if rng.random() < rate:
        raw = random_ruling("maai", s, rng)
        if pick is not None:
            raw = pick(s, rng, raw)
        try:
            s.rule(raw, dice)
        except InputError:
            return None
        op: str = raw["op"]
        return op
    d = s.state.pending()
    assert d is not None
    s.act(act(s, d, rng) if act is not None else rng.choice(d.options).key, dice)
    return None
