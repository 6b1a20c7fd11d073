"""The per-state melee attack lists (breath_flow, issue #12 target 3) agree with a fresh build:
at every breath of random and greedy battles (a mass battle, the examples, GM rulings mixed in:
effects, conditions, set values, units added) the breath options built with the kept lists —
only enemies whose revision (Unit.urev) changed are redone — equal those built from nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench.bench_large import build
from ikusa.dice.source import RandomSource
from ikusa.engine.errors import InputError
from ikusa.systems.maai.policies import GreedyPolicy, RandomPolicy
from ikusa.systems.maai.state import MaaiState
from tests.systems.maai.mass_play import play_checking
from tests.systems.ruling_driver import Session
from tests.systems.test_rulings_property import random_ruling


def shown(options: list[Any]) -> list[tuple[object, ...]]:
    return [(o.key, o.label, o.cost, o.odds, o.data) for o in options]


def agrees(st: MaaiState) -> bool:
    """The pending breath's options, built with the kept lists and then from nothing, agree;
    True when the kept lists served an attack (so the check was not vacuous)."""
    w = st.wait
    if w is None or w.decision.kind != "breath":
        return False
    u = st.by_id[w.decision.actor]
    kept = st.build_breath_options(u)
    served = bool(st.attack_lists)
    saved, st.attack_lists = st.attack_lists, {}
    try:
        fresh = st.build_breath_options(u)
    finally:
        st.attack_lists = saved
    assert shown(kept) == shown(fresh)
    return served and any(o.data.get("kind") == "attack" for o in kept)


@pytest.mark.parametrize("policy", [GreedyPolicy(), RandomPolicy()], ids=["greedy", "random"])
def test_a_mass_battle_keeps_lists_that_agree_with_a_fresh_build(policy: Any) -> None:
    served, _ = play_checking(build(40), policy, (1, 2), agrees)
    assert served > 50


@pytest.mark.parametrize("path", ["examples/maai/squad_battle.yaml", "examples/maai/gaps.yaml",
                                  "examples/maai/duel.yaml"])
def test_lists_agree_with_a_fresh_build_through_gm_rulings(path: str) -> None:
    served = 0
    ops: set[str] = set()
    for seed in range(4):
        rng = random.Random(seed)
        s = Session(path)
        dice = RandomSource(seed + 1)
        for _ in range(120):
            if s.state.pending() is None:
                break
            if rng.random() < 0.25:
                raw = random_ruling("maai", s, rng)
                pick = rng.random()
                if pick < 0.1:
                    raw = {"op": "add_unit", "unit": {
                        "id": f"extra{len(s.entries)}", "name": "浪人", "grade": "雑", "weapons": ["katana"],
                        "side": rng.choice(s.state.units).side, "skills": {"剣術": "入門"},
                        "abilities": {"勇": 1, "技": 0, "體": 0, "智": 0, "美": 0, "運": 0}}}
                elif pick < 0.2:
                    raw = {"op": "remove_unit", "unit": rng.choice(s.state.units).id}
                try:
                    s.rule(raw, dice)
                    ops.add(raw["op"])
                except InputError:
                    pass
            else:
                options = s.state.pending().options
                s.act(rng.choice(options).key, dice)
            served += agrees(s.state)
    assert served > 0
    assert {"add_unit", "remove_unit", "effect", "condition", "set"} <= ops


@pytest.mark.parametrize("ruling", [
    {"op": "remove_unit"},
    {"op": "condition", "name": "無防備", "on": True},
    {"op": "effect", "reason": "test", "effect": {"name": "呪い", "modifiers": {"防備": -3},
                                                   "duration": {"clock": "maai", "n": 1}}},
], ids=["remove_unit", "defenceless", "defence_effect"])
def test_a_ruling_on_one_enemy_mid_battle_shows_in_the_next_breath(ruling: dict[str, Any]) -> None:
    """The lists are kept (a dozen breaths in), then a GM ruling changes one enemy in reach: the
    next breath's list redoes that enemy (its option goes, or its odds rise) and agrees with a
    fresh build."""
    from ikusa.engine.rulings import parse_ruling

    st = MaaiState(build(40))
    policy, rng, dice = GreedyPolicy(), random.Random(5), RandomSource(5)
    breaths = 0
    while (d := st.pending()) is not None and breaths < 12:
        breaths += d.kind == "breath"
        st.apply(policy.choose(st, d, rng), dice)
    while (d := st.pending()) is not None and d.kind != "breath":
        st.apply(policy.choose(st, d, rng), dice)
    assert d is not None and st.attack_lists
    u = st.by_id[d.actor]
    before = {o.data["target"]: o.odds for o in st.build_breath_options(u) if o.data.get("kind") == "attack"}
    tid = sorted(before)[0]
    st.apply_ruling(parse_ruling({**ruling, "unit": tid}), dice)
    assert agrees(st)
    after = {o.data["target"]: o.odds for o in st.build_breath_options(u) if o.data.get("kind") == "attack"}
    if ruling["op"] == "remove_unit":
        assert tid not in after
    else:
        assert after[tid] is not None and before[tid] is not None and after[tid] > before[tid]
    assert {k: v for k, v in after.items() if k != tid} == {k: v for k, v in before.items() if k != tid}
