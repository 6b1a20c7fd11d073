"""`ikusa rules SYSTEM TOPIC` prints a topic's effects from the engine's own data."""

from __future__ import annotations

from typer.testing import CliRunner

from ikusa.cli.main import app
from ikusa.systems.fantasy.conditions import builtin_conditions

runner = CliRunner()


def test_condition_effects_from_engine_data() -> None:
    res = runner.invoke(app, ["rules", "fantasy", "麻痺"])
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "F-R10" in out and "回避行動は一切取れない" in out and "自動失敗以外必ず命中" in out
    assert "何かを避ける直感ST" in out and "前衛の維持" in out


def test_modifiers_printed_match_data() -> None:
    """Every modifier value of 視界不良 in conditions.yaml appears in the output."""
    res = runner.invoke(app, ["rules", "fantasy", "poor_visibility"])
    assert res.exit_code == 0
    for m in builtin_conditions()["poor_visibility"].modifiers:
        assert f"修正 {m.value:+d}" in res.stdout
    assert "ドワーフの暗視で無効" in res.stdout and "light" in res.stdout


def test_water_and_stun() -> None:
    out = runner.invoke(app, ["rules", "fantasy", "水中"]).stdout
    assert "移動×2" in out and "射程×0.5" in out and "1Dの疲労" in out and "bow" in out
    out = runner.invoke(app, ["rules", "fantasy", "朦朧"]).stdout
    assert "期間の指定が必須" in out and "機会攻撃を行えない" in out and "修正 -2: 全てのST" in out


def test_battlefield_topic() -> None:
    out = runner.invoke(app, ["rules", "fantasy", "corridor"]).stdout
    assert "前衛に立てる人数: 2 (floor(4m / 1.5m)" in out and "+1" in out and "F-R08" in out
    out = runner.invoke(app, ["rules", "fantasy", "崖の通路"]).stdout
    assert "前衛に立てる人数: 1" in out and "目標値12" in out and "射線は通らない" in out


def test_unknown_topic_lists_known() -> None:
    res = runner.invoke(app, ["rules", "fantasy", "石化"])
    assert res.exit_code == 2
    assert "unknown fantasy topic '石化'" in res.stderr and "睡眠" in res.stderr and "corridor" in res.stderr


def test_topics_listing_and_other_systems() -> None:
    res = runner.invoke(app, ["rules", "fantasy"])
    assert res.exit_code == 0 and "水場" in res.stdout and "狭い部屋" in res.stdout
    res = runner.invoke(app, ["rules", "sengensyou", "ホーミング"])
    assert res.exit_code == 0 and "G-R16" in res.stdout and "対象数 × 2" in res.stdout and "Lv5→3D" in res.stdout
    res = runner.invoke(app, ["rules", "sengensyou"])
    assert res.exit_code == 0 and "graze" in res.stdout and "master_spark" in res.stdout
    res = runner.invoke(app, ["rules", "sengensyou", "無防備"])
    assert res.exit_code == 2 and "unknown sengensyou topic" in res.stderr
    res = runner.invoke(app, ["rules", "nosuch", "x"])
    assert res.exit_code == 2 and "unknown system" in res.stderr


def test_options_topic_lists_every_gap_default() -> None:
    out = runner.invoke(app, ["rules", "fantasy", "options"]).stdout
    for gid in ("F-G01", "F-G02", "F-G03", "F-G04", "F-G05", "F-G06", "F-G07", "F-G08", "F-G09", "F-G10",
                "F-G11", "F-G12", "F-G13", "F-G14", "F-G15", "F-G16", "F-G17", "F-H02"):
        assert gid in out, gid
    assert "round_cap = 30" in out and "invented" in out
