"""#13: `ikusa rules SYSTEM ID|CONCEPT` prints the rule text of every ANALYSIS id and of the
core concepts, with the options citing it (was: 過負荷 … unknown topics; S-R29 only an option)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ikusa.cli.main import app
from ikusa.systems.rule_index import CONCEPTS, entries

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
PREFIX = {"maai": "S", "sengensyou": "G", "fantasy": "F"}


@pytest.mark.parametrize("system", sorted(PREFIX))
def test_every_rule_and_gap_id_has_an_entry(system: str) -> None:
    """The R and G ids run 01…N without a hole, and every id the engine cites is there."""
    have = set(entries(system))
    for kind in "RG":
        nums = sorted(int(k[3:]) for k in have if k[2] == kind)
        assert nums == list(range(1, len(nums) + 1)) and len(nums) > 10, (system, kind)
    cited: set[str] = set()
    for py in (ROOT / "ikusa").rglob("*.py"):
        cited |= set(re.findall(rf"\b({PREFIX[system]}-[RG]\d\d)\b", py.read_text("utf-8")))
    assert cited and cited <= have, sorted(cited - have)
    for rid, e in entries(system).items():
        assert e["text"].strip(), rid


def test_rules_maai_s_r29_prints_the_rule_and_its_option() -> None:
    r = runner.invoke(app, ["rules", "maai", "S-R29"])
    assert r.exit_code == 0, r.output
    assert "2d10 + 體 − excess ≥ 11" in r.stdout and "000:L122" in r.stdout
    assert "overload.tn = 11" in r.stdout


@pytest.mark.parametrize("concept", ["過負荷", "運命介入", "無防備", "予約", "即興", "小康", "心府", "突破"])
def test_core_maai_concepts_resolve(concept: str) -> None:
    r = runner.invoke(app, ["rules", "maai", concept])
    assert r.exit_code == 0, r.output
    for rid in CONCEPTS["maai"][concept]:
        assert f"{rid} (" in r.stdout


def test_every_id_prints_for_every_system() -> None:
    for system in PREFIX:
        for rid in list(entries(system))[::7]:  # a sample: each lookup reads the same table
            r = runner.invoke(app, ["rules", system, rid])
            assert r.exit_code == 0 and r.stdout.startswith(rid), (system, rid, r.output)


def test_system_topics_still_come_after_the_rule() -> None:
    """A catalog entry keeps its own lines; an id the system also explains keeps both."""
    r = runner.invoke(app, ["rules", "fantasy", "F-R04"])
    assert r.exit_code == 0 and r.stdout.startswith("F-R04 (002:")
    assert runner.invoke(app, ["rules", "maai", "S-X99"]).exit_code == 2
