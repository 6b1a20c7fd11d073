"""The speed caches of the maai flow change no result (issue #3 bench work, issue #12).

Breath, move and reaction options are immutable values reused across the states of one
encounter (``EncounterCaches.options``, with the breath and reaction lists of plain situations),
and a few pure rule results are kept per encounter (breath limit, hit damage).  A cache keyed on
too little would hand back an option or number built for another situation; these tests run
whole battles with warm caches and rebuild every breath decision with empty ones, and compare
the cached rule results with the rule functions themselves.  Issue #12: no cache is a module
global (a server holding many tables shares none), and two encounters share none."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from ikusa.dice.source import RandomSource
from ikusa.engine.encounter import read_document, split_document
from ikusa.systems.maai import option_odds
from ikusa.systems.maai.breath import breath_limit as rule_breath_limit
from ikusa.systems.maai.check import Check, Outcome
from ikusa.systems.maai.damage import hit_damage as rule_hit_damage
from ikusa.systems.maai.encounter import MaaiEncounter, encounter_from_dict
from ikusa.systems.maai.flow_base import EncounterCaches
from ikusa.systems.maai.moves import Move
from ikusa.systems.maai.policies import GreedyPolicy, RandomPolicy
from ikusa.systems.maai.state import MaaiState

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "maai"


def _load(name: str, options: dict[str, object] | None = None) -> MaaiEncounter:
    path = EXAMPLES / name
    doc = split_document(read_document(path), str(path))
    body = dict(doc.body)
    if options is not None:
        body["options"] = options
    return encounter_from_dict(body, str(path))


def _battle(state: MaaiState, seed: int) -> int:
    rng, dice, policy = random.Random(seed), RandomSource(seed), GreedyPolicy()
    n = 0
    while (d := state.pending()) is not None:
        state.apply(policy.choose(state, d, rng), dice)
        n += 1
    return n


@pytest.mark.parametrize("name", ["duel.yaml", "squad_battle.yaml", "gaps.yaml"])
def test_breath_options_with_warm_caches_equal_fresh_ones(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """S-R35/S-R27: every breath decision of random and greedy battles equals the options
    rebuilt with empty caches (same keys, labels, costs, odds, data, in the same order)."""
    enc = _load(name)
    checked = 0
    for seed, policy in ((1, RandomPolicy()), (2, GreedyPolicy()), (3, RandomPolicy())):
        rng = random.Random(seed)
        dice = RandomSource(seed)
        state = MaaiState(enc)
        d = state.pending()
        steps = 0
        while d is not None and steps < 400:
            if d.kind == "breath":
                u = state.by_id[d.actor]
                with monkeypatch.context() as m:
                    m.setattr(state, "caches", EncounterCaches(enc))
                    m.setattr(state, "breath_cache", {})
                    m.setattr(state, "react_cache", {})
                    m.setattr(state, "memo", {})
                    fresh = tuple(option_odds.annotate(state, u, state.breath_options(u)))  # #13 label notes
                assert fresh == d.options
                checked += 1
            state.apply(policy.choose(state, d, rng), dice)
            steps += 1
            d = state.pending()
    assert checked > 10


def test_cached_rule_results_equal_the_rules() -> None:
    """S-R27/S-R28/S-G32 breath limit and S-R41/S-R43/S-R09 hit damage: the per-encounter
    caches answer what the rule functions answer, for several option sets (one encounter each)."""
    variants = [{}, {"breath": {"absolute_cap": 6}}, {"doubles": {"crit_checks": []}}]
    for options in variants:
        state = MaaiState(_load("duel.yaml", options))
        opts = state.opts
        for _ in range(2):  # second round: every answer comes from the cache
            for ext in ({}, {"a": 1}, {"a": 2, "b": 3}):
                for narrowed in (False, True):
                    assert state.breath_limit_of(ext, narrowed) == rule_breath_limit(ext, narrowed, opts).value
            for dice, target in (((3, 4), 11), ((5, 5), 11), ((10, 10), 11), ((1, 1), 11), ((2, 3), 30)):
                c = Check(dice, 2, target)
                for dmg, crit, behind, crit_behind in ((1, 2, 0, 0), (1, 3, 0, 0), (2, 2, 1, 1)):
                    m = Move("x", "x", "attack", 2, damage=dmg, crit_damage=crit, behind_damage=behind,
                             crit_behind_damage=crit_behind)
                    for kind in ("attack", "counter"):
                        assert state.damage_of(m, c, kind) == rule_hit_damage(c.outcome, dmg, crit, behind,
                                                                             crit_behind, kind, opts)
    assert {o.value for o in Outcome} >= {"成功", "会心", "天命", "業報"}


def _module_containers() -> dict[tuple[str, str], int]:
    """Size of every dict/list/set held at module level by the maai flow modules."""
    out = {}
    for name, mod in list(sys.modules.items()):
        if not name.startswith("ikusa.systems.maai") or mod is None:
            continue
        for attr, value in vars(mod).items():
            if isinstance(value, dict | list | set):
                out[name, attr] = len(value)
    return out


def test_no_module_level_cache_grows_and_encounters_share_none() -> None:
    """Issue #12: battles of two encounters leave every module-level container of the maai
    flow as it was (the caches hang on the encounter), and each encounter has its own caches,
    shared by its states."""
    a, b = _load("duel.yaml"), _load("squad_battle.yaml")
    _battle(MaaiState(a), 1)  # imports and one-time tables settle first
    before = _module_containers()
    s1, s2, s3 = MaaiState(a), MaaiState(a), MaaiState(b)
    assert _battle(s1, 2) > 0 and _battle(s3, 3) > 0
    assert _module_containers() == before
    assert s1.caches is s2.caches and s1.caches is not s3.caches
    assert s1.caches.options and s3.caches.options
    assert not set(map(id, s1.caches.options.values())) & set(map(id, s3.caches.options.values()))
