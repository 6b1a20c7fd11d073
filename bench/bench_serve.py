"""The web table under load: N tables × C SSE clients on loopback, each table acting in a loop.

Run: ``python -m bench.bench_serve [--tables 20] [--clients 6] [--seconds 20] [--db URL] [--processes P]``.

Starts ``P`` real ``ikusa serve`` processes (``P`` > 1 needs PostgreSQL: they fan out by
LISTEN/NOTIFY), opens ``N`` tables (examples/maai/squad_battle.yaml, every unit the GM's,
auto dice, so a POST is one decision), connects ``C`` SSE clients per table spread over the
processes, and lets each table's GM post the next decision as soon as the last one reached
all of its clients.  A finished battle is replaced by a fresh table.  Prints p50/p95/p99 of
the time from sending the POST until every client of the table has the new version, and
decisions/s.  Anchor, same run: the round trip of ``GET /healthz`` on the same servers.
Target on a 2-core machine: 20 tables × 6 clients at p95 ≤ 150 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.live import Server  # noqa: E402

ENCOUNTER = ROOT / "examples" / "maai" / "squad_battle.yaml"


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


class Reader:
    """One SSE client: the time each version first arrived."""

    def __init__(self) -> None:
        self.seen: dict[int, float] = {}
        self.latest = -1
        self.changed = asyncio.Event()

    async def run(self, client: httpx.AsyncClient, url: str, token: str) -> None:
        headers = {"Authorization": f"Bearer {token}"}
        async with client.stream("GET", url, headers=headers) as r:
            async for line in r.aiter_lines():
                if line.startswith("id:"):
                    v = int(line[3:].strip())
                    if v > self.latest:
                        self.latest = v
                        self.seen[v] = time.perf_counter()
                        self.changed.set()

    async def wait(self, version: int) -> float:
        while self.latest < version:
            self.changed.clear()
            await self.changed.wait()
        return min(t for v, t in self.seen.items() if v >= version)


async def _table_loop(servers: list[Server], clients: int, text: str, seconds: float, go: asyncio.Barrier,
                      latencies: list[float], errors: list[str]) -> None:
    async with httpx.AsyncClient(timeout=httpx.Timeout(30, read=None),
                                 limits=httpx.Limits(max_connections=clients + 4)) as http:
        deadline = 0.0
        while not deadline or time.perf_counter() < deadline:
            r = await http.post(servers[0].url + "/api/tables", json={"encounter": text})
            r.raise_for_status()
            t = r.json()
            gm = {"Authorization": f"Bearer {t['tokens']['gm']}"}
            readers = [Reader() for _ in range(clients)]
            tasks = [asyncio.create_task(rd.run(http, f"{servers[i % len(servers)].url}/api/tables/{t['id']}/events",
                                                t["tokens"]["spectator"]))
                     for i, rd in enumerate(readers)]
            for rd in readers:
                await rd.wait(t["version"])
            if not deadline:  # every table and client connected: the clock starts for all at once
                await go.wait()
                deadline = time.perf_counter() + seconds
            view = (await http.get(f"{servers[0].url}/api/tables/{t['id']}", headers=gm)).json()
            n = 0
            while view["pending"] is not None and time.perf_counter() < deadline:
                server = servers[n % len(servers)]
                n += 1
                key = view["pending"]["options"][0]["key"]
                start = time.perf_counter()
                r = await http.post(f"{server.url}/api/tables/{t['id']}/actions", headers=gm,
                                    json={"version": view["version"], "action": key, "log_since": view["version"]})
                if r.status_code != 200:
                    errors.append(f"{r.status_code} {r.text[:200]}")
                    break
                view = r.json()
                arrived = [await rd.wait(view["version"]) for rd in readers]
                latencies.append(max(arrived) - start)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


async def _healthz(servers: list[Server], n: int = 50) -> float:
    times = []
    async with httpx.AsyncClient() as http:
        for i in range(n):
            start = time.perf_counter()
            await http.get(servers[i % len(servers)].url + "/healthz")
            times.append(time.perf_counter() - start)
    return statistics.median(times)


async def _run(servers: list[Server], tables: int, clients: int, seconds: float) -> dict[str, Any]:
    doc = yaml.safe_load(ENCOUNTER.read_text("utf-8"))
    doc.pop("script", None)
    text = json.dumps(doc, ensure_ascii=False)
    anchor = await _healthz(servers)
    latencies: list[float] = []
    errors: list[str] = []
    go = asyncio.Barrier(tables + 1)
    loops = asyncio.gather(*(_table_loop(servers, clients, text, seconds, go, latencies, errors)
                             for _ in range(tables)))
    await go.wait()
    pids = [s.proc.pid for s in servers if s.proc is not None]
    cpu0 = [_cpu_seconds(p) for p in pids] + [time.process_time()]
    start = time.perf_counter()
    await loops
    elapsed = time.perf_counter() - start
    cpu = [_cpu_seconds(p) - c for p, c in zip(pids, cpu0, strict=False)] + [time.process_time() - cpu0[-1]]
    return {"anchor": anchor, "latencies": latencies, "elapsed": elapsed, "errors": errors, "cpu": cpu}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--clients", type=int, default=6)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--db", default="", help="database URL (default: a fresh SQLite file)")
    ap.add_argument("--processes", type=int, default=1)
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    db = args.db or f"sqlite:///{Path(tmp.name) / 'bench.db'}"
    if args.processes > 1 and db.startswith("sqlite"):
        ap.error("several processes need PostgreSQL (--db postgresql+psycopg://…)")
    servers = [Server(db).start(60) for _ in range(args.processes)]
    try:
        res = asyncio.run(_run(servers, args.tables, args.clients, args.seconds))
    finally:
        for s in servers:
            s.stop()
        tmp.cleanup()
    lat = res["latencies"]
    backend = db.split(":", 1)[0]
    load = Path("/proc/loadavg").read_text().split()[0]
    print(f"bench_serve: {backend}, {args.processes} process(es), {args.tables} tables × {args.clients} SSE clients, "
          f"{res['elapsed']:.1f} s, load average {load} (2 cores)")
    print(f"  anchor GET /healthz round trip p50 {res['anchor'] * 1000:7.1f} ms")
    if lat:
        p50, p95, p99 = (_quantile(lat, q) * 1000 for q in (0.5, 0.95, 0.99))
        print(f"  POST → all clients     p50 {p50:7.1f} ms   p95 {p95:7.1f} ms   p99 {p99:7.1f} ms"
              f"   ({len(lat)} decisions)")
        print(f"  decisions/s            {len(lat) / res['elapsed']:7.1f}   (target: p95 ≤ 150 ms at 20 × 6)")
        servers_cpu = sum(res["cpu"][:-1])
        print(f"  CPU   servers {servers_cpu:5.1f} s ({servers_cpu / len(lat) * 1000:.1f} ms a decision"
              f", {', '.join(f'{c:.1f}' for c in res['cpu'][:-1])} s each), this client {res['cpu'][-1]:5.1f} s")
    if res["errors"]:
        print(f"  errors: {len(res['errors'])}, first: {res['errors'][0]}")


if __name__ == "__main__":
    main()
