"""A roll that waits for typed dice parks the action where it rolled (engine/continuation.py,
issue #8 §1): supplying the dice replays nothing, gives what software dice give, and an undo,
a ruling, another thread or a restart still lead to the same combat."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from ikusa.dice.source import RandomSource, ScriptedSource
from ikusa.engine.combat import Combat
from ikusa.engine.dice_request import DiceRequest
from ikusa.engine.driver import make_policy
from ikusa.engine.record import Entry
from ikusa.engine.runner import load_encounter
from tests.engine.dice_wait import midway, type_all

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CASES = ["maai/duel.yaml", "sengensyou/spellcard_duel.yaml", "fantasy/corridor_ambush.yaml"]


def _midway(name: str, seed: int = 3) -> tuple[Combat, Entry]:
    """The example stopped at a decision rolling two dice or more after half a greedy battle."""
    return midway(EXAMPLES / name, seed, min_dice=2)


def _log(c: Combat) -> Any:
    """The record as actions and dice (who typed each die, and a reuse after an undo, are
    recorded on purpose and differ), with the combat's state."""
    entries = [(e.actor, e.action, e.dice) for e in c.record]
    return entries, json.dumps(c.state.summary(), ensure_ascii=False), [e.text for e in c.events]


@pytest.mark.parametrize("name", CASES)
def test_typed_dice_give_what_software_dice_give_without_a_replay(name: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    c, target = _midway(name)
    values = [v for v, _ in target.dice]
    before = c.state.summary()
    auto, _ = _midway(name)
    expected = auto.push(target.action, ScriptedSource(values))

    rebuilds: list[int] = []
    original = Combat._rebuild
    monkeypatch.setattr(Combat, "_rebuild", lambda self: (rebuilds.append(1), original(self))[1])
    decision = c.pending()
    c.dice_override = "manual"
    assert c.push(target.action) == []
    assert c.partial is not None and c.pending() == decision  # while parked: the decision it answers
    rolls = type_all(c, values)
    assert rolls >= 1
    assert rebuilds == []  # parked and continued: nothing replayed (bench/bench_dice_request.py)
    assert [e.text for e in c.events[-len(expected):]] == [e.text for e in expected]
    assert _log(c) == _log(auto)
    assert c.record[-1].dies[0].by != "auto"  # the log says who typed them
    c.pop()
    assert c.state.summary() == before


@pytest.mark.parametrize("name", CASES)
def test_dice_typed_on_another_thread_fall_back_to_the_replay(name: str) -> None:
    c, target = _midway(name)
    values = [v for v, _ in target.dice]
    auto, _ = _midway(name)
    auto.push(target.action, ScriptedSource(values))
    c.dice_override = "manual"
    c.push(target.action)
    type_all(c, values, on_thread=True)
    assert _log(c) == _log(auto)


@pytest.mark.parametrize("name", CASES)
def test_undo_of_a_parked_action_leaves_the_state_before_it(name: str) -> None:
    c, target = _midway(name)
    values = [v for v, _ in target.dice]
    before = json.dumps(c.state.summary(), ensure_ascii=False)
    decision = c.pending()
    c.dice_override = "manual"
    c.push(target.action)
    assert c.partial is not None
    first = c.partial.request.count
    if len(values) > first:  # a second roll is asked: the first one's dice are kept by the undo
        c.supply(values[:first])
    entry = c.undo()
    assert entry.action == target.action
    assert json.dumps(c.state.summary(), ensure_ascii=False) == before
    assert c.pending() == decision and c.partial is None
    c.dice_override = None
    c.push(target.action, ScriptedSource(values[len(entry.dice):]))  # the kept dice first, then the rest
    auto, _ = _midway(name)
    auto.push(target.action, ScriptedSource(values))
    assert _log(c) == _log(auto)


def test_a_saved_half_typed_action_resumes_to_the_same_combat(tmp_path: Path) -> None:
    c, target = _midway("sengensyou/spellcard_duel.yaml")
    values = [v for v, _ in target.dice]
    auto, _ = _midway("sengensyou/spellcard_duel.yaml")
    auto.push(target.action, ScriptedSource(values))
    c.dice_override = "manual"
    c.push(target.action)
    path = tmp_path / "log.json"
    c.save(path)
    again = load_encounter(EXAMPLES / "sengensyou/spellcard_duel.yaml").new_combat()
    again.dice_override = "manual"  # this terminal types every die (ikusa play --dice manual --load)
    again.restore(json.loads(path.read_text("utf-8")), source=str(path))
    assert isinstance(again.awaiting(), DiceRequest)
    type_all(again, values)
    assert _log(again) == _log(auto)


def test_fantasy_shows_the_hit_before_the_damage_dice() -> None:
    """fantasy ``events_so_far`` (issue #8 §5): while the damage dice are typed, the attack line
    (the hit) is already shown; once they are in, the events are those of software dice."""
    loaded = load_encounter(EXAMPLES / "fantasy/corridor_ambush.yaml")
    full = loaded.new_combat()
    pol = make_policy(loaded.module, "greedy")
    rng, dice = random.Random(5), RandomSource(5)
    c = loaded.new_combat()
    while not full.over:
        d = full.pending()
        assert d is not None
        events = full.push(pol.choose(full.state, d, rng), dice)
        entry = full.record[-1]
        if entry.action.startswith("attack") and any(e.kind == "damage" for e in events):
            break
        c.push(entry.action, ScriptedSource([v for v, _ in entry.dice]))
    else:
        pytest.fail("no attack hit in the greedy battle")
    c.dice_override = "manual"
    c.push(entry.action)
    rest = [v for v, _ in entry.dice]
    shown: list[str] = []
    while c.partial is not None:
        req = c.awaiting()
        assert isinstance(req, DiceRequest)
        if "ダメージ" in req.purpose:
            shown = [e.kind for e in c.partial_events]
        c.supply(rest[:req.count])
        del rest[:req.count]
    assert shown and shown[-1] == "attack"
    assert [e.text for e in c.events] == [e.text for e in full.events]


def test_a_ruling_that_voids_the_waiting_action_keeps_the_log_replayable(tmp_path: Path) -> None:
    """A ruling while an action waits for dice comes first; an action it makes illegal is put
    on the redo stack and the caller told why.  That notice is no entry's event, so the saved
    log loads to the same events (found by the table property test's rulings)."""
    c, target = _midway("maai/duel.yaml")
    assert target.action.startswith("use:")
    c.dice_override = "manual"
    c.push(target.action)
    assert c.partial is not None
    events = c.rule({"op": "set", "unit": target.actor, "resource": "vigor", "value": 0, "reason": "毒"})
    assert c.partial is None and c.redo_stack[-1].action == target.action
    assert events[-1].data == {"cancelled": target.action} and "取り消し" in events[-1].text
    path = tmp_path / "log.json"
    c.save(path)
    again = load_encounter(EXAMPLES / "maai/duel.yaml").new_combat()
    again.restore(json.loads(path.read_text("utf-8")))
    assert [e.text for e in again.events] == [e.text for e in c.events]
    assert again.redo_stack[-1].action == target.action
