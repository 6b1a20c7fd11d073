"""The breath-option cache (speed only, S-R27…S-R32 options unchanged): at every breath
decision of seeded battles, the cached options equal freshly built ones, option for option."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ikusa.dice.source import RandomSource
from ikusa.engine.encounter import read_document, split_document
from ikusa.engine.protocol import Policy
from ikusa.systems.maai import option_odds
from ikusa.systems.maai.encounter import encounter_from_dict
from ikusa.systems.maai.policies import GreedyPolicy, RandomPolicy
from ikusa.systems.maai.state import MaaiState

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "maai"


@pytest.mark.parametrize("name", ["duel.yaml", "squad_battle.yaml", "gaps.yaml", "count_example.yaml"])
@pytest.mark.parametrize("policy", [GreedyPolicy(), RandomPolicy()], ids=["greedy", "random"])
def test_cached_breath_options_equal_fresh_ones(name: str, policy: Policy) -> None:
    path = EXAMPLES / name
    doc = split_document(read_document(path), str(path))
    enc = encounter_from_dict(doc.body, str(path))
    rng, dice = random.Random(5), RandomSource(5)
    served = 0
    for _ in range(15 if "duel" in name else 4):
        state = MaaiState(enc)
        d = state.pending()
        while d is not None:
            if d.kind == "breath":
                u = state.by_id[d.actor]
                assert state.breath_options(u) == state.build_breath_options(u)
                # the decision shows them with the #13 odds notes in the labels (maai/option_odds.py)
                assert list(d.options) == option_odds.annotate(state, u, state.build_breath_options(u))
                served += 1
            state.apply(policy.choose(state, d, rng), dice)
            d = state.pending()
    assert served > 0
    if name == "duel.yaml":  # its units are plain: the cache serves them
        assert state.breath_cache


class _NeverStored(dict[tuple[object, ...], object]):
    """A cache that keeps nothing: every option list is built afresh."""

    def __setitem__(self, key: tuple[object, ...], value: object) -> None:
        return None


@pytest.mark.parametrize("name", ["duel.yaml", "squad_battle.yaml", "gaps.yaml"])
def test_battles_with_option_caches_equal_battles_without(name: str) -> None:
    """S-R37…S-R40 reaction and S-R27 breath option caches: the same seeded battles, decision
    for decision (actor, kind, prompt, every option) and event for event, with and without them."""
    path = EXAMPLES / name
    doc = split_document(read_document(path), str(path))
    enc = encounter_from_dict(doc.body, str(path))
    for seed, policy in ((11, GreedyPolicy()), (12, RandomPolicy())):
        logs = []
        for cached in (True, False):
            rng, dice = random.Random(seed), RandomSource(seed)
            log: list[object] = []
            for _ in range(6):
                state = MaaiState(enc)
                if not cached:
                    state.breath_cache = _NeverStored()  # type: ignore[assignment]
                    state.react_cache = _NeverStored()  # type: ignore[assignment]
                d = state.pending()
                while d is not None:
                    log.append(d)
                    key = policy.choose(state, d, rng)
                    log.extend(e.to_json() for e in state.apply(key, dice))
                    d = state.pending()
                log.append(state.summary())
            logs.append(log)
        assert logs[0] == logs[1]
