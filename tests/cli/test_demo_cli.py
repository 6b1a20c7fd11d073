"""`ikusa demo [--seed N]`: runs, narrates every system, reproducible for a seed."""

from __future__ import annotations

from typer.testing import CliRunner

from ikusa.cli.main import app

runner = CliRunner()


def test_demo_runs_and_covers_the_systems() -> None:
    res = runner.invoke(app, ["demo"])
    assert res.exit_code == 0, res.output
    out = res.stdout
    # maai: the worked example S-T09 with its fate intervention, and the odds table
    assert "運命介入[4→5,5] ＞ 10[5,5] ＞ 10 ＞ 会心" in out
    assert "79% (79/100)" in out
    # 千幻抄: SGS and a DP check with their odds; fantasy 2D6
    assert "(3D6+10)" in out and "(DP3+7>=12)" in out and "53/54" in out
    assert "(2D6+5>=12)" in out and "自動成功" in out


def test_demo_is_reproducible() -> None:
    a = runner.invoke(app, ["demo", "--seed", "7"]).stdout
    b = runner.invoke(app, ["demo", "--seed", "7"]).stdout
    c = runner.invoke(app, ["demo", "--seed", "8"]).stdout
    assert a == b
    assert a != c
