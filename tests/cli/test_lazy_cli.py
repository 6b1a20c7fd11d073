"""The command line imports only what the command it runs needs (issue #12, start-up):
``ikusa roll`` never loads rich, pydantic or the rules engines; every command of
``ikusa.cli.main.COMMANDS`` is still listed, built and reachable."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from ikusa.cli.main import COMMANDS, app

runner = CliRunner()

_PROBE = """
import json, sys
from ikusa.cli.main import app
try:
    app(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""


def _modules_after(*argv: str) -> tuple[str, list[str]]:
    proc = subprocess.run([sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, check=True)
    out, _, mods = proc.stdout.rstrip("\n").rpartition("\n")
    return out, json.loads(mods)


@pytest.mark.parametrize("argv", [("roll", "--seed", "1", "2D6>=7"),
                                  ("roll", "--system", "maai", "--dice", "7,7", "2D10+3>=11")])
def test_roll_loads_no_rich_no_pydantic_no_engine(argv: tuple[str, ...]) -> None:
    out, mods = _modules_after(*argv)
    assert "＞" in out
    heavy = [m for m in mods if m.split(".")[0] in ("rich", "pydantic", "yaml", "fastapi", "numpy")
             or m.startswith(("ikusa.engine.combat", "ikusa.engine.runner", "ikusa.cli.fight",
                              "ikusa.systems.maai.state", "ikusa.systems.fantasy", "ikusa.lab"))]
    assert heavy == []
    if "--system" not in argv:  # the plain dice bot does not even load the engine's protocols
        assert "ikusa.engine.protocol" not in mods


def test_odds_loads_no_engine() -> None:
    out, mods = _modules_after("odds", "maai", "2D10+3>=11", "--json")
    assert json.loads(out)["success"] == "79/100"
    assert not [m for m in mods if m.startswith(("ikusa.dice.bcdice", "ikusa.systems.maai.state", "pydantic"))]


def test_help_lists_every_command_and_each_one_builds() -> None:
    res = runner.invoke(app, ["--help"])
    assert res.exit_code == 0
    for name, _module in COMMANDS:
        assert f" {name} " in res.stdout
        sub = runner.invoke(app, [name, "--help"])
        assert sub.exit_code == 0, (name, sub.output)
        assert "Usage:" in sub.stdout


def test_unknown_command_is_one_clear_error_with_a_suggestion() -> None:
    res = runner.invoke(app, ["rol", "2D6"])
    assert res.exit_code == 2
    assert "No such command 'rol'" in res.output and "roll" in res.output
