"""Invariants over many random and greedy battles (seeded loops; the bench runs thousands):
活力 ≥ 0, 戦力 ≥ 0, a breath over its limit always ends with an overload check, a 無防備
unit holds no stance or reservation (S-R64), at most two distinct 0-活力 [型] per 間合 (S-R59),
each reservation triggers at most once (S-R38), and every battle ends."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikusa.dice.source import RandomSource
from ikusa.engine.encounter import read_document, split_document
from ikusa.systems.maai.encounter import MaaiEncounter, encounter_from_dict
from ikusa.systems.maai.policies import GreedyPolicy, RandomPolicy
from ikusa.systems.maai.state import MaaiState

from .maai_flow_support import HOMEBREW

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "maai"
MAX_DECISIONS = 5000


def _load(name: str) -> MaaiEncounter:
    doc = split_document(read_document(EXAMPLES / name), name)
    return encounter_from_dict(doc.body, name)


def _feats_duel() -> MaaiEncounter:
    """A battle with most of the engine's mechanics reachable by random play: 0-活力 [型],
    stances, 心府, 突破, 照準集中, 出血, 分隊命令, [破壊], guns and 戦場の花, three zones."""
    ab = {"勇": 2, "技": 1, "體": 1, "智": 2, "美": 0, "運": 1}
    hb = {**HOMEBREW, "maneuvers": [*HOMEBREW["maneuvers"],
                                    {"id": "test.break_blow", "name": "砕き打ち", "weapon": "kanabou", "kind": "attack",
                                     "cost": 3, "ability": "勇", "tags": ["pierce 3", "break"]}]}
    moves = ["move.basic", "move.fumikomi", "move.toppa"]
    units = [
        {"id": "a", "name": "甲", "side": "A", "grade": "PC", "abilities": ab, "zone": "z1",
         "skills": {"剣術": "免許", "忍術": "免許"}, "weapons": ["katana", "tanto", "kodachi"],
         "stances": ["fudou_no_jin", "sen_no_taido"], "feats": ["kata_a", "kata_b", "kata_c"],
         "schools": ["taikyoku_kenbu"], "maneuvers": moves, "armour": ["軽甲"]},
        {"id": "g", "name": "丁", "side": "A", "grade": "PC", "abilities": ab, "zone": "z1",
         "skills": {"砲術": "習得", "弓術": "免許"}, "weapons": ["teppou", "daikyu"], "feats": ["senjou_no_hana"],
         "maneuvers": moves},
        {"id": "b", "name": "乙", "side": "B", "grade": "主", "abilities": ab, "squad": "s", "zone": "z3",
         "skills": {"槍術": "習得"}, "weapons": ["yari", "tantou"], "armour": ["重甲"], "stances": ["fudou_no_jin"],
         "feats": ["kata_a", "kata_b", "kata_c"], "maneuvers": [*moves, "squad.command", "test.break_blow"],
         "weapon_grades": {"kanabou": "名品"}},
        {"id": "c", "name": "丙", "side": "B", "grade": "卒", "abilities": ab, "squad": "s", "zone": "z2", "fate": 0,
         "skills": {"槍術": "入門"}, "weapons": ["yari"], "armour": ["軽甲", "盾"], "maneuvers": moves},
    ]
    return encounter_from_dict({"units": units, "homebrew": hb, "zones": ["z1", "z2", "z3"], "max_maai": 20},
                               "<feats>")


def _play(enc: MaaiEncounter, policy: object, seed: int) -> MaaiState:
    s = MaaiState(enc)
    rng = random.Random(seed)
    dice = RandomSource(seed)
    for _ in range(MAX_DECISIONS):
        d = s.pending()
        if d is None:
            return s
        key = policy.choose(s, d, rng)  # type: ignore[attr-defined]
        breath_limit = {u.id: u.cur_limit for u in s.units}
        events = s.apply(key, dice)
        overloaded: set[str] = set()
        for e in events:
            if e.kind == "overload":
                overloaded.add(e.data["unit"])
            if e.kind == "breath_end":
                uid = e.data["unit"]
                if e.data["spent"] > breath_limit[uid]:
                    assert uid in overloaded, f"S-R29: {uid} spent {e.data['spent']} > {breath_limit[uid]}"
        for u in s.units:
            assert u.vigor >= 0 and u.wounds >= 0
            assert 0 <= u.wounds <= u.max_wounds
            if u.defenceless:
                assert u.stance is None and u.reservations == []  # S-R64 / S-G41
            assert len(u.zero_used) <= enc.opts.zero_cost.cap
            assert len(set(u.zero_used)) == len(u.zero_used)  # S-G40 once per effect
            if u.incapacitated:
                assert u.wounds == 0 and u.reservations == []
        assert s.maai <= enc.max_maai
    raise AssertionError("battle did not end")


@pytest.mark.parametrize("name", ["duel.yaml", "squad_battle.yaml", "count_example.yaml"])
def test_random_battles_keep_the_invariants(name: str) -> None:
    enc = _load(name)
    pol = RandomPolicy()
    n = 1000 if name != "squad_battle.yaml" else 300  # thousands in all (issue #3)
    for seed in range(n):
        s = _play(enc, pol, seed)
        assert s.pending() is None
        assert s.winner is not None or s.maai == enc.max_maai


@pytest.mark.parametrize("name", ["duel.yaml", "squad_battle.yaml"])
def test_greedy_battles_keep_the_invariants(name: str) -> None:
    enc = _load(name)
    pol = GreedyPolicy()
    winners: Counter[str | None] = Counter()
    for seed in range(500):
        winners[_play(enc, pol, 1000 + seed).winner] += 1
    assert sum(winners.values()) == 500


def test_zero_vigor_kata_and_stances_under_random_play() -> None:
    enc = _feats_duel()
    pol = RandomPolicy()
    for seed in range(80):
        assert _play(enc, pol, seed).pending() is None


def test_reservations_trigger_at_most_once() -> None:
    """S-R38: count reserve events and reserved triggers per unit per 間合 span."""
    enc = _load("duel.yaml")
    for seed in range(40):
        s = MaaiState(enc)
        rng = random.Random(seed)
        dice = RandomSource(seed)
        held: Counter[str] = Counter()
        pol = RandomPolicy()
        while (d := s.pending()) is not None:
            for e in s.apply(pol.choose(s, d, rng), dice):
                if e.kind == "reserve":
                    held[e.data["unit"]] += 1
                elif e.kind == "defence" and "予約発動" in e.text:
                    held[e.data["unit"]] -= 1
                    assert held[e.data["unit"]] >= 0
                elif e.kind == "counter":
                    held[e.data["unit"]] -= 1
                    assert held[e.data["unit"]] >= 0
                elif e.kind in ("lull",):
                    held.clear()
                elif e.kind == "breath" and "失効" in e.text:
                    held[e.data["unit"]] = 0
                elif e.kind == "defenceless" and "予約消滅" in e.text:
                    held[e.data["unit"]] = 0


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**9), greedy=st.booleans())
def test_hypothesis_invariants_and_replay(seed: int, greedy: bool) -> None:
    """Any seed: the invariants hold, and replaying the decisions with their dice through
    Combat reproduces the final state exactly (event-sourcing)."""
    from ikusa.engine.combat import Combat

    enc = _feats_duel()
    s = _play(enc, GreedyPolicy() if greedy else RandomPolicy(), seed)
    combat = Combat("maai", {}, lambda: MaaiState(enc))
    rng = random.Random(seed)
    dice = RandomSource(seed)
    pol = GreedyPolicy() if greedy else RandomPolicy()
    while (d := combat.pending()) is not None:
        combat.push(pol.choose(combat.state, d, rng), dice)
    assert combat.state.summary() == s.summary()
    again = Combat("maai", {}, lambda: MaaiState(enc))
    again.replay(list(combat.record))
    assert again.state.summary() == combat.state.summary()
