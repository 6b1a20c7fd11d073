"""The generic `ikusa fight` / `ikusa play` drivers and encounter reading, on a toy system."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ikusa.cli.main import app
from ikusa.cli.play import PlaySession
from ikusa.dice.source import RandomSource
from ikusa.engine.errors import InputError
from ikusa.engine.runner import fight, load_encounter, load_log

runner = CliRunner()


pytestmark = pytest.mark.usefixtures("toy_system")


def write(tmp_path: Path, text: str, name: str = "enc.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, "utf-8")
    return p


def test_fight_json_same_seed_byte_identical(tmp_path: Path) -> None:
    enc = write(tmp_path, "system: toy\nhp: 12\n")
    a = runner.invoke(app, ["fight", str(enc), "--seed", "5", "--json"])
    b = runner.invoke(app, ["fight", str(enc), "--seed", "5", "--json"])
    assert a.exit_code == 0, a.output
    assert a.stdout == b.stdout
    data = json.loads(a.stdout)
    assert data["final"]["winner"] in ("a", "b")
    assert all({"kind", "rule", "text", "data"} <= set(e) for e in data["events"])


def test_script_then_ai_and_saved_log_replays(tmp_path: Path) -> None:
    enc = write(tmp_path, "system: toy\nhp: 4\nscript:\n  - {action: wait}\n  - {action: attack, dice: [6]}\n")
    c = fight(enc, seed=1)
    assert c.record[0].action == "wait" and c.record[1].dice == [(6, 6)]
    assert c.state.summary()["winner"] == "b"
    log = tmp_path / "log.json"
    c.save(log)
    assert load_log(log).state.summary() == c.state.summary()


@pytest.mark.parametrize(
    ("text", "field", "problem"),
    [
        ("hp: 3\n", "system", "missing 'system'"),
        ("system: toy\nhp: 0\n", "hp", "greater than or equal to 1"),
        ("system: toy\nhpp: 3\n", "hpp", "Extra inputs"),
        ("system: nosuch\n", "system", "unknown system"),
        ("system: toy\nscript: [{dice: [1]}]\n", "script[0]", "action"),
        ("system: toy\n  hp: [\n", "", "malformed YAML"),
    ],
)
def test_bad_encounter_names_file_field_problem(tmp_path: Path, text: str, field: str, problem: str) -> None:
    enc = write(tmp_path, text)
    with pytest.raises(InputError) as err:
        load_encounter(enc)
    assert field in str(err.value) and problem in str(err.value)
    res = runner.invoke(app, ["fight", str(enc)])
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_scripted_illegal_step_is_clear_error(tmp_path: Path) -> None:
    enc = write(tmp_path, "system: toy\nscript: [fly]\n")
    res = runner.invoke(app, ["fight", str(enc)])
    assert res.exit_code == 2
    assert "script[0]" in res.stderr and "T-R01" in res.stderr


def test_play_session_choose_undo_manual_dice_save(tmp_path: Path) -> None:
    loaded = load_encounter(write(tmp_path, "system: toy\nhp: 3\n"))
    combat = loaded.new_combat()
    lines = iter(["2", "attack", "undo", "dice manual", "1", "9", "4", "fly",
                  f"save {tmp_path / 's.json'}", "quit"])
    session = PlaySession(combat, RandomSource(0), manual=False, ask=lambda _p: next(lines))
    session.run()
    # a waits; b attacks (auto die) but is undone; manual: b attacks, 9 rejected, 4 typed
    assert [(e.actor, e.action) for e in combat.record] == [("a", "wait"), ("b", "attack")]
    assert combat.record[1].dice == [(4, 6)]
    assert combat.state.summary() == {"hp": {"a": -1, "b": 3}, "winner": "b"}
    saved = json.loads((tmp_path / "s.json").read_text("utf-8"))
    assert [e["action"] for e in saved["entries"]] == ["wait", "attack"]


def test_play_cli_runs_to_end_with_typed_input(tmp_path: Path) -> None:
    enc = write(tmp_path, "system: toy\nhp: 1\n")
    res = runner.invoke(app, ["play", str(enc), "--dice", "manual"], input="1\n6\nquit\n")
    assert res.exit_code == 0, res.output
    assert "終了" in res.output


def test_play_filters_options_and_refuses_unknown_key_with_rule(tmp_path: Path) -> None:
    loaded = load_encounter(write(tmp_path, "system: toy\nhp: 3\n"))
    combat = loaded.new_combat()
    lines = iter(["att", "fly", "wait", "quit"])
    session = PlaySession(combat, RandomSource(0), manual=False, ask=lambda _p: next(lines))
    session.run()
    # 'att' only filtered (nothing applied), 'fly' was refused, 'wait' applied
    assert [e.action for e in combat.record] == ["wait"]


def test_ai_policy_names_are_case_insensitive(tmp_path: Path) -> None:
    enc = write(tmp_path, "system: toy\nhp: 2\n")
    assert runner.invoke(app, ["fight", str(enc), "--ai", "Greedy"]).exit_code == 0
    bad = runner.invoke(app, ["fight", str(enc), "--ai", "smart"])
    assert bad.exit_code == 2 and "known: greedy, random" in bad.stderr
