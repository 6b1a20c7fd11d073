"""The systems' rulings through the core's Combat (issue #8): each a logged GM entry, refused
ones leave no entry, undo/redo and a saved log reproduce the state byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ikusa.dice.source import RandomSource
from ikusa.engine.errors import InputError
from ikusa.engine.runner import load_encounter, load_log
from tests.systems.ruling_driver import ROOT

CASES = {
    "maai": ("examples/maai/duel.yaml", [
        {"op": "effect", "unit": "yagyu", "effect": {"name": "隙", "modifiers": {"防備": -2},
                                                       "duration": {"clock": "maai", "n": 1}}, "reason": "体勢"},
        {"op": "set", "unit": "genzaburo", "resource": "活力", "value": 8, "reason": "疲労"},
        {"op": "modifier", "unit": "genzaburo", "value": 2}]),
    "sengensyou": ("examples/sengensyou/spellcard_duel.yaml", [
        {"op": "effect", "unit": "marisa", "effect": {"name": "祝福", "modifiers": {"回避": 2},
                                                        "duration": {"clock": "turn", "n": 1}}},
        {"op": "set", "unit": "reimu", "resource": "グレイズ", "value": 3, "reason": "前の弾幕"},
        {"op": "modifier", "unit": "reimu", "value": 1}]),
    "fantasy": ("examples/fantasy/corridor_ambush.yaml", [
        {"op": "effect", "unit": "g1", "effect": {"name": "祝福", "modifiers": {"命中": 1},
                                                    "duration": {"clock": "round", "n": 1}}},
        {"op": "set", "unit": "lina", "resource": "HP", "value": 9, "reason": "罠"},
        {"op": "condition", "unit": "gunnar", "name": "伏せ"}]),
}


@pytest.mark.parametrize("system", sorted(CASES))
def test_rulings_are_entries_that_undo_redo_save_and_load(system: str, tmp_path: Path) -> None:
    path, rulings = CASES[system]
    c = load_encounter(str(ROOT / path)).new_combat()
    c.auto_dice = RandomSource(3)
    for r in rulings:
        c.rule(r)
    with pytest.raises(InputError):
        c.rule({"op": "set", "unit": "nobody", "resource": "hp", "value": 1})
    assert [e.to_json()["kind"] for e in c.record] == ["ruling"] * len(rulings)
    assert all(e.to_json()["actor"] == "GM" for e in c.record)
    for _ in range(25):
        d = c.pending()
        if d is None:
            break
        c.push(d.options[0].key)
    summary = json.dumps(c.state.summary(), ensure_ascii=False, sort_keys=True)
    events = [e.to_json() for e in c.events]
    assert any(e["kind"] == "ruling" for e in events)
    c.save(tmp_path / "log.json")
    again = load_log(tmp_path / "log.json")
    assert json.dumps(again.state.summary(), ensure_ascii=False, sort_keys=True) == summary
    assert [e.to_json() for e in again.events] == events
    # undo back past the last ruling and redo: the same state
    n = len(c.record)
    while len(c.record) > len(rulings) - 1:
        c.undo()
    while len(c.record) < n:
        c.redo()
    assert json.dumps(c.state.summary(), ensure_ascii=False, sort_keys=True) == summary
