"""Byte-identical results across executors and after an interruption resumed with --resume."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ikusa.lab.executors import make_executor
from ikusa.lab.policies import PolicySpec
from ikusa.lab.sweep import Vary, run_sweep

DUEL = Path("examples/maai/duel.yaml")


def _sweep(out: Path, workers: int | None = 1, dask: str | None = None, resume: bool = False,
           progress: Any = None) -> dict[str, Any]:
    ex = make_executor(workers, dask)
    try:
        return run_sweep(DUEL, [Vary.parse("units.0.abilities.技=0..1")], battles=130, precision=None,
                         policies=PolicySpec.parse([]), executor=ex, seed=42, out=out, resume=resume,
                         progress=progress)
    finally:
        ex.close()


def _json_without_run(out: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((out / "results.json").read_text("utf-8"))
    doc.pop("command")
    doc.pop("timing")
    return doc


@pytest.fixture(scope="module")
def serial(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("w1")
    _sweep(out)
    return out


def test_serial_results_are_complete(serial: Path) -> None:
    doc = _json_without_run(serial)
    assert [p["battles"] for p in doc["points"]] == [130, 130]
    assert doc["root_seed"] == 42
    p0, p1 = doc["points"]
    # more 技 for 源三郎 wins more often (same seeds at both points)
    assert p1["win_rate"]["味方"] > p0["win_rate"]["味方"]
    for p in doc["points"]:
        assert sum(p["wins"].values()) == 130
        assert sum(p["length"]["histogram"].values()) == 130
        u = p["units"]["genzaburo"]
        assert u["deaths"] == p["wins"]["敵"]  # a duel is lost exactly when 源三郎 is down
        assert u["damage_dealt"] == pytest.approx(p["units"]["yagyu"]["damage_taken"])
        assert u["spent"]["活力"] > 0


def test_two_workers_give_identical_results(serial: Path, tmp_path: Path) -> None:
    _sweep(tmp_path, workers=2)
    assert (tmp_path / "results.csv").read_bytes() == (serial / "results.csv").read_bytes()
    assert _json_without_run(tmp_path) == _json_without_run(serial)


def test_dask_local_gives_identical_results(serial: Path, tmp_path: Path) -> None:
    _sweep(tmp_path, workers=1, dask="local")  # one Dask worker process: start-up is the cost here
    assert (tmp_path / "results.csv").read_bytes() == (serial / "results.csv").read_bytes()
    assert _json_without_run(tmp_path) == _json_without_run(serial)


def test_interrupted_then_resumed_gives_identical_results(serial: Path, tmp_path: Path) -> None:
    def stop(have: int, total: int) -> None:
        if have >= 100:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _sweep(tmp_path, progress=stop)
    kept = (tmp_path / "chunks.jsonl").read_text("utf-8").splitlines()
    assert 0 < len(kept) < 14  # 2 points × 7 chunks
    # a line cut short by the interruption is run again, not trusted
    (tmp_path / "chunks.jsonl").write_text("\n".join(kept) + "\n" + kept[-1][: len(kept[-1]) // 2], "utf-8")
    doc = _sweep(tmp_path, resume=True)
    assert doc["timing"]["chunks_resumed"] == len(kept)
    assert (tmp_path / "results.csv").read_bytes() == (serial / "results.csv").read_bytes()
    assert _json_without_run(tmp_path) == _json_without_run(serial)
