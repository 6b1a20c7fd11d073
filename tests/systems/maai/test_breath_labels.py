"""A breath served from the encounter's breath cache shows exactly what a fresh build shows:
at every breath of seeded greedy and random battles, the pending options (keys, labels with
their odds and overload notes, costs, odds, data) equal the options built from nothing and
annotated anew (option_odds.annotate).  The cached path works out which options get which
label notes once per cached list (option_odds.annotation_plan, issue #12); this checks that the
plan kept for a list gives the labels the direct computation gives."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bench.bench_maai_duels import load
from ikusa.dice.source import RandomSource
from ikusa.systems.maai import option_odds
from ikusa.systems.maai.policies import GreedyPolicy, RandomPolicy
from ikusa.systems.maai.state import MaaiState

ROOT = Path(__file__).resolve().parents[3]


def shown(options: Any) -> list[tuple[object, ...]]:
    return [(o.key, o.label, o.cost, o.odds, o.data) for o in options]


@pytest.mark.parametrize("policy", [GreedyPolicy(), RandomPolicy()], ids=["greedy", "random"])
def test_cached_breaths_show_what_a_fresh_build_shows(policy: Any) -> None:
    enc = load(ROOT / "examples/maai/duel.yaml")  # a small battle of simple units: the cached path
    cached = with_notes = 0
    for seed in range(1, 13):
        st = MaaiState(enc)
        rng, dice = random.Random(seed), RandomSource(seed)
        while (d := st.pending()) is not None:
            if d.kind == "breath":
                u = st.by_id[d.actor]
                if st.breath_hit is not None and not u.sig:
                    cached += 1
                    fresh = option_odds.annotate(st, u, st.build_breath_options(u), st.attack_count)
                    assert shown(d.options) == shown(fresh)
                    with_notes += any(" [" in o.label for o in d.options)
            st.apply(policy.choose(st, d, rng), dice)
    assert cached > 20 and with_notes > 10  # the cached path and its notes were exercised
