"""Same seed → byte-identical `ikusa fight --json`; a saved log replays to the same state;
undo (Combat.pop) restores the previous state."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from ikusa.cli.main import app
from ikusa.dice.source import RandomSource, ScriptedSource
from ikusa.engine.runner import load_encounter, load_log, policy_for, run_ai
from tests.systems.sengensyou.helpers import char, combat, fi, push, start_turn

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "sengensyou"


def test_fight_json_is_byte_identical_for_the_same_seed() -> None:
    runner = CliRunner()
    for name in ("spellcard_duel", "party_battle"):
        path = str(EXAMPLES / f"{name}.yaml")
        a = runner.invoke(app, ["fight", path, "--seed", "7", "--json"])
        b = runner.invoke(app, ["fight", path, "--seed", "7", "--json"])
        assert a.exit_code == 0, a.output
        assert a.output == b.output
        data = json.loads(a.output)
        assert data["final"]["winner"] in ("reimu_side", "marisa_side", "heroes", "scarlet", None)
        assert data["events"][-1]["kind"] == "scene_end"
        c = runner.invoke(app, ["fight", path, "--seed", "8", "--json", "--ai", "random"])
        assert c.exit_code == 0 and c.output != a.output


def test_fight_narrates_in_japanese() -> None:
    res = CliRunner().invoke(app, ["fight", str(EXAMPLES / "party_battle.yaml"), "--seed", "3"])
    assert res.exit_code == 0, res.output
    assert "イニシアティブ" in res.output and "G-R10" in res.output and "結果" in res.output


def test_saved_log_replays_to_the_same_state(tmp_path: Path) -> None:
    loaded = load_encounter(EXAMPLES / "party_battle.yaml")
    for seed in (1, 2, 3):
        c = loaded.new_combat()
        run_ai(c, policy_for(loaded.module, "random"), random.Random(seed), RandomSource(seed))
        path = tmp_path / f"log{seed}.json"
        c.save(path)
        again = load_log(path)
        assert again.state.summary() == c.state.summary()
        assert [e.to_json() for e in again.events] == [e.to_json() for e in c.events]


def test_undo_restores_the_previous_state() -> None:
    c = combat([char("a", "x", skills={"ショット": 1}, abilities={"魔法": 2}), char("b", "y")])
    start_turn(c, declare={"a": 19, "b": 0})
    before = c.state.summary()
    push(c, "shot:b:2:magic", [3, 3])
    push(c, "evade:3", [6, 6, 6])
    assert fi(c, "b").dp == 16
    c.pop()
    c.pop()
    assert c.state.summary() == before and c.pending().kind == "action"  # type: ignore[union-attr]
    c.push("shot:b:2:magic", ScriptedSource([6, 6]))
    assert fi(c, "a").dp == 17


def _cli_error(tmp_path: Path, body: str) -> str:
    path = tmp_path / "bad.yaml"
    path.write_text(body, "utf-8")
    res = CliRunner().invoke(app, ["fight", str(path), "--seed", "1"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    return res.output + (res.stderr if res.stderr_bytes is not None else "")


ROWS_BAD = """system: sengensyou
characters:
  - {id: a, name: A, side: x, row: back, stats: {身体: 3, 耐久: 3, 知性: 3, 感覚: 3, 意志: 3}}
  - {id: b, name: B, side: y, stats: {身体: 3, 耐久: 3, 知性: 3, 感覚: 3, 意志: 3}}
"""

NO_DP = """system: sengensyou
script:
  - declare:19
  - declare:0
  - {action: "shot:b:0:magic"}
characters:
  - {id: a, name: A, side: x, skills: {ショット: 1}, abilities: {魔法: 2},
     stats: {身体: 3, 耐久: 3, 知性: 3, 感覚: 3, 意志: 3}}
  - {id: b, name: B, side: y, stats: {身体: 3, 耐久: 3, 知性: 3, 感覚: 3, 意志: 3}}
"""


def test_cli_reports_rule_errors_without_traceback(tmp_path: Path) -> None:
    """Bad input names the rule: the row rule (G-R10), an action without DP (G-R03), an
    unknown skill (file + field)."""
    assert "G-R10" in _cli_error(tmp_path, ROWS_BAD)
    out = _cli_error(tmp_path, NO_DP)
    assert "script[2]" in out and "G-R03" in out
    out = _cli_error(tmp_path, ROWS_BAD.replace("row: back, ", "skills: {飛翔: 2}, "))
    assert "characters.0.skills" in out or "characters[0].skills.飛翔" in out
