"""`ikusa roll` (issue #2 §4): text, --json shape, --dice scripting, --batch, errors."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ikusa.cli.main import app

runner = CliRunner()
KEYS = ["text", "success", "failure", "critical", "fumble", "secret", "dice"]


def test_text_with_scripted_dice() -> None:
    r = runner.invoke(app, ["roll", "--dice", "3,4", "2D6>=7"])
    assert r.exit_code == 0
    assert r.stdout == "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功\n"


def test_json_shape() -> None:
    r = runner.invoke(app, ["roll", "--json", "--dice", "6 1", "S2D6>=8"])
    assert r.exit_code == 0
    obj = json.loads(r.stdout)
    assert list(obj) == KEYS
    assert obj == {
        "text": "(2D6>=8) ＞ 7[6,1] ＞ 7 ＞ 失敗",
        "success": False,
        "failure": True,
        "critical": False,
        "fumble": False,
        "secret": True,
        "dice": [[6, 6], [1, 6]],
    }


def test_dicebot_system_id_is_case_insensitive() -> None:
    r = runner.invoke(app, ["roll", "--system", "dicebot", "--dice", "2", "choice[a,b]"])
    assert r.exit_code == 0
    assert r.stdout == "(choice[a,b]) ＞ b\n"


def test_not_a_command_prints_nothing() -> None:
    r = runner.invoke(app, ["roll", "こんにちは"])
    assert r.exit_code == 0
    assert r.stdout == ""
    r = runner.invoke(app, ["roll", "--json", "hello"])
    assert json.loads(r.stdout)["text"] == ""


def test_seed_is_reproducible() -> None:
    a = runner.invoke(app, ["roll", "--seed", "7", "10D6"])
    b = runner.invoke(app, ["roll", "--seed", "7", "10D6"])
    assert a.exit_code == 0
    assert a.stdout == b.stdout
    assert a.stdout.startswith("(10D6) ＞ ")


def test_too_few_scripted_dice_is_an_error() -> None:
    r = runner.invoke(app, ["roll", "--dice", "3", "2D6"])
    assert r.exit_code == 2
    assert "ran out" in r.stderr
    assert r.stdout == ""


def test_scripted_die_out_of_range_is_an_error() -> None:
    r = runner.invoke(app, ["roll", "--dice", "7,1", "2D6"])
    assert r.exit_code == 2
    assert "outside 1..6" in r.stderr


def test_unused_scripted_dice_are_an_error() -> None:
    r = runner.invoke(app, ["roll", "--dice", "3,4,5", "2D6"])
    assert r.exit_code == 2
    assert "1 scripted dice left unused" in r.stderr


def test_limits_are_clear_errors() -> None:
    """Over BCDice's per-roll limits BCDice answers (issue #10); over the 10,000-dice budget
    of a command it is one clear error line."""
    for cmd, out in (("201D6", "(201D6) ＞ 0"), ("1D10001", "(1D10001) ＞ 0"),
                     ("x101 1D6", "繰り返し回数は1以上、100以下としてください")):
        r = runner.invoke(app, ["roll", cmd])
        assert r.exit_code == 0 and r.stdout == out + "\n", cmd
    r = runner.invoke(app, ["roll", "x100 101D6"])
    assert r.exit_code == 2 and "at most 10000" in r.stderr
    assert "Traceback" not in r.stderr + r.stdout


def test_unknown_system_is_an_error() -> None:
    r = runner.invoke(app, ["roll", "--system", "nosuch", "2D6"])
    assert r.exit_code == 2
    assert "unknown system" in r.stderr


def test_batch_goes_on_after_a_failing_line(tmp_path: Path) -> None:
    f = tmp_path / "rolls.jsonl"
    f.write_text(
        "\n".join(
            [
                json.dumps({"command": "2D6>=7", "dice": [3, 4]}),
                json.dumps({"command": "2D6", "dice": [9, 1]}),
                "{not json",
                "",
                json.dumps({"system": "DiceBot", "command": "hello"}),
                json.dumps({"system": "nosuch", "command": "1D6"}),
                json.dumps({"command": "5B6>=4", "dice": [1, 4, 5, 2, 6]}),
            ]
        ),
        encoding="utf-8",
    )
    r = runner.invoke(app, ["roll", "--batch", str(f)])
    assert r.exit_code == 0
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(lines) == 6
    assert lines[0]["text"] == "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功" and lines[0]["success"] is True
    assert lines[1] == {"error": "scripted die #1 is 9, outside 1..6 of a d6", "line": 2}
    assert lines[2]["line"] == 3 and "not JSON" in lines[2]["error"]
    assert list(lines[3]) == KEYS and lines[3]["text"] == ""
    assert lines[4]["line"] == 6 and "unknown system" in lines[4]["error"]
    assert lines[5]["text"] == "(5B6>=4) ＞ 1,4,5,2,6 ＞ 成功数3"


def test_batch_from_stdin_with_seed() -> None:
    data = json.dumps({"command": "3D6"}) + "\n" + json.dumps({"command": "x2 1D6"}) + "\n"
    a = runner.invoke(app, ["roll", "--batch", "-", "--seed", "3"], input=data)
    b = runner.invoke(app, ["roll", "--batch", "-", "--seed", "3"], input=data)
    assert a.exit_code == 0
    assert a.stdout == b.stdout
    first, second = (json.loads(x) for x in a.stdout.splitlines())
    assert len(first["dice"]) == 3 and len(second["dice"]) == 2


def test_batch_and_command_together_is_an_error() -> None:
    r = runner.invoke(app, ["roll", "--batch", "-", "2D6"])
    assert r.exit_code == 2


def test_missing_batch_file_is_an_error(tmp_path: Path) -> None:
    r = runner.invoke(app, ["roll", "--batch", str(tmp_path / "none.jsonl")])
    assert r.exit_code == 2
    assert "cannot read" in r.stderr


def test_no_command_is_an_error() -> None:
    r = runner.invoke(app, ["roll"])
    assert r.exit_code == 2
