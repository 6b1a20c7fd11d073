"""Common random numbers: aligned streams, and the variance they cut."""

from __future__ import annotations

import inspect
from pathlib import Path

from ikusa.lab.battle import Variant
from ikusa.lab.compare import run_compare
from ikusa.lab.crn import CrnSource, stream_key
from ikusa.lab.executors import SerialExecutor

DUEL = Path("examples/maai/duel.yaml")


def test_streams_are_keyed_by_roller_and_purpose() -> None:
    a, b = CrnSource(5), CrnSource(5)
    # B rolls something A does not: the other streams are not shifted
    first = a.roll(10, 2, "源三郎 横斬り 命中")
    b.roll(6, 3, "槍の将 生死判定")
    assert b.roll(10, 2, "源三郎 横斬り 命中") == first
    # numbers in the purpose do not split a stream; the roller (when the engine names it) does
    assert stream_key("DP3 3D6") == stream_key("DP4 4D6")
    assert CrnSource(5).roll(6, 8, "x", roller="GM") != CrnSource(5).roll(6, 8, "x", roller="reimu")
    assert CrnSource(5).roll(6, 8, "x", roller="GM") == CrnSource(5).roll(6, 8, "x", roller="GM")
    assert all(1 <= v <= 6 for v in CrnSource(9).roll(6, 200, "many"))
    assert "roller" in inspect.signature(CrnSource.roll).parameters


def test_crn_cuts_the_variance_of_plus_one_luck_at_least_3x(tmp_path: Path) -> None:
    """+1 運 for 源三郎 (one more fate intervention, S-R14): the paired difference's variance with
    the same dice against B on independent dice."""
    a = Variant.read(DUEL)
    b = Variant.read(DUEL, ("units.0.abilities.運=2",))
    paired = run_compare(a, b, battles=400, sprt=None, executor=SerialExecutor(), seed=11, out=tmp_path / "p")
    indep = run_compare(a, b, battles=400, sprt=None, executor=SerialExecutor(), seed=11, out=tmp_path / "i",
                        independent=True)
    cp, ci = paired["comparison"], indep["comparison"]
    assert cp["difference"] > 0  # one more fate helps
    ratio = ci["variance_paired"] / cp["variance_paired"]
    assert ratio >= 3, ratio
    # the estimate the report gives from the paired run alone agrees in size
    assert cp["variance_reduction"] >= 3
    # and the paired interval is correspondingly narrower
    assert (cp["difference_95"][1] - cp["difference_95"][0]) * 1.7 < ci["difference_95"][1] - ci["difference_95"][0]
