"""QA regressions: the encounter's ``system`` key and ``ikusa sim --set`` (engine/encounter,
engine/runner, lab/simulate): errors name the file and field, exit code 2, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ikusa.cli.main import app

runner = CliRunner()

pytestmark = pytest.mark.usefixtures("toy_system")


def _enc(tmp_path: Path, text: str = "system: toy\nhp: 6\n") -> Path:
    p = tmp_path / "enc.yaml"
    p.write_text(text, "utf-8")
    return p


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("system: nosuch\n", "unknown system 'nosuch'"),
        ("system: 5\n", "must be a system name"),
        ("system: DiceBot\n", "plain dice bot"),
    ],
)
def test_bad_system_names_the_file(tmp_path: Path, text: str, problem: str) -> None:
    """Was: 'system: unknown system …' without the file; ``system: 5`` said 'missing'."""
    enc = _enc(tmp_path, text)
    res = runner.invoke(app, ["fight", str(enc)])
    assert res.exit_code == 2
    assert f"{enc}:system:" in res.stderr and problem in res.stderr


def test_sim_set_with_malformed_yaml_value_is_an_input_error(tmp_path: Path) -> None:
    """Was: a yaml.ParserError traceback from ``--set 'hp=[unclosed'``."""
    res = runner.invoke(app, ["sim", str(_enc(tmp_path)), "-n", "2", "--set", "hp=[unclosed"])
    assert res.exit_code == 2
    assert "--set" in res.stderr and "not valid YAML" in res.stderr


def test_sim_set_cannot_touch_system(tmp_path: Path) -> None:
    res = runner.invoke(app, ["sim", str(_enc(tmp_path)), "-n", "2", "--set", "system=maai"])
    assert res.exit_code == 2 and "--set" in res.stderr and "'system'" in res.stderr


@pytest.mark.parametrize(("name", "text"), [
    ("enc.json", '{"system": "toy", "hp": 2}'),
    ("enc.toml", 'system = "toy"\nhp = 2\n'),
    ("enc.yaml", "system: toy\nhp: 2\n"),
])
def test_encounter_with_byte_order_mark(tmp_path: Path, name: str, text: str) -> None:
    """Was: a UTF-8 BOM (Notepad) made JSON/TOML encounters 'malformed'."""
    p = tmp_path / name
    p.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    res = runner.invoke(app, ["fight", str(p), "--seed", "1"])
    assert res.exit_code == 0, res.output


def test_batch_with_byte_order_mark(tmp_path: Path) -> None:
    p = tmp_path / "b.jsonl"
    p.write_bytes(b'\xef\xbb\xbf{"command": "1D6", "dice": [2]}\n')
    res = runner.invoke(app, ["roll", "--batch", str(p)])
    assert '"text":"(1D6) ＞ 2"' in res.stdout


@pytest.mark.parametrize("name", ["deep.json", "deep.yaml"])
def test_deeply_nested_file_is_an_input_error(tmp_path: Path, name: str) -> None:
    """Was: a RecursionError traceback from the JSON/YAML parser."""
    p = tmp_path / name
    p.write_text('{"system": "toy", "x": ' + "[" * 3_000 + "]" * 3_000 + "}", "utf-8")
    res = runner.invoke(app, ["fight", str(p)])
    assert res.exit_code == 2 and "nested too deeply" in res.stderr


def test_deeply_nested_batch_line_is_an_error_line(tmp_path: Path) -> None:
    p = tmp_path / "b.jsonl"
    p.write_text('{"command": ' + "[" * 3_000 + "]" * 3_000 + "}\n", "utf-8")
    res = runner.invoke(app, ["roll", "--batch", str(p)])
    assert res.exit_code == 0 and '"error":"line: not a batch line: nested too deeply"' in res.stdout


def test_sim_absurd_battle_count_is_refused(tmp_path: Path) -> None:
    """Was: ``-n 99999999999999999999`` was accepted and ran (practically) forever."""
    res = runner.invoke(app, ["sim", str(_enc(tmp_path)), "-n", "99999999999999999999"])
    assert res.exit_code == 2 and "--battles" in res.stderr and "at most 1,000,000" in res.stderr


@pytest.mark.parametrize("value", ["{}", "''", "0", "false"])
def test_script_of_the_wrong_type_is_refused(tmp_path: Path, value: str) -> None:
    """Was: an empty mapping/string/0 as ``script`` passed silently as 'no script'."""
    res = runner.invoke(app, ["fight", str(_enc(tmp_path, f"system: toy\nscript: {value}\n"))])
    assert res.exit_code == 2 and ":script:" in res.stderr


def test_script_null_or_empty_list_is_no_script(tmp_path: Path) -> None:
    for value in ("null", "[]"):
        res = runner.invoke(app, ["fight", str(_enc(tmp_path, f"system: toy\nscript: {value}\n")), "--seed", "1"])
        assert res.exit_code == 0, res.output
