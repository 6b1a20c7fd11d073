"""`ikusa odds SYSTEM COMMAND [--fate N] [--json]` (issue #2 §4)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from ikusa.cli.main import app

runner = CliRunner()


def test_json_exact_fractions() -> None:
    res = runner.invoke(app, ["odds", "maai", "2D10+3>=11", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert (data["success"], data["critical"], data["fumble"], data["tenmei"], data["gouhou"]) == (
        "79/100", "7/100", "3/100", "1/100", "1/100")


def test_json_with_fate() -> None:
    res = runner.invoke(app, ["odds", "maai", "2D10+3>=11", "--fate", "1", "--json"])
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert data["fate"] == 1 and data["success"] == "17/20" and data["without_fate"]["success"] == "79/100"


def test_terminal_tables() -> None:
    res = runner.invoke(app, ["odds", "maai", "2D10+3>=11"])
    assert res.exit_code == 0
    assert "79% (79/100)" in res.stdout and "TN11" in res.stdout
    res = runner.invoke(app, ["odds", "Sengensyou", "DP3+7>=12"])
    assert res.exit_code == 0 and "53/54" in res.stdout
    res = runner.invoke(app, ["odds", "fantasy", "2D6+5>=12", "--json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["success"] == "7/12"


def test_bad_input_is_one_line_exit_2() -> None:
    for args in (
        ["odds", "maai", "1D6"],
        ["odds", "nosuch", "2D10>=11"],
        ["odds", "maai", "2D10>=11", "--fate", "-1"],
        ["odds", "fantasy", "2D6>=7", "--fate", "1"],
        ["odds", "sengensyou", "DP99"],
    ):
        res = runner.invoke(app, args)
        assert res.exit_code == 2, args
        lines = [line for line in res.output.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error:"), res.output
        assert "Traceback" not in res.output
