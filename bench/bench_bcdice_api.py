"""BCDice-API v2 rolls per second over HTTP, and p95 latency (issue #10 §3).

Run: ``python -m bench.bench_bcdice_api [--requests N] [--port P]``.  Starts ``ikusa serve``
on a free loopback port (a throw-away SQLite file), then with httpx and keep-alive:

* anchors, in the same run: ``ikusa.roll`` in process (no HTTP), and ``GET /healthz`` over
  HTTP (the cost of one request through uvicorn and FastAPI with no work);
* ``GET /v2/game_system/DiceBot/roll?command=2D6>=7`` from one client, then from 8
  concurrent clients (8 threads, each its own keep-alive connection);
* ``POST`` with a form body, one client.

Each line prints requests/s and the p50/p95 latency of that loop.  Every loop is bounded
(``--requests`` requests, 8 × ``--requests`` / 8 for the concurrent one); loopback only.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

import ikusa
from bench.timing import per_second
from ikusa.dice.source import RandomSource

ROLL = "/v2/game_system/DiceBot/roll"
COMMAND = "2D6>=7"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _timed(n: int, call: Callable[[], httpx.Response]) -> list[float]:
    """Latencies of ``n`` calls (seconds); every answer must be 200."""
    out = []
    for _ in range(n):
        start = time.perf_counter()
        r = call()
        out.append(time.perf_counter() - start)
        if r.status_code != 200:
            raise SystemExit(f"unexpected answer {r.status_code}: {r.text}")
    return out


def _line(label: str, latencies: list[float], wall: float) -> str:
    q = statistics.quantiles(latencies, n=100)
    return (f"{label:<50} {len(latencies) / wall:>9,.0f} req/s   p50 {q[49] * 1000:6.2f} ms   "
            f"p95 {q[94] * 1000:6.2f} ms   ({len(latencies)} requests)")


def _one_client(base: str, label: str, n: int, send: Callable[[httpx.Client], httpx.Response]) -> str:
    with httpx.Client(base_url=base) as client:
        _timed(min(50, n), lambda: send(client))  # warm-up: connection, first imports
        start = time.perf_counter()
        lat = _timed(n, lambda: send(client))
        return _line(label, lat, time.perf_counter() - start)


def _concurrent(base: str, label: str, n: int, workers: int) -> str:
    def worker(_: int) -> list[float]:
        with httpx.Client(base_url=base) as client:
            _timed(10, lambda: client.get(ROLL, params={"command": COMMAND}))
            return _timed(n // workers, lambda: client.get(ROLL, params={"command": COMMAND}))

    with ThreadPoolExecutor(workers) as pool:
        start = time.perf_counter()
        lat = [x for part in pool.map(worker, range(workers)) for x in part]
        wall = time.perf_counter() - start
    return _line(label, lat, wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=2000, help="requests per loop")
    parser.add_argument("--port", type=int, default=0, help="loopback port (0: a free one)")
    args = parser.parse_args()
    port = args.port or _free_port()
    base = f"http://127.0.0.1:{port}"
    ikusa_bin = Path(sys.executable).with_name("ikusa")
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen([str(ikusa_bin), "serve", "--host", "127.0.0.1", "--port", str(port),
                                 "--db", f"sqlite:///{tmp}/bench.db"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"{base}/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("ikusa serve did not start")
                time.sleep(0.1)
            source = RandomSource(20261201)
            rate, n = per_second(lambda: ikusa.roll(COMMAND, dice=source), 1.0)
            print(f"{'anchor: ikusa.roll in process':<50} {rate:>9,.0f} rolls/s ({n} rolls, no HTTP)")
            print(_one_client(base, "anchor: GET /healthz, 1 client", args.requests,
                              lambda c: c.get("/healthz")))
            print(_one_client(base, f"GET {ROLL} {COMMAND}, 1 client", args.requests,
                              lambda c: c.get(ROLL, params={"command": COMMAND})))
            print(_concurrent(base, f"GET {ROLL} {COMMAND}, 8 clients", args.requests, 8))
            print(_one_client(base, f"POST {ROLL} (form), 1 client", args.requests,
                              lambda c: c.post(ROLL, data={"command": COMMAND})))
        finally:
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
