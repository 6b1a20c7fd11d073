"""QA regressions: names from encounter files and paths typed by the user are printed as
text, never parsed as rich markup (a side called '[/]味方' crashed `ikusa fight` with a
MarkupError traceback; 'x[b].yaml' was shown as 'x.yaml')."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ikusa.cli.main import app

runner = CliRunner()

pytestmark = pytest.mark.usefixtures("toy_system")


def test_batch_path_with_markup_is_one_error_line(tmp_path: Path) -> None:
    """Was: rich.errors.MarkupError traceback from fail()."""
    res = runner.invoke(app, ["roll", "--batch", str(tmp_path / "[/]nope")])
    assert res.exit_code == 2
    assert f"cannot read batch file {tmp_path / '[/]nope'}" in res.stderr


def test_sim_title_shows_the_file_name_as_is(tmp_path: Path) -> None:
    enc = tmp_path / "x[b].yaml"
    enc.write_text("system: toy\nhp: 3\n", "utf-8")
    res = runner.invoke(app, ["sim", str(enc), "-n", "2"])
    assert res.exit_code == 0, res.output
    assert "x[b].yaml" in res.stdout


def test_fight_winner_with_markup_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: ``結果: winner = [/]味方`` raised MarkupError (exit 1, traceback)."""
    from tests.engine.toy import ToyState

    real = ToyState.summary

    def summary(self: ToyState) -> dict[str, object]:
        out = real(self)
        if out["winner"] is not None:
            out["winner"] = f"[/]{out['winner']}"
        return out

    monkeypatch.setattr(ToyState, "summary", summary)
    enc = tmp_path / "e.yaml"
    enc.write_text("system: toy\nhp: 3\n", "utf-8")
    res = runner.invoke(app, ["fight", str(enc), "--seed", "1"])
    assert res.exit_code == 0, res.output
    assert "winner = [/]" in res.stdout


def test_fight_without_winner_says_draw(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: '結果: winner = None' (Python's None shown to a GM); sim calls it 'draw'."""
    from tests.engine.toy import ToyState

    real = ToyState.summary
    monkeypatch.setattr(ToyState, "summary", lambda self: {**real(self), "winner": None})
    enc = tmp_path / "e.yaml"
    enc.write_text("system: toy\nhp: 3\n", "utf-8")
    res = runner.invoke(app, ["fight", str(enc), "--seed", "1"])
    assert res.exit_code == 0, res.output
    assert "winner = draw" in res.stdout and "None" not in res.stdout
