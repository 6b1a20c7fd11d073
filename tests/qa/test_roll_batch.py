"""QA regressions for `ikusa roll` (cli/roll.py): batch files with garbage lines never stop
the batch or print a traceback; a non-command tells a person why nothing was rolled."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ikusa.cli.main import app

runner = CliRunner()


def test_batch_line_not_utf8_is_an_error_line_and_the_batch_goes_on(tmp_path: Path) -> None:
    """Was: UnicodeDecodeError traceback (exit 1) and no output at all."""
    f = tmp_path / "b.jsonl"
    f.write_bytes(b'{"command": "2D6", "dice": [1, 2]}\n\xff\xfe garbage\n{"command": "1D6", "dice": [4]}\n')
    r = runner.invoke(app, ["roll", "--batch", str(f)])
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert lines[0]["text"] == "(2D6) ＞ 3[1,2] ＞ 3"
    assert lines[1] == {"error": "line: not UTF-8 text", "line": 2}
    assert lines[2]["text"] == "(1D6) ＞ 4"


def test_batch_from_stdin_bytes() -> None:
    r = runner.invoke(app, ["roll", "--batch", "-"], input='{"command": "1D6", "dice": [6]}\n')
    assert r.exit_code == 0 and json.loads(r.stdout)["text"] == "(1D6) ＞ 6"


def test_batch_unknown_key_is_an_error_line(tmp_path: Path) -> None:
    """Was: ``{"command": "2D6", "dcie": [1, 1]}`` rolled random dice, ignoring the typo."""
    f = tmp_path / "b.jsonl"
    f.write_text(json.dumps({"command": "2D6", "dcie": [1, 1]}) + "\n", "utf-8")
    r = runner.invoke(app, ["roll", "--batch", str(f)])
    (line,) = [json.loads(x) for x in r.stdout.splitlines()]
    assert line["line"] == 1 and "unknown key(s) ['dcie']" in line["error"]


def test_non_command_hint_on_stderr_only() -> None:
    r = runner.invoke(app, ["roll", "--system", "maai", "hello"])
    assert r.exit_code == 0
    assert r.stdout == ""
    assert "not a dice command for maai: 'hello'" in r.stderr
    r = runner.invoke(app, ["roll", "--json", "hello"])
    assert r.stderr == "" and json.loads(r.stdout)["text"] == ""


def test_system_notes_reach_a_person_on_stderr() -> None:
    """Was: S-G01 (even TN) and S-R07 (clamp) notes lived only in the Python ``extra``;
    a GM at the terminal never saw them.  stdout keeps BCDice's exact text."""
    r = runner.invoke(app, ["roll", "--system", "maai", "2D10+3>=12", "--dice", "3,10"])
    assert r.exit_code == 0
    assert r.stdout == "(2D10+3>=12) ＞ 13[3,10]+3 ＞ 16 ＞ 成功\n"
    assert "note: S-G01: TN 12 is even" in r.stderr
    r = runner.invoke(app, ["roll", "--system", "maai", "2D10+3>=11", "--dice", "3,10"])
    assert r.stderr == ""
