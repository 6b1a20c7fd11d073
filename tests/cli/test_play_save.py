"""``ikusa play``: autosave after every entry, quit and Ctrl-C never lose the combat (an
action waiting for typed dice included), ``--load`` resumes; the tracker boards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ikusa.cli.play as play_module
from ikusa.cli.main import app
from ikusa.engine.runner import load_encounter, load_log

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def _enc(tmp_path: Path, text: str = "system: toy\nhp: 9\n") -> Path:
    p = tmp_path / "enc.yaml"
    p.write_text(text, "utf-8")
    return p


@pytest.mark.usefixtures("toy_system")
def test_quit_at_a_dice_prompt_keeps_the_waiting_action_and_load_resumes_it(tmp_path: Path) -> None:
    enc = _enc(tmp_path)
    res = runner.invoke(app, ["play", str(enc), "--seed", "1", "--control", "default=manual"],
                        input="attack\n3\nattack\nquit\n")
    assert res.exit_code == 0, res.output
    auto = tmp_path / "enc.play.json"
    data = json.loads(auto.read_text("utf-8"))
    assert data["entries"] == [{"actor": "a", "action": "attack", "dice": [[3, 6, "GM"]]}]
    assert data["partial"]["action"] == "attack" and data["partial"]["waiting"]["roller"] == "b"
    res = runner.invoke(app, ["play", "--load", str(auto)], input="5\nquit\n")
    assert res.exit_code == 0, res.output
    assert "b rolls 5" in res.stdout
    resumed = load_log(auto)
    assert resumed.partial is None and [[v for v, _ in e.dice] for e in resumed.record] == [[3], [5]]
    assert resumed.state.summary()["hp"] == {"a": 4, "b": 9}


@pytest.mark.usefixtures("toy_system")
def test_ctrl_c_saves_and_exits_130(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter(["1", "1"])

    def ask(_prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr(play_module, "_ask_line", ask)
    save = tmp_path / "battle.json"
    res = runner.invoke(app, ["play", str(_enc(tmp_path)), "--seed", "4", "--save", str(save)])
    assert res.exit_code == 130
    assert "nothing is lost" in res.stdout
    assert [e["action"] for e in json.loads(save.read_text("utf-8"))["entries"]] == ["attack", "attack"]


@pytest.mark.usefixtures("toy_system")
def test_autosave_never_overwrites_the_encounter(tmp_path: Path) -> None:
    enc = _enc(tmp_path)
    res = runner.invoke(app, ["play", str(enc), "--save", str(enc)], input="quit\n")
    assert res.exit_code == 2 and "refusing to overwrite" in res.stderr


@pytest.mark.usefixtures("toy_system")
def test_control_flag_errors_name_the_side_or_unit(tmp_path: Path) -> None:
    res = runner.invoke(app, ["play", str(_enc(tmp_path)), "--control", "c=ai:greedy"], input="quit\n")
    assert res.exit_code == 2 and "no side or unit 'c'" in res.stderr
    res = runner.invoke(app, ["play", str(_enc(tmp_path)), "--control", "left=ai:clever"], input="quit\n")
    assert res.exit_code == 2 and "unknown AI policy 'clever'" in res.stderr


def test_maai_board_in_count_order_with_ties_and_next() -> None:
    from ikusa.systems.maai.board import board

    c = load_encounter(ROOT / "examples" / "maai" / "gaps.yaml").new_combat()
    b = board(c.state)
    rows = [(r["id"], r["count"], r["marks"]) for r in b["rows"]]
    assert [n for _, n, _ in rows] == sorted((n for _, n, _ in rows), reverse=True)
    assert rows[0][2] == ["next", "tie"] and rows[1][2] == ["tie"]  # 11 vs 11: S-G49 tie
    assert "tie" not in rows[-1][2]  # 式神 at 0 活力 does not tie
    assert dict(b["columns"])["wounds"] == "戦力" and dict(b["columns"])["defenceless"] == "無防備"
    # a count tie is decided by a side: the side's control applies
    assert c.control.of("味方").controller == "gm"


def test_sengensyou_and_fantasy_boards() -> None:
    from ikusa.systems.fantasy.board import board as fboard
    from ikusa.systems.sengensyou.board import board as sboard

    s = load_encounter(ROOT / "examples" / "sengensyou" / "spellcard_duel.yaml").new_combat()
    sb = sboard(s.state)
    assert [label for _, label in sb["columns"]][:7] == ["名前", "陣営", "列", "HP", "DP", "グレイズ", "霊力"]
    assert {r["id"]: r["row"] for r in sb["rows"]} == {"reimu": "前列", "marisa": "前列"}
    f = load_encounter(ROOT / "examples" / "fantasy" / "water_fight.yaml").new_combat()
    fb = fboard(f.state)
    assert fb["title"] == "戦闘開始前" and "水中" in fb["rows"][0]["conditions"]
    assert all({"formation", "hp", "conditions", "effects", "marks"} <= set(r) for r in fb["rows"])
