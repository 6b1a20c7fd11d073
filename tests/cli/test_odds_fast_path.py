"""``ikusa odds`` through the console script's fast path (issue #12, target 5): the same
output, errors and exit codes as the typer command, without importing typer (nor rich for
``--json``); anything the fast path does not parse goes to typer."""

from __future__ import annotations

import json

import pytest

from ikusa.cli.entry import parse_odds
from tests.cli.entry_processes import MODULES, SCRIPT, TYPER, run


@pytest.mark.parametrize("argv", [
    ("maai", "2D10+3>=11", "--json"),
    ("maai", "2D10+3>=11CE", "--fate", "2"),  # rich tables
    ("--json", "maai", "--fate=1", "2D10-3>=19"),
    ("3D6>=12",),  # a dice sum alone: the DiceBot
    ("maai",),  # S-R01: a system without a command: one error line, exit 2 (typer's)
    ("maai", "2D10+3>=11", "--fate", "1", "x"),  # three words: typer's usage error
    ("DiceBot", "3D6>=12", "--fate", "1"),  # S-R14: fate is a maai rule
    ("maai", "2D10+3>=11", "--fate", "ten"),  # typer's own message for a bad integer
    ("maai", "2D10+3>=11", "--fate=--1"),  # not an int to typer either (the fast path raised ValueError)
])
def test_fast_path_answers_exactly_as_typer(argv: tuple[str, ...]) -> None:
    assert run(SCRIPT, "odds", *argv) == run(TYPER, "odds", *argv)


def test_json_odds_import_neither_typer_nor_rich() -> None:
    code, out, _err = run(MODULES, "odds", "maai", "2D10+3>=11", "--json")
    assert code == 0
    line, mods_line = out.rstrip("\n").split("\n")
    assert json.loads(line)["success"] == "79/100"  # S-R01: P(2d10+3 ≥ 11) = 79/100
    mods = json.loads(mods_line)
    assert not [m for m in mods if m.split(".")[0] in ("typer", "click", "rich", "pydantic", "yaml")]
    # dataclasses imports inspect (ast, dis, tokenize): about a third of this process's instructions (issue #12)
    assert "dataclasses" not in mods and "inspect" not in mods


def test_parse_odds_takes_plain_forms_only() -> None:
    assert parse_odds(["maai", "2D10+3>=11", "--fate", "2", "--json"]) == ("maai", "2D10+3>=11", 2, True)
    assert parse_odds(["3D6>=12"]) == ("3D6>=12", None, 0, False)
    for other in (["--help"], [], ["maai", "--fate"], ["maai", "a", "b"], ["maai", "x", "--fate", "+1"],
                  ["maai", "x", "--no-json"], ["maai", "x", "--", "y"]):
        assert parse_odds(other) is None, other
