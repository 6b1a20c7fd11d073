"""Large maai battles (issue #12, target 3) decide and narrate exactly as small ones do: the
breath-list cache that serves battles of at most ``BREATH_CACHE_UNITS`` units changes no
decision or event when forced on for a big battle, and the 防備 memo of the encounter grows
with the targets, not with attackers × targets (it is keyed on the catalog's tag tuple)."""

from __future__ import annotations

import json
import random

import pytest

from bench.bench_large import build
from ikusa.dice.source import RandomSource
from ikusa.systems.maai import breath_flow
from ikusa.systems.maai.policies import GreedyPolicy, RandomPolicy
from ikusa.systems.maai.state import MaaiState


def _log(units: int, seed: int, greedy: bool) -> list[str]:
    enc = build(units)
    state = MaaiState(enc)
    policy = GreedyPolicy() if greedy else RandomPolicy()
    rng, dice = random.Random(seed), RandomSource(seed)
    out = []
    while (d := state.pending()) is not None:
        action = policy.choose(state, d, rng)
        out.append(json.dumps([d.actor, d.kind, [(o.key, o.label, o.odds) for o in d.options], action],
                              ensure_ascii=False))
        out.extend(json.dumps(e.to_json(), ensure_ascii=False) for e in state.apply(action, dice))
    out.append(json.dumps(state.summary(), ensure_ascii=False, sort_keys=True))
    return out


@pytest.mark.parametrize(("seed", "greedy"), [(1, True), (2, False)])
def test_big_battle_without_the_breath_cache_equals_it_with_the_cache(seed: int, greedy: bool,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """S-R35/S-R27/S-R41: 30 units (above the cache's size), every decision with its options,
    every event and the final state equal those of the same battle with the cache forced on."""
    assert 30 > breath_flow.BREATH_CACHE_UNITS
    plain = _log(30, seed, greedy)
    monkeypatch.setattr(breath_flow, "BREATH_CACHE_UNITS", 1000)
    assert _log(30, seed, greedy) == plain
    assert len(plain) > 100


def test_defence_memo_grows_with_targets_not_attackers_times_targets() -> None:
    """S-R44: the 防備 of a target against a maneuver is one memo entry per target state and
    maneuver tags, shared by every attacker with that maneuver."""
    enc = build(60)
    for seed in (1, 2):
        state = MaaiState(enc)
        rng, dice, policy = random.Random(seed), RandomSource(seed), GreedyPolicy()
        while (d := state.pending()) is not None:
            state.apply(policy.choose(state, d, rng), dice)
    defence_entries = [k for k in enc.memo if isinstance(k, tuple) and len(k) == 7]
    assert 60 <= len(defence_entries) <= 60 * 4  # each 雑: its plain and 無防備 防備, a few tag sets
