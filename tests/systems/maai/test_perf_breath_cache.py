"""The breath-option cache (speed only, S-R27…S-R32 options unchanged): at every breath
decision of seeded battles, the cached options equal freshly built ones, option for option."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ikusa.dice.source import RandomSource
from ikusa.engine.encounter import read_document, split_document
from ikusa.engine.protocol import Policy
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
                assert list(d.options) == state.build_breath_options(u)
                served += 1
            state.apply(policy.choose(state, d, rng), dice)
            d = state.pending()
    assert served > 0
    if name == "duel.yaml":  # its units are plain: the cache serves them
        assert state.breath_cache
