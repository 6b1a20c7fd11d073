"""End to end: `ikusa fight --json` is byte-identical per seed; save + load_log replays to the
same final state; undo restores the state; bad input names the rule or the file and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ikusa.dice.source import RandomSource, ScriptedSource
from ikusa.engine.errors import InputError, RuleViolation
from ikusa.engine.runner import fight, load_encounter, load_log

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = [ROOT / "examples/fantasy/corridor_ambush.yaml", ROOT / "examples/fantasy/water_fight.yaml",
            ROOT / "examples/fantasy/cliff_ledge.yaml"]


def _app() -> object:
    from ikusa.cli.main import app

    return app


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize("ai", ["greedy", "random"])
def test_fight_json_same_seed_same_bytes(path: Path, ai: str) -> None:
    runner = CliRunner()
    args = ["fight", str(path), "--seed", "7", "--json", "--ai", ai]
    a = runner.invoke(_app(), args)  # type: ignore[arg-type]
    b = runner.invoke(_app(), args)  # type: ignore[arg-type]
    assert a.exit_code == 0, a.output
    assert a.stdout == b.stdout
    out = json.loads(a.stdout)
    assert out["system"] == "fantasy" and out["final"]["round"] >= 1
    assert out["final"]["winner"] in ("party", "goblins", "undead", "ogres", None)
    assert all(e["rule"] and e["text"] for e in out["events"])


def test_corridor_ambush_shows_surprise_and_second_front() -> None:
    """The example plays the 002 features it is about: 潜伏/危険感知 and two fronts."""
    combat = fight(EXAMPLES[0], seed=1)
    kinds = [e.kind for e in combat.events]
    assert "stealth" in kinds and "detect" in kinds
    loaded = load_encounter(EXAMPLES[0])
    assert loaded.encounter.field().two_fronts


def test_water_fight_shows_water_rules() -> None:
    combat = fight(EXAMPLES[1], seed=3)
    texts = " ".join(e.text for e in combat.events)
    assert "水中 F-R17" in texts and any(e.kind == "drowning" for e in combat.events)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_save_and_replay_same_final_state(path: Path, tmp_path: Path) -> None:
    combat = fight(path, seed=11, ai="random")
    log = tmp_path / "log.json"
    combat.save(log)
    again = load_log(log)
    assert again.state.summary() == combat.state.summary()
    assert [e.to_json() for e in again.events] == [e.to_json() for e in combat.events]


def test_undo_restores_state() -> None:
    loaded = load_encounter(EXAMPLES[0])
    combat = loaded.new_combat()
    dice = RandomSource(4)
    combat.push("start", dice)
    before = json.dumps(combat.state.summary(), sort_keys=True)
    pending = combat.pending()
    assert pending is not None
    key = next(k for k in pending.keys() if k.startswith("attack")) if any(
        k.startswith("attack") for k in pending.keys()) else pending.keys()[0]
    combat.push(key, dice)
    combat.pop()
    assert json.dumps(combat.state.summary(), sort_keys=True) == before
    assert combat.pending() == pending


def test_illegal_action_names_rule_and_changes_nothing() -> None:
    loaded = load_encounter(EXAMPLES[1])
    combat = loaded.new_combat()
    combat.push("start", ScriptedSource([1, 2] * 4))
    actor = combat.pending().actor  # type: ignore[union-attr]
    assert actor == "ena"
    before = json.dumps(combat.state.summary(), sort_keys=True)
    with pytest.raises(RuleViolation) as rv:
        combat.push("attack:bow:d1", ScriptedSource([]))
    assert rv.value.rule == "F-R17" and "水中" in str(rv.value)
    assert json.dumps(combat.state.summary(), sort_keys=True) == before
    with pytest.raises(RuleViolation) as rv:
        combat.push("attack:bow:rolf", ScriptedSource([]))
    assert "味方" in rv.value.message


@pytest.mark.parametrize(("patch", "field", "words"), [
    ({"battlefield": "swamp"}, "battlefield", "unknown battlefield"),
    ({"environment": [{"id": "酸"}]}, "environment[0].id", "unknown condition"),
    ({"engagements": [["nobody.fore", "x.fore"]]}, "engagements[0][0]", "unknown unit"),
    ({"options": {"round_cap": 0}}, "options.round_cap", "greater than"),
])
def test_bad_input_names_file_and_field(tmp_path: Path, patch: dict[str, object], field: str, words: str) -> None:
    import yaml

    data = yaml.safe_load(EXAMPLES[1].read_text("utf-8"))
    data.update(patch)
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    with pytest.raises(InputError) as exc:
        load_encounter(bad)
    assert exc.value.source == str(bad) and exc.value.field == field and words in exc.value.message
    res = CliRunner().invoke(_app(), ["fight", str(bad)])  # type: ignore[arg-type]
    assert res.exit_code == 2 and field in res.stderr and "Traceback" not in res.output
