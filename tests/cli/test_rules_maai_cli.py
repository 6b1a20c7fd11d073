"""`ikusa rules maai TOPIC` through the CLI: output from the engine's data, errors without
tracebacks (exit 2)."""

from __future__ import annotations

from typer.testing import CliRunner

from ikusa.cli.main import app

runner = CliRunner()


def test_maneuver_by_japanese_name_S_R69() -> None:
    res = runner.invoke(app, ["rules", "maai", "横斬り"])
    assert res.exit_code == 0, res.output
    assert "[横斬り] (katana.yokogiri)" in res.stdout and "活力 2 (S-R69" in res.stdout


def test_tags_are_printed_not_eaten_as_markup() -> None:
    res = runner.invoke(app, ["rules", "maai", "katana.sashi"])
    assert res.exit_code == 0 and "[貫通 2]" in res.stdout


def test_unknown_topic_exit_2_no_traceback() -> None:
    res = runner.invoke(app, ["rules", "maai", "yokogri"])
    assert res.exit_code == 2
    assert "unknown maai topic 'yokogri'" in res.stderr and "katana.yokogiri" in res.stderr
    assert "Traceback" not in res.output + res.stderr


def test_topic_listing() -> None:
    res = runner.invoke(app, ["rules", "maai"])
    assert res.exit_code == 0
    for t in ("grades", "options", "improvised", "defence", "katana.yokogiri", "fudou_no_jin"):
        assert t in res.stdout
