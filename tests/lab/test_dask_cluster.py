"""``--dask tcp://HOST:PORT`` against a real cluster: a ``dask scheduler`` and a ``dask worker``
started as their own processes on loopback (free ports), the ``ikusa lab sweep`` command line
pointed at it, and ``results.csv`` byte-identical to ``--workers 1`` (issue #11, running at scale)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ikusa.cli.main import app

DASK = Path(sys.executable).with_name("dask")
IKUSA = Path(sys.executable).with_name("ikusa")
SWEEP = ["lab", "sweep", "examples/maai/duel.yaml", "--vary", "units.0.abilities.技=0..1", "-n", "60",
         "--seed", "7", "--no-report"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def app_main(args: list[str]) -> int:
    """The same command in this process (``--workers 1``: no pool to start)."""
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.exit_code


def _ikusa(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(IKUSA), *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "200"})


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A one-worker Dask cluster of real processes; its address."""
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet: dict[str, Any] = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    sched = subprocess.Popen([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                              "--no-dashboard"], **quiet)
    worker = subprocess.Popen([str(DASK), "worker", address, "--nthreads", "1", "--nworkers", "1",
                               "--host", "127.0.0.1", "--no-nanny", "--no-dashboard", "--death-timeout", "60"],
                              **quiet)
    try:
        import importlib

        client_cls: Any = importlib.import_module("distributed").Client
        deadline = time.monotonic() + 60
        while True:  # the scheduler needs a moment to listen
            try:
                with client_cls(address, timeout=5) as client:
                    client.wait_for_workers(1, timeout=60)
                break
            except (OSError, TimeoutError):
                if time.monotonic() > deadline or sched.poll() is not None:
                    raise
                time.sleep(0.3)
        yield address
    finally:
        for p in (worker, sched):
            p.terminate()
        for p in (worker, sched):
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def test_sweep_on_a_running_cluster_matches_one_worker(scheduler: str, tmp_path: Path) -> None:
    serial, cluster = tmp_path / "w1", tmp_path / "dask"
    assert app_main([*SWEEP, "--workers", "1", "--out", str(serial)]) == 0
    run = _ikusa(*SWEEP, "--dask", scheduler, "--out", str(cluster))
    assert run.returncode == 0, run.stderr
    assert (cluster / "results.csv").read_bytes() == (serial / "results.csv").read_bytes()
    a, b = (json.loads((d / "results.json").read_text("utf-8")) for d in (serial, cluster))
    assert b["command"][b["command"].index("--dask") + 1] == scheduler  # the run really went there
    for doc in (a, b):
        doc.pop("command")
        doc.pop("timing")
    assert a == b
    assert [p["battles"] for p in b["points"]] == [60, 60]

