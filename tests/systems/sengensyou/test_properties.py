"""Invariants over random battles (hypothesis seeds): DP within 0..max, graze ≥ 0, at most
one defence per attack, at most one guard per character per turn, back row ≤ front row,
every battle ends."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from ikusa.dice.source import RandomSource
from ikusa.engine.combat import Combat
from ikusa.engine.runner import load_encounter
from ikusa.systems.sengensyou.policies import GreedyPolicy, RandomPolicy
from ikusa.systems.sengensyou.state import SengensyouState

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "sengensyou"
LOADED = {name: load_encounter(EXAMPLES / f"{name}.yaml") for name in ("spellcard_duel", "party_battle")}


def run_checked(name: str, seed: int, policy: str, max_decisions: int = 5000) -> Combat:
    c = LOADED[name].new_combat()
    pol = RandomPolicy() if policy == "random" else GreedyPolicy()
    rng, dice = random.Random(seed), RandomSource(seed)
    n = 0
    while (d := c.pending()) is not None:
        c.push(pol.choose(c.state, d, rng), dice)
        state = c.state
        assert isinstance(state, SengensyouState)
        for f in state.fighters.values():
            assert 0 <= f.dp <= f.dp_max, (f.id, f.dp, f.dp_max)
            assert f.graze >= 0
        n += 1
        assert n < max_decisions, "battle did not end"
    check_events(c)
    return c


def check_events(c: Combat) -> None:
    defences: Counter[int] = Counter()
    guards: Counter[tuple[int, str]] = Counter()
    turn = 0
    rolled_move: set[tuple[int, str]] = set()
    for e in c.events:
        if e.kind == "turn_start":
            turn = e.data["turn"]
        elif e.kind == "move" and "dp" in e.data:
            rolled_move.add((turn, e.data["who"]))
        elif e.kind == "wait":  # G-G26: no 待機 after spending DP on the own turn
            assert (turn, e.data["who"]) not in rolled_move
        elif e.kind in ("evade", "guard"):
            defences[e.data["serial"]] += 1
            if e.kind == "guard":
                guards[(turn, e.data["who"])] += 1
        elif e.kind == "rows":
            assert e.data["back"] <= e.data["front"]
    assert all(v == 1 for v in defences.values()), "a second defence against one attack"
    assert all(v == 1 for v in guards.values()), "a second guard in one turn"
    assert c.events[-1].kind == "scene_end"


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 10**9), name=hs.sampled_from(sorted(LOADED)), policy=hs.sampled_from(["random", "greedy"]))
def test_random_battles_keep_the_invariants(seed: int, name: str, policy: str) -> None:
    c = run_checked(name, seed, policy)
    state = c.state
    assert isinstance(state, SengensyouState)
    assert state.scene_over and all(f.graze == 0 for f in state.fighters.values())


def test_many_seeded_battles_end() -> None:
    """A thousand seeded battles (plus the hypothesis examples), every invariant checked."""
    for seed in range(1000):
        run_checked("party_battle" if seed % 2 else "spellcard_duel", seed, "random" if seed % 3 else "greedy")


JUNK = ["shot", "shot:", "shot:zz:1:magic", "shot:b:x:magic", "shot:reimu:0:onmyou", "homing:", "homing:magic:",
        "homing:magic:a+x,b", "melee:reimu:abc", "guard:1", "evade:0", "cover:nobody", "cover:reimu", "row:back",
        "focus:yes", "declare:999", "declare:x", "other:9", "graze:shot:99", "graze:reiryoku:x", "sc:nope",
        "deploy:nope", "sc_defend:x", "tekagen:x", "", ":", "end_scene", "barrage:nope", "spell:sleep:x:1"]


@settings(max_examples=25, deadline=None)
@given(seed=hs.integers(0, 10**6), junk=hs.lists(hs.sampled_from(JUNK), min_size=1, max_size=4))
def test_illegal_keys_are_refused_with_a_rule_and_change_nothing(seed: int, junk: list[str]) -> None:
    """Every refusal is a RuleViolation (never another exception) and leaves no trace."""
    from ikusa.engine.errors import RuleViolation

    c = LOADED["spellcard_duel"].new_combat()
    rng, dice, pol = random.Random(seed), RandomSource(seed), RandomPolicy()
    steps = 0
    while (d := c.pending()) is not None and steps < 400:
        if rng.random() < 0.1:
            bad = rng.choice(junk)
            if d.option(bad) is None:
                before = c.to_json()
                try:
                    c.push(bad, dice)
                except RuleViolation as err:
                    assert err.rule
                else:  # pragma: no cover
                    raise AssertionError(f"{bad!r} accepted")
                assert c.to_json() == before
        c.push(pol.choose(c.state, d, rng), dice)
        steps += 1


ARCHETYPES: list[dict[str, object]] = [
    {"skills": {"ショット": 2, "弾幕": 2, "ホーミング": 3, "回避": 2}, "abilities": {"神術・陰陽術": 3},
     "spell_cards": ["musou_fuuin", "fuuma_jin"], "spells": ["sleep"]},
    {"skills": {"ショット": 3, "弾幕": 1, "回避": 3, "精神抵抗": 1}, "abilities": {"魔法": 4},
     "spell_cards": ["non_directional_laser"], "spells": ["fire_bolt"]},
    {"skills": {"近接武器": 3, "ショット": 1, "弾幕": 1, "回避": 2, "肉体抵抗": 2},
     "feats": {"鍛錬": 2, "剣閃・波動": 1}},
    {"skills": {"射撃武器": 2, "ショット": 2, "ホーミング": 2, "隠密": 3, "飛行": 2}, "feats": {"鍛錬": 2},
     "items": ["業物"]},
    {"skills": {"歌": 3, "ショット": 2, "弾幕": 2}, "abilities": {"妖力": 2, "妖弾化": 1, "警報術": 1},
     "youdan_skill": "歌"},
]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=hs.data())
def test_generated_encounters_with_gm_features(data: hs.DataObject) -> None:
    """Random parties with hidden characters, surprise, reinforcements and every option
    toggle keep the invariants under random play."""
    from ikusa.systems import sengensyou

    seed = data.draw(hs.integers(0, 10**6))
    rng = random.Random(seed)
    chars = []
    for side in ("pc", "npc"):
        for i in range(rng.randint(1, 3)):
            arch = dict(rng.choice(ARCHETYPES))
            stats = {s: rng.randint(2, 6) for s in ("身体", "耐久", "知性", "感覚", "意志")}
            chars.append({"id": f"{side}{i}", "name": f"{side}{i}", "side": side, "stats": stats,
                          "hidden": rng.random() < 0.15, "vigilant": rng.random() < 0.7, **arch})
    options = {
        "escape_track": rng.random() < 0.5, "simplified": rng.random() < 0.3,
        "homing_boost_repeatable": rng.random() < 0.3, "sc_recovery": rng.choice(["max_lv_3", "lv_or_3"]),
        "dp_start": rng.choice(["full", "recovery"]), "max_turns": 8, "gm_turn_prompt": rng.random() < 0.2,
        "defence_tie": rng.choice(["defender", "attacker"]), "npc_fixed_dice": rng.choice([None, True, False]),
    }
    body: dict[str, object] = {"characters": chars, "pc_side": "pc", "options": options}
    if options["simplified"]:
        body["leader"] = "npc0"
    if rng.random() < 0.4:
        body["surprise"] = {"side": rng.choice(["pc", "npc"]), "range": rng.choice(["within", "outside", "far"])}
    if rng.random() < 0.4:
        body["reinforcements"] = [{"turn": 2, "character": {**chars[-1], "id": "late", "hidden": False}}]
    enc = sengensyou.encounter_from_dict(body, "<gen>")
    c = Combat("sengensyou", {"system": "sengensyou", **body}, lambda: sengensyou.new_state(enc))
    pol = RandomPolicy() if seed % 2 else GreedyPolicy()
    dice = RandomSource(seed)
    n = 0
    while (d := c.pending()) is not None:
        c.push(pol.choose(c.state, d, rng), dice)
        state = c.state
        assert isinstance(state, SengensyouState)
        assert all(0 <= f.dp <= f.dp_max and f.graze >= 0 for f in state.fighters.values())
        if (p := c.pending()) is not None:
            assert all(o.odds is None or 0.0 <= o.odds <= 1.0 for o in p.options)
        n += 1
        assert n < 5000
    check_events(c)
