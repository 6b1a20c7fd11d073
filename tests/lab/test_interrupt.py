"""Ctrl-C on a real ``ikusa lab sweep`` process (issue #11): SIGINT while worker processes run
keeps the finished chunks, says so in one line and exits 130; the same command with
``--resume`` finishes with a ``results.csv`` byte-identical to an uninterrupted run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from ikusa.cli.main import app
from tests.child_signals import default_sigint

IKUSA = Path(sys.executable).with_name("ikusa")
SWEEP = ["lab", "sweep", "examples/maai/duel.yaml", "--vary", "units.0.abilities.技=1", "-n", "300",
         "--seed", "11", "--no-report"]


def test_ctrl_c_keeps_the_chunks_and_resume_finishes_identically(tmp_path: Path) -> None:
    out, reference = tmp_path / "run", tmp_path / "ref"
    chunks = out / "chunks.jsonl"
    proc = subprocess.Popen([str(IKUSA), *SWEEP, "--workers", "2", "--out", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "200"},
                            preexec_fn=default_sigint)
    deadline = time.monotonic() + 120
    while not (chunks.exists() and chunks.read_text("utf-8").count("\n") >= 2):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no chunk finished in 120 s"
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)  # what Ctrl-C at a terminal sends
    _stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    said = [ln for ln in stderr.splitlines() if ln.strip()]
    assert said[-1].startswith("interrupted: the finished chunks are kept in"), stderr
    assert "Traceback" not in stderr
    kept = chunks.read_text("utf-8").count("\n")
    assert 2 <= kept < 15 and not (out / "results.csv").exists()  # 15 chunks of 20 battles

    resumed = CliRunner().invoke(app, [*SWEEP, "--workers", "1", "--resume", "--out", str(out)])
    assert resumed.exit_code == 0, resumed.output
    whole = CliRunner().invoke(app, [*SWEEP, "--workers", "1", "--out", str(reference)])
    assert whole.exit_code == 0, whole.output
    assert (out / "results.csv").read_bytes() == (reference / "results.csv").read_bytes()
