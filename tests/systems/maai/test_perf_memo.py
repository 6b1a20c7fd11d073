"""The speed memos of the maai flow change no result (issue #3 bench work).

Breath and reaction options are immutable values reused across states and battles
(breath_flow._OPTION_MEMO, attack_flow._REACT_MEMO, movement._MOVE_MEMO), and a few pure rule results are memoised
(rules_link: breath limit, hit damage).  A memo keyed on too little would hand back an option or
number built for another situation; these tests run whole battles with warm memos and rebuild
every breath decision with empty ones, and compare the memoised rule results with the rule
functions themselves."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ikusa.dice.source import RandomSource
from ikusa.engine.encounter import read_document, split_document
from ikusa.systems.maai import attack_flow, breath_flow, movement, option_odds, rules_link
from ikusa.systems.maai.breath import breath_limit as rule_breath_limit
from ikusa.systems.maai.check import Outcome
from ikusa.systems.maai.damage import hit_damage as rule_hit_damage
from ikusa.systems.maai.encounter import MaaiEncounter, encounter_from_dict
from ikusa.systems.maai.options import MaaiOptions
from ikusa.systems.maai.policies import GreedyPolicy, RandomPolicy
from ikusa.systems.maai.state import MaaiState

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "maai"


def _load(name: str) -> MaaiEncounter:
    path = EXAMPLES / name
    doc = split_document(read_document(path), str(path))
    return encounter_from_dict(doc.body, str(path))


@pytest.mark.parametrize("name", ["duel.yaml", "squad_battle.yaml", "gaps.yaml"])
def test_breath_options_with_warm_memo_equal_fresh_ones(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """S-R35/S-R27: every breath decision of random and greedy battles equals the options
    rebuilt with empty memos (same keys, labels, costs, odds, data, in the same order)."""
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
                    m.setattr(breath_flow, "_OPTION_MEMO", {})
                    m.setattr(attack_flow, "_REACT_MEMO", {})
                    m.setattr(movement, "_MOVE_MEMO", {})
                    m.setattr(state, "breath_cache", {})
                    m.setattr(state, "react_cache", {})
                    m.setattr(state, "memo", {})
                    m.setattr(option_odds, "_OPTIONS", {})
                    fresh = tuple(option_odds.annotate(state, u, state.breath_options(u)))  # #13 label notes
                assert fresh == d.options
                checked += 1
            state.apply(policy.choose(state, d, rng), dice)
            steps += 1
            d = state.pending()
    assert checked > 10


def test_memoised_rule_results_equal_the_rules() -> None:
    """S-R27/S-R28/S-G32 breath limit and S-R41/S-R43/S-R09 hit damage: the memoised
    wrappers answer what the rule functions answer, for several option sets in turn (the
    options object is part of the memo key)."""
    variants = [MaaiOptions(), MaaiOptions.model_validate({"breath": {"absolute_cap": 6}}),
                MaaiOptions.model_validate({"doubles": {"crit_checks": []}})]
    for _ in range(2):  # second round: every answer comes from the memo
        for opts in variants:
            for ext in ({}, {"a": 1}, {"a": 2, "b": 3}):
                for narrowed in (False, True):
                    assert rules_link.breath_limit(ext, narrowed, opts) == \
                        rule_breath_limit(ext, narrowed, opts).value
            for out in Outcome:
                for dmg, crit, behind, crit_behind in ((1, 2, 0, 0), (1, 3, 0, 0), (2, 2, 1, 1)):
                    for kind in ("attack", "counter"):
                        assert rules_link.hit_damage(out, dmg, crit, behind, crit_behind, kind, opts) == \
                            rule_hit_damage(out, dmg, crit, behind, crit_behind, kind, opts)
