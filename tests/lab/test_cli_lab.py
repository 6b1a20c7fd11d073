"""`ikusa lab` from the command line: reports with every plot, compare with SPRT, odds, and
bad input as one line naming it."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ikusa.cli.main import app

runner = CliRunner()
DUEL = "examples/maai/duel.yaml"
SVG = "{http://www.w3.org/2000/svg}"


def _figures(html: str) -> dict[str, ET.Element]:
    out = {}
    for m in re.finditer(r'<figure id="plot-([a-z]+)">(<svg.*?</svg>)', html, re.S):
        out[m.group(1)] = ET.fromstring(m.group(2))
    return out


def _series_in(svg: ET.Element, axes: str) -> list[str]:
    group = next(g for g in svg.iter(f"{SVG}g") if g.get("id") == f"axes-{axes}")
    return [e.get("id", "") for e in group.iter() if e.get("id", "").startswith("series-")]


def _ticks(svg: ET.Element, axes: str) -> tuple[int, int]:
    group = next(g for g in svg.iter(f"{SVG}g") if g.get("id") == f"axes-{axes}")
    ids = [e.get("id", "") for e in group.iter()]
    return (sum(1 for i in ids if i.startswith("xtick_")), sum(1 for i in ids if i.startswith("ytick_")))


def test_sweep_grid_report_holds_every_plot(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    res = runner.invoke(app, ["lab", "sweep", DUEL, "--vary", "units.0.abilities.技=0..2",
                              "--vary", "options.fate.lethal_exception=true,false", "-n", "20",
                              "--workers", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "味方 wins" in res.output
    figs = _figures((out / "report.html").read_text("utf-8"))
    assert set(figs) == {"winrate", "heatmap", "survival", "lengths", "units"}
    # win rate: one series (with error bars) per value of the second key, 3 x ticks
    assert len(_series_in(figs["winrate"], "winrate")) == 2
    assert _ticks(figs["winrate"], "winrate")[0] == 3
    assert _series_in(figs["heatmap"], "heatmap") == ["series-heatmap"]
    assert _ticks(figs["heatmap"], "heatmap") == (3, 2)
    assert len(_series_in(figs["survival"], "survival")) == 6
    assert len(_series_in(figs["lengths"], "lengths")) == 6
    # per unit: 6 points × 2 units bars in each of the three panels
    for key in ("damage_dealt", "damage_taken", "death_rate"):
        assert len(_series_in(figs["units"], f"units-{key}")) == 12
    for name in figs:
        assert (out / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = (out / "results.csv").read_text("utf-8").splitlines()
    assert len(rows) == 7
    assert rows[0].startswith("point,units.0.abilities.技,options.fate.lethal_exception,battles,draws,")
    doc = json.loads((out / "results.json").read_text("utf-8"))
    assert doc["command"][0] == "ikusa"
    assert doc["ikusa_version"] and doc["root_seed"] == 0


def test_compare_with_sprt_writes_the_trace(tmp_path: Path) -> None:
    out = tmp_path / "cmp"
    res = runner.invoke(app, ["lab", "compare", DUEL, "--b", "units.0.abilities.技=3", "--sprt", "0.5,0.7",
                              "-n", "400", "--workers", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    doc = json.loads((out / "results.json").read_text("utf-8"))
    t = doc["comparison"]["sprt"]
    assert t["decision"] == "H1"  # 技 1 → 3 is a large effect: decided long before the cap
    assert doc["comparison"]["pairs"] < 400
    assert t["llr"] >= t["upper"]
    figs = _figures((out / "report.html").read_text("utf-8"))
    assert {"winrate", "sprt", "survival", "lengths", "units"} <= set(figs)
    assert _series_in(figs["sprt"], "sprt") == ["series-llr"]
    assert len(_series_in(figs["winrate"], "winrate")) == 2 * 2  # A and B bars, 2 sides each
    assert "SPRT" in res.output and "B − A" in res.output


def test_odds_grid_is_exact(tmp_path: Path) -> None:
    out = tmp_path / "odds"
    res = runner.invoke(app, ["lab", "odds", "maai", "2D10+{mod}>={tn}", "--grid", "mod=-1..3",
                              "--grid", "tn=11..12", "--out", str(out)])
    assert res.exit_code == 0, res.output
    cells = {c["command"]: c["exact"] for c in json.loads((out / "results.json").read_text("utf-8"))["cells"]}
    assert len(cells) == 10
    assert cells["2D10+3>=11"] == "79/100"
    assert "2D10-1>=11" in cells
    assert "odds" in _figures((out / "report.html").read_text("utf-8"))


@pytest.mark.parametrize(("args", "needle"), [
    (["sweep", DUEL, "--vary", "options.no_such_option=1,2", "-n", "5"], "options.no_such_option"),
    (["sweep", DUEL, "--vary", "units.0.abilities.技=3..1", "-n", "5"], "empty range"),
    (["sweep", DUEL, "--vary", "units.0.abilities.技=", "-n", "5"], "empty list"),
    (["sweep", "no/such/file.yaml", "--vary", "units.0.abilities.技=1,2", "-n", "5"], "no/such/file.yaml"),
    (["sweep", DUEL, "--vary", "units.9.abilities.技=1,2", "-n", "5"], "units.9"),
    (["sweep", DUEL, "-n", "5", "--ai", "search:0"], "search budget"),
    (["sweep", DUEL, "-n", "5", "--ai", "nobody=greedy"], "nobody"),
    (["sweep", DUEL, "--vary", "units.0.abilities.技=1,2"], "-n N or --precision"),
    (["compare", DUEL, "-n", "5"], "A and B are the same"),
    (["compare", DUEL, "--b", "units.0.abilities.技=2", "--sprt", "0.5"], "--sprt"),
    (["compare", "missing.yaml", "--b", "units.0.abilities.技=2", "-n", "5"], "missing.yaml"),
    (["sweep", DUEL, "-n", "5", "--dask", "nowhere"], "--dask"),
])
def test_bad_input_is_one_line_naming_it(tmp_path: Path, args: list[str], needle: str) -> None:
    res = runner.invoke(app, ["lab", *args, "--out", str(tmp_path / "o")])
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1, res.output
    assert lines[0].startswith("error:") and needle in lines[0], lines[0]
    assert "Traceback" not in res.output


def test_resume_refuses_another_run(tmp_path: Path) -> None:
    out = tmp_path / "o"
    first = runner.invoke(app, ["lab", "sweep", DUEL, "-n", "5", "-w", "1", "--no-report", "--out", str(out)])
    assert first.exit_code == 0
    res = runner.invoke(app, ["lab", "sweep", DUEL, "-n", "6", "-w", "1", "--resume", "--out", str(out)])
    assert res.exit_code == 2 and "different run" in res.output


def test_sim_workers_give_identical_results() -> None:
    one = runner.invoke(app, ["sim", DUEL, "-n", "120", "--seed", "4", "--json", "--workers", "1"])
    two = runner.invoke(app, ["sim", DUEL, "-n", "120", "--seed", "4", "--json", "--workers", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert one.output == two.output
    assert json.loads(one.output)["battles"] == 120
