"""Issue #8 core: control per unit, dice requests as explicit state (partial entries that
survive save/load), GM rulings as entries, honest undo/redo/reroll — on the toy game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ikusa.dice.source import RandomSource, ScriptedSource
from ikusa.engine.combat import Combat
from ikusa.engine.control import ControlTable, parse_control
from ikusa.engine.dice_request import DiceRequest
from ikusa.engine.errors import DiceError, InputError
from ikusa.engine.protocol import Decision
from ikusa.engine.record import entries_from_json
from tests.engine.toy import ToyState


def table(control: dict[str, object] | None = None, seed: int = 1) -> Combat:
    setup = {"system": "toy", **({"control": control} if control else {})}
    c = Combat("toy", setup, ToyState, parse_control(control, "<t>"))
    c.auto_dice = RandomSource(seed)
    return c


def test_control_defaults_per_side_overridden_per_unit() -> None:
    spec = parse_control({"default": {"dice": "manual"}, "sides": {"right": "ai:greedy"},
                          "units": {"b": {"dice": "auto"}}}, "<t>")
    t = ControlTable.build(spec, ToyState().roster())
    assert (t.of("a").controller, t.of("a").dice) == ("gm", "manual")
    assert (t.of("b").controller, t.of("b").dice) == ("ai:greedy", "auto")
    assert t.of("GM").dice == "manual"  # the GM inherits the default dice mode


@pytest.mark.parametrize(("raw", "field", "words"), [
    ({"units": {"c": "gm"}}, "control.units.c", "unknown unit 'c'"),
    ({"sides": {"lefty": "gm"}}, "control.sides.lefty", "did you mean left"),
    ({"units": {"a": {"dice": "manuel"}}}, "control.units.a.dice", "auto, manual, ask"),
    ({"units": {"a": "player:"}}, "control.units.a", "player:<name>"),
    ({"sidez": {}}, "control", "did you mean sides"),
])
def test_control_errors_name_the_field(raw: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(InputError) as err:
        Combat("toy", {}, ToyState, parse_control(raw, "enc.yaml"), source="enc.yaml")
    assert err.value.field == field and words in str(err.value)


def test_manual_roller_makes_an_explicit_dice_request_then_the_action_applies() -> None:
    c = table({"units": {"a": {"dice": "manual"}}})
    assert isinstance(c.awaiting(), Decision)
    assert c.push("attack") == []
    req = c.awaiting()
    assert isinstance(req, DiceRequest)
    assert (req.roller, req.count, req.sides, req.purpose) == ("a", 1, 6, "a attack")
    assert c.state.summary()["hp"] == {"a": 5, "b": 5} and c.record == []  # nothing applied yet
    with pytest.raises(DiceError, match="1..6"):
        c.supply([7])
    assert isinstance(c.awaiting(), DiceRequest)  # a bad entry never cancels the action
    events = c.supply([5], by="player:alice")
    assert [e.text for e in events] == ["a rolls 5"]
    assert c.record[0].to_json() == {"actor": "a", "action": "attack", "dice": [[5, 6, "player:alice"]]}


def test_auto_roller_never_waits() -> None:
    c = table({"units": {"a": {"dice": "manual"}}})
    c.push("wait")
    c.push("attack")  # b is on auto
    assert c.partial is None and len(c.record) == 2 and c.record[1].dice[0][1] == 6


def test_partial_entry_survives_save_and_load(tmp_path: Path) -> None:
    from tests.engine.test_table_support import reload

    c = table({"default": {"dice": "manual"}})
    c.push("attack")
    path = tmp_path / "log.json"
    c.save(path)
    data = json.loads(path.read_text("utf-8"))
    assert data["partial"]["action"] == "attack" and data["partial"]["waiting"]["roller"] == "a"
    d = reload(path)
    assert isinstance(d.awaiting(), DiceRequest)
    d.supply([6])
    assert d.state.summary()["hp"]["b"] == -1


def test_undo_keeps_the_dice_and_the_same_action_reuses_them() -> None:
    c = table()
    c.push("attack")
    first = c.record[0].dice
    c.undo()
    assert c.record == [] and len(c.redo_stack) == 1
    c.push("attack")
    assert c.record[0].dice == first and c.record[0].reused
    assert c.redo_stack == []


def test_a_different_action_draws_new_dice_and_logs_the_discarded_ones() -> None:
    c = table()
    c.push("attack")
    old = c.record[0].to_json()["dice"]
    c.undo()
    c.push("wait")
    assert c.record[0].discarded == [{"actor": "a", "action": "attack", "dice": old}]
    assert c.redo_stack == []


def test_redo_reapplies_with_the_same_dice() -> None:
    c = table()
    c.push("attack")
    c.push("attack")
    before = c.to_json()
    c.undo()
    c.undo()
    c.redo()
    c.redo()
    after = c.to_json()
    assert after["entries"] == before["entries"]
    with pytest.raises(InputError, match="nothing to redo"):
        c.redo()


def test_reroll_draws_new_dice_and_records_the_old() -> None:
    c = Combat("toy", {}, ToyState)
    c.auto_dice = ScriptedSource([2, 6])
    c.push("attack")
    c.reroll("GM: die fell off the table")
    e = c.record[0].to_json()
    assert e["dice"] == [[6, 6]]
    assert e["rerolled"] == {"dice": [[2, 6]], "by": "GM", "reason": "GM: die fell off the table"}


def test_undo_while_waiting_for_dice_cancels_only_that_action_and_keeps_typed_dice() -> None:
    c = table({"default": {"dice": "manual"}})
    c.push("wait")
    c.push("attack")  # b waits for dice
    entry = c.undo()
    assert entry.action == "attack" and [e.action for e in c.record] == ["wait"]
    assert isinstance(c.awaiting(), Decision)


def test_control_ruling_is_a_logged_entry_and_replays() -> None:
    c = table()
    c.rule({"op": "control", "unit": "a", "dice": "manual", "reason": "PL arrives"})
    assert c.record[0].to_json() == {"kind": "ruling", "actor": "GM",
                                     "ruling": {"op": "control", "unit": "a", "dice": "manual",
                                                "reason": "PL arrives"}, "dice": []}
    assert "理由: PL arrives" in c.events[-1].text
    c.push("attack")
    assert isinstance(c.awaiting(), DiceRequest)
    c.undo()  # cancels the waiting attack
    c.undo()  # undoes the control ruling
    assert c.control.of("a").dice == "auto"


def test_note_ruling_and_unsupported_op() -> None:
    c = table()
    c.rule({"op": "note", "text": "the oni is bluffing"})
    assert c.events[-1].kind == "note"
    with pytest.raises(InputError, match="not supported by the toy engine"):
        c.rule({"op": "set", "unit": "a", "resource": "hp", "value": 2})
    assert len(c.record) == 1


def test_old_log_format_loads() -> None:
    raw = [{"actor": "a", "action": "attack", "dice": [[5, 6]]}]
    c = Combat("toy", {}, ToyState)
    c.replay(entries_from_json(raw))
    assert c.state.summary()["hp"]["b"] == 0
