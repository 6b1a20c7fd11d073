"""``ikusa roll`` through the console script's fast path (issue #12, target 6: start-up):
the same stdout, stderr and exit code as the typer command, without importing typer or
rich; every form the fast path does not take (scripted dice, a batch, a non-command, an
error) is typer's, unchanged."""

from __future__ import annotations

import json

import pytest

from ikusa.cli.entry import parse_roll
from tests.cli.entry_processes import MODULES, SCRIPT, TYPER, run


@pytest.mark.parametrize("argv", [
    ("2D6", "--seed", "3"),
    ("--system", "maai", "2D10+3>=11", "--seed=5", "--json"),
    ("2D10+3>=12", "--system", "maai", "--seed", "1"),  # S-G01: an even TN, a note on stderr
    ("--system=sengensyou", "SGS+2", "--seed", "-4"),
    ("x3 5B6>=4", "--seed", "9", "--json"),  # BCDice repeat and individual dice
    ("choice[a,b,c]", "--seed", "2"),
    ("hello", "--seed", "1"),  # not a command: nothing on stdout, typer's hint on stderr
    ("2D6", "--dice", "3,4"),  # scripted dice: typer
    ("--system", "nope", "2D6"),  # an unknown system: typer's one-line error, exit 2
    ("2D6", "--seed", "x"),  # typer's own message for a bad integer
    ("2D6", "3D6"),  # two commands: typer's usage error
])
def test_fast_path_answers_exactly_as_typer(argv: tuple[str, ...]) -> None:
    assert run(SCRIPT, "roll", *argv) == run(TYPER, "roll", *argv)


def test_roll_imports_neither_typer_nor_rich_nor_the_unused_commands() -> None:
    code, out, _err = run(MODULES, "roll", "2D6>=7", "--seed", "3", "--json")
    assert code == 0
    line, mods_line = out.rstrip("\n").split("\n")
    assert set(json.loads(line)) >= {"text", "success", "dice"}
    mods = json.loads(mods_line)
    assert not [m for m in mods if m.split(".")[0] in ("typer", "click", "rich", "pydantic", "yaml")]
    # dataclasses imports inspect (ast, dis, tokenize): ~45M instructions of a 2D6 roll's ~106M (issue #12)
    assert "dataclasses" not in mods and "inspect" not in mods
    assert "ikusa.dice.bcdice.sum_dice" in mods and "ikusa.dice.bcdice.choice" not in mods


def test_parse_roll_takes_plain_forms_only() -> None:
    assert parse_roll(["2D6", "--system", "maai", "--seed", "7", "--json"]) == ("2D6", "maai", 7, True)
    assert parse_roll(["--seed=-2", "2D6"]) == ("2D6", None, -2, False)
    for other in (["--help"], [], ["2D6", "--dice", "1,2"], ["2D6", "--seed"], ["2D6", "--seed", "1.5"],
                  ["a", "b"], ["2D6", "--system", "--json"], ["--batch", "-"], ["2D6", "--seed", "--3"]):
        assert parse_roll(other) is None, other
