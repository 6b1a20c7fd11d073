"""The state's index of units by count (maai/count_index.py; issue #12 target 3) always agrees
with a full scan of the units (count.next_to_act and the S-G49 tie group): every time the flow
asks for the next unit to act, through seeded mass battles (PCs, mixed 技 and 先攻), random GM
rulings (活力 and 戦力 set, revival, conditions, skipped turns, units added and removed),
reinforcements from the 妖魔乱入遭遇表 at 小康, undo and redo, and deep copies (the lab's search)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from bench.bench_large import encounter_doc
from ikusa.dice.source import RandomSource
from ikusa.engine.errors import InputError
from ikusa.engine.rulings import parse_ruling
from ikusa.engine.runner import load_encounter
from ikusa.systems.maai import count_index
from ikusa.systems.maai.count import next_to_act
from ikusa.systems.maai.count_index import CountIndex, unit_key
from ikusa.systems.maai.count_ties import CountTieFlow
from ikusa.systems.maai.encounter import encounter_from_dict
from ikusa.systems.maai.policies import GreedyPolicy, RandomPolicy
from ikusa.systems.maai.state import MaaiState
from ikusa.systems.maai.units import Unit
from tests.systems.maai.mass_play import play_checking, rule_or_act
from tests.systems.ruling_driver import Session

AMBUSH = Path(__file__).parent / "data" / "ambush_table.yaml"


def scanned(st: Any) -> list[Unit]:
    """The next unit to act by a full scan (S-R35) and every unit tied with it under the
    default tie order (S-G49: one side, equal count and 技, both PCs or both NPCs)."""
    best = next_to_act(st.units)
    if best is None:
        return []
    k = unit_key(best)
    return [u for u in st.units if unit_key(u) == k]


class Checks:
    calls = 0
    builds = 0


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[Checks]]:
    """Every ``next_actor`` of the flow is checked against the scan (and index builds counted)."""
    real_next, real_init = CountTieFlow.next_actor, CountIndex.__init__

    def next_actor(self: Any) -> Unit | None:
        u = real_next(self)
        want = scanned(self)
        assert [x.id for x in self.count_group] == [x.id for x in want]
        assert u is (want[0] if want else None)
        Checks.calls += 1
        return u

    def init(self: CountIndex, units: Any, maai: int) -> None:
        Checks.builds += 1
        real_init(self, units, maai)

    Checks.calls = Checks.builds = 0
    monkeypatch.setattr(CountTieFlow, "next_actor", next_actor)
    monkeypatch.setattr(CountIndex, "__init__", init)
    yield Checks


def agrees_now(st: Any) -> bool:
    """A kept index, between two decisions, agrees with the scan (True when there was one)."""
    ix = st.count_index
    if st.phase != "count" or ix is None or not ix.fresh(st.units, st.maai):
        return False
    assert [u.id for u in ix.group()] == [u.id for u in scanned(st)]
    return True


def mixed_doc(units: int, wounds: int = 3) -> dict[str, Any]:
    """bench_large's N-vs-N 雑 with PCs, other 技 and 先攻 mixed in (more count keys, ties across
    sides broken by 技, side and grade; S-T17, S-T18, S-G49), ``wounds`` 戦力 each (the battle
    lasts several 間合)."""
    doc = encounter_doc(units)
    for i, u in enumerate(doc["units"]):
        u["wounds"] = wounds
        if i % 3 == 0:
            u["abilities"] = {**u["abilities"], "技": 1}
        if i % 5 == 0:
            u["先攻"] = 2
        if i % 7 == 0 and u["side"] == "味方":
            u["grade"] = "PC"
    return doc


@pytest.mark.pure_python  # patches compiled methods (CountTieFlow.next_actor, CountIndex.__init__)
@pytest.mark.parametrize(("doc", "policy"), [(encounter_doc(40), GreedyPolicy()), (mixed_doc(40), GreedyPolicy()),
                                             (mixed_doc(30), RandomPolicy())], ids=["greedy", "mixed", "random"])
def test_the_index_agrees_with_a_scan_through_mass_battles(checked: type[Checks], doc: dict[str, Any],
                                                           policy: Any) -> None:
    kept, maai = play_checking(encounter_from_dict(doc, "<test>"), policy, (1, 2), agrees_now)
    assert checked.calls >= 15 and kept >= 100
    # one index a 間合 (nothing raised a count within one): the scan per turn is gone
    assert checked.builds <= maai


def _joins_leaves_and_counts(s: Session, rng: random.Random, raw: dict[str, Any]) -> dict[str, Any]:
    pick = rng.random()
    ids = [u.id for u in s.state.units]
    if pick < 0.1:
        return {"op": "add_unit", "unit": {
            "id": f"extra{len(s.entries)}", "name": "浪人", "grade": "雑", "weapons": ["katana"],
            "side": rng.choice(["味方", "敵"]), "skills": {"剣術": "入門"}, "先攻": rng.randint(0, 3),
            "abilities": {"勇": 1, "技": rng.randint(0, 1), "體": 0, "智": 0, "美": 0, "運": 0}}}
    if pick < 0.15:
        return {"op": "remove_unit", "unit": rng.choice(ids)}
    if pick < 0.45:  # 活力 up and down, 戦力 back from 0 (revival)
        return {"op": "set", "unit": rng.choice(ids), "resource": rng.choice(["活力", "戦力"]),
                "value": rng.randint(0, 9)}
    return raw


@pytest.mark.pure_python  # patches compiled methods (CountTieFlow.next_actor, CountIndex.__init__)
def test_the_index_agrees_through_random_gm_rulings(checked: type[Checks], tmp_path: Path) -> None:
    """活力/戦力 set by ruling (also revival), conditions, effects, skipped and ended turns,
    units added and removed, mid-breath and between breaths."""
    path = tmp_path / "mass.yaml"
    path.write_text(yaml.safe_dump({"system": "maai", **mixed_doc(24)}, allow_unicode=True), encoding="utf-8")
    ops: set[str] = set()
    kept = 0
    for seed in range(3):
        rng = random.Random(seed)
        s = Session(str(path))
        dice = RandomSource(seed + 1)
        for _ in range(250):
            if s.state.pending() is None:
                break
            kept += agrees_now(s.state)
            if op := rule_or_act(s, rng, dice, 0.3, _joins_leaves_and_counts):
                ops.add(op)
    assert {"add_unit", "remove_unit", "set", "condition", "skip_turn"} <= ops
    assert checked.calls >= 15 and kept >= 40


@pytest.mark.pure_python  # patches compiled methods (CountTieFlow.next_actor, CountIndex.__init__)
def test_the_index_agrees_when_reinforcements_join_at_a_lull(checked: type[Checks]) -> None:
    """S-R36/S-G07: the 妖魔乱入 band brings two 小鬼 in at every 小康; they act when the count
    reaches them (a new index for the larger battle)."""
    table = yaml.safe_load(AMBUSH.read_text(encoding="utf-8"))
    doc = {**mixed_doc(12, wounds=6), "options": table["options"], "homebrew": table["homebrew"]}
    enc = encounter_from_dict(doc, "<test>")
    joined = 0
    for seed in (3, 4):
        st = MaaiState(enc)
        policy, rng, dice = GreedyPolicy(), random.Random(seed), RandomSource(seed)
        while (d := st.pending()) is not None:
            agrees_now(st)
            key = "env:ambush" if d.kind == "gm_event" else policy.choose(st, d, rng)
            st.apply(key, dice)
        joined += len(st.units) - 12
    assert joined >= 4 and checked.calls >= 50


@pytest.mark.pure_python  # patches compiled methods (CountTieFlow.next_actor, CountIndex.__init__)
def test_the_index_agrees_through_undo_and_redo(checked: type[Checks], tmp_path: Path) -> None:
    """Honest undo rebuilds the state from the record (a fresh index); redo re-applies."""
    path = tmp_path / "mass.yaml"
    path.write_text(yaml.safe_dump({"system": "maai", **mixed_doc(16)}, allow_unicode=True), encoding="utf-8")
    c = load_encounter(str(path)).new_combat()
    rng, dice = random.Random(7), RandomSource(7)
    undone = 0
    for _ in range(200):
        d = c.pending()
        if d is None:
            break
        r = rng.random()
        if r < 0.1 and c.record:
            c.undo()
            undone += 1
            if rng.random() < 0.5:
                c.redo()
        elif r < 0.2:
            u = rng.choice(c.state.units)
            try:
                c.rule(parse_ruling({"op": "set", "unit": u.id, "resource": "活力", "value": rng.randint(0, 8)}),
                       dice)
            except InputError:
                pass
        else:
            c.push(rng.choice(d.options).key, dice)
        agrees_now(c.state)
    assert undone > 5 and checked.calls >= 30


def test_a_count_that_rose_without_a_new_index_is_found_first() -> None:
    """Only a new 間合 or a ruling raises a count (both start a new index); should a count
    rise in the best bucket anyway, the unit goes to its better bucket and is found there."""
    st = MaaiState(encounter_from_dict(encounter_doc(6), "<test>"))
    ix = CountIndex(st.units, st.maai)
    first = ix.group()
    assert [u.id for u in first] == [u.id for u in scanned(st)]
    last = first[-1]
    last.vigor += 3
    assert [u.id for u in ix.group()] == [last.id] == [u.id for u in scanned(st)]
    assert count_index.unit_key(last) == ix.heap[0]
