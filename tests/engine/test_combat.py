"""The event-sourced combat record: push, refusal without change, undo, save and replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ikusa.dice.source import DiceError, RandomSource, ScriptedSource
from ikusa.engine.combat import Combat, entries_from_json
from ikusa.engine.errors import RuleViolation
from tests.engine.toy import ToyState


def new() -> Combat:
    return Combat("toy", {"system": "toy"}, ToyState)


def test_push_records_dice_and_events() -> None:
    c = new()
    c.push("attack", ScriptedSource([5]))
    assert c.record[0].dice == [(5, 6)]
    assert c.state.summary()["hp"] == {"a": 5, "b": 0}
    assert c.over and c.state.summary()["winner"] == "a"


def test_illegal_action_names_rule_and_changes_nothing() -> None:
    c = new()
    c.push("wait", ScriptedSource([]))
    before = json.dumps(c.to_json())
    with pytest.raises(RuleViolation, match=r"T-R01 \(toy §1\)"):
        c.push("fly", ScriptedSource([]))
    assert json.dumps(c.to_json()) == before
    assert c.pending() is not None and c.pending().actor == "b"  # type: ignore[union-attr]


def test_dice_failure_mid_action_changes_nothing() -> None:
    c = new()
    with pytest.raises(DiceError):
        c.push("attack", ScriptedSource([]))
    assert c.record == [] and c.state.summary()["hp"] == {"a": 5, "b": 5}


def test_pop_undoes_last_decision() -> None:
    c = new()
    c.push("attack", ScriptedSource([2]))
    c.push("attack", ScriptedSource([4]))
    assert c.state.summary()["hp"]["a"] == 1
    entry = c.pop()
    assert entry.action == "attack" and entry.dice == [(4, 6)]
    assert c.state.summary()["hp"] == {"a": 5, "b": 5}
    assert len(c.events) == 1


def test_save_and_replay_reproduce_state(tmp_path: Path) -> None:
    c = new()
    src = RandomSource(3)
    while not c.over:
        c.push("attack", src)
    path = tmp_path / "log.json"
    c.save(path)
    data = json.loads(path.read_text("utf-8"))
    d = new()
    d.replay(entries_from_json(data["entries"]))
    assert d.state.summary() == c.state.summary()
    assert [e.to_json() for e in d.events] == [e.to_json() for e in c.events]


def test_replay_with_unused_dice_is_refused() -> None:
    d = new()
    entries = entries_from_json([{"actor": "a", "action": "wait", "dice": [[3, 6]]}])
    with pytest.raises(DiceError, match="unused"):
        d.replay(entries)
