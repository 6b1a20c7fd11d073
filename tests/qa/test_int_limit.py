"""#13 (fuzzing): integers longer than Python converts (4,300 digits) and YAML control
characters give one error line naming the file and the field; a batch goes on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ikusa.cli.main import app
from ikusa.engine.errors import InputError
from ikusa.engine.runner import load_encounter, load_log

BIG = "9" * 5000
runner = CliRunner()


@pytest.mark.parametrize(("name", "text", "field"), [
    ("e.yaml", f"system: maai\nunits:\n  - id: a\n    vigor: {BIG}\n", "units[0].vigor"),
    ("e.json", f'{{"system": "maai", "units": [{{"id": "a", "vigor": {BIG}}}]}}', "units[0].vigor"),
    ("e.toml", f'system = "maai"\n[options.vigor]\nbase_max = {BIG}\n', "options.vigor.base_max"),
])
def test_encounter_with_a_huge_integer_names_file_and_field(tmp_path: Path, name: str, text: str,
                                                            field: str) -> None:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    with pytest.raises(InputError) as err:
        load_encounter(path)
    assert err.value.source == str(path) and err.value.field == field
    assert "5,000 digits" in str(err.value) and "\n" not in str(err.value)


def test_saved_log_with_a_huge_die_names_the_entry(tmp_path: Path) -> None:
    path = tmp_path / "log.json"
    path.write_text('{"format": "ikusa-log/1", "system": "maai", "setup": {}, '
                    f'"entries": [{{"action": "x", "dice": [[{BIG}, 10]]}}]}}', "utf-8")
    with pytest.raises(InputError) as err:
        load_log(path)
    assert err.value.field == "entries[0].dice[0][0]"
    r = runner.invoke(app, ["play", "--load", str(path)])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.stderr.count("\n") == 1 and "entries[0].dice[0][0]" in r.stderr


def test_batch_line_with_a_huge_integer_is_an_error_line_and_the_batch_goes_on(tmp_path: Path) -> None:
    f = tmp_path / "b.jsonl"
    f.write_text(f'{{"command": "2D6", "dice": [{BIG}]}}\n{{"command": "2D6", "dice": [1, 2]}}\n', "utf-8")
    r = runner.invoke(app, ["roll", "--batch", str(f)])
    assert r.exit_code == 0, r.output
    first, second = (json.loads(x) for x in r.stdout.splitlines())
    assert first["line"] == 1 and first["error"].startswith("dice[0]: ") and "5,000 digits" in first["error"]
    assert second["text"] == "(2D6) ＞ 3[1,2] ＞ 3"


def test_yaml_with_nul_bytes_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "nul.yaml"
    path.write_bytes(b"system: maai\nunits: []\x00\n")
    with pytest.raises(InputError) as err:
        load_encounter(path)
    assert str(err.value) == f"{path}: malformed YAML: line 2, column 10: character #x0000 is not allowed"
