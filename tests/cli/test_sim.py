"""The balance lab on the toy system: seeded, reproducible, overrides validated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ikusa.cli.main import app
from ikusa.engine.errors import InputError
from ikusa.lab.simulate import apply_overrides, prepare, simulate

runner = CliRunner()


pytestmark = pytest.mark.usefixtures("toy_system")


def test_simulate_counts_every_battle_and_is_seeded(tmp_path: Path) -> None:
    enc = tmp_path / "e.yaml"
    enc.write_text("system: toy\nhp: 6\n", "utf-8")
    a = simulate(prepare(enc), 40, seed=3)
    b = simulate(prepare(enc), 40, seed=3)
    assert sum(a.wins.values()) == 40
    assert a.to_json() == b.to_json()
    # the toy's first mover (a) always attacks first: it wins more often than b
    assert a.wins["a"] > a.wins["b"]
    lo, hi = a.interval("a")
    assert 0 <= lo <= a.rate("a") <= hi <= 1


def test_override_changes_the_encounter(tmp_path: Path) -> None:
    enc = tmp_path / "e.yaml"
    enc.write_text("system: toy\nhp: 6\n", "utf-8")
    assert prepare(enc, ["hp=1"]).encounter.hp == 1
    with pytest.raises(InputError, match="hp"):
        prepare(enc, ["hp=0"])
    with pytest.raises(InputError, match="path.to.key=value"):
        apply_overrides({}, ["novalue"], "x")


def test_sim_cli_json(tmp_path: Path) -> None:
    enc = tmp_path / "e.yaml"
    enc.write_text("system: toy\nhp: 6\n", "utf-8")
    res = runner.invoke(app, ["sim", str(enc), "-n", "10", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["battles"] == 10
    bad = runner.invoke(app, ["sim", str(enc), "-n", "0"])
    assert bad.exit_code == 2 and "at least 1" in bad.stderr
