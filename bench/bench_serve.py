"""The web table under load: N tables × C SSE clients on loopback, each table acting in a loop.

Run: ``python -m bench.bench_serve [--tables 20] [--clients 6] [--seconds 20] [--db URL] [--processes P]
[--against COMMIT --rounds R]``.

Starts ``P`` real ``ikusa serve`` processes (``P`` > 1 needs PostgreSQL: they fan out by
LISTEN/NOTIFY), opens ``N`` tables (examples/maai/squad_battle.yaml, every unit the GM's,
auto dice, so a POST is one decision), connects ``C`` SSE clients per table spread over the
processes, and lets each table's GM post the next decision as soon as the last one reached
all of its clients.  A finished battle is replaced by a fresh table.  Prints p50/p95/p99 of
the time from sending the POST until every client of the table has the new version, and
decisions/s, and the CPU time of the servers, of this client and (PostgreSQL) of the database's
processes, per decision (backends that ended during the run are not counted).  Anchor, same run:
the round trip of ``GET /healthz`` on the same servers.  The client (raw keep-alive connections,
on uvloop when installed) shares the cores with the servers it measures.
``--against COMMIT`` runs the servers of that commit too (its source tree from ``git archive``,
``bench/baseline.py``), alternating with this tree round by round, and prints the medians: on a
shared machine only figures from the same run compare.
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
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.live import Server  # noqa: E402

ENCOUNTER = ROOT / "examples" / "maai" / "squad_battle.yaml"


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _pg_children(db: str) -> dict[int, float]:
    """CPU seconds so far of every process of the PostgreSQL server at ``db`` (its postmaster's
    children: the backends of every connection, the WAL writer …): the database runs on the same
    cores, so its CPU is part of what a decision costs.  Empty for SQLite."""
    if not db.startswith("postgresql"):
        return {}
    import psycopg

    from ikusa.server.hub import libpq_dsn

    with psycopg.connect(libpq_dsn(db)) as conn:
        row = conn.execute("SHOW data_directory").fetchone()
    postmaster = int((Path(str(row[0] if row else "")) / "postmaster.pid").read_text().split()[0])
    out: dict[int, float] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[1]) == postmaster:
            out[int(stat.parent.name)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop for this client when it is installed (``ikusa serve`` runs on it too): the
    client shares the 2 cores with the servers, and asyncio's own loop cost it a third more CPU."""
    try:
        import uvloop
    except ImportError:
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def _quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


class Conn:
    """One keep-alive HTTP/1.1 connection on raw asyncio streams: the bench's client is not the
    system under test, and on 2 cores whatever CPU it spends is taken from the server (httpx
    spent about as much CPU per decision as the server did)."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> Conn:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        return self

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()

    async def head(self, method: str, path: str, token: str, body: bytes = b"") -> tuple[int, dict[bytes, bytes]]:
        """Send a request; the status and the headers of its response."""
        assert self.reader is not None and self.writer is not None
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", f"Authorization: Bearer {token}"]
        if body:
            lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        status = int((await self.reader.readline()).split()[1])
        headers: dict[bytes, bytes] = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            k, _, v = line.partition(b":")
            headers[k.strip().lower()] = v.strip()
        return status, headers

    async def body(self, headers: dict[bytes, bytes]) -> bytes:
        assert self.reader is not None
        if b"content-length" in headers:
            return await self.reader.readexactly(int(headers[b"content-length"]))
        out = b""
        while chunk := await self.chunk():
            out += chunk
        return out

    async def chunk(self) -> bytes:
        """The next chunk of a chunked body (``b""`` at its end)."""
        assert self.reader is not None
        size = int((await self.reader.readline()).split(b";")[0], 16)
        data = await self.reader.readexactly(size + 2)
        return data[:-2]

    async def request(self, method: str, path: str, token: str, body: bytes = b"") -> tuple[int, bytes]:
        try:
            status, headers = await self.head(method, path, token, body)
        except (IndexError, ConnectionError):  # the server closed it while idle (keep-alive timeout)
            self.close()
            await self.open()
            status, headers = await self.head(method, path, token, body)
        return status, await self.body(headers)


class Reader:
    """One SSE client: the time each version first arrived (its ``id:``)."""

    def __init__(self) -> None:
        self.seen: dict[int, float] = {}
        self.latest = -1
        self.changed = asyncio.Event()

    async def run(self, url: str, path: str, token: str) -> None:
        conn = await Conn(url).open()
        try:
            status, _ = await conn.head("GET", path, token)
            if status != 200:
                raise RuntimeError(f"the stream answered {status}")
            while chunk := await conn.chunk():  # the server sends each event as one chunk
                at = chunk.rfind(b"\nid: ")
                if at < 0:
                    continue  # a keep-alive comment
                v = int(chunk[at + 5:chunk.index(b"\n", at + 1)])
                if v > self.latest:
                    self.latest = v
                    self.seen[v] = time.perf_counter()
                    self.changed.set()
        finally:
            conn.close()

    async def wait(self, version: int) -> float:
        while self.latest < version:
            self.changed.clear()
            await self.changed.wait()
        return min(t for v, t in self.seen.items() if v >= version)


async def _table_loop(servers: list[Server], clients: int, text: str, seconds: float, go: asyncio.Barrier,
                      latencies: list[float], errors: list[str]) -> None:
    posts = [await Conn(s.url).open() for s in servers]
    deadline = 0.0
    try:
        while not deadline or time.perf_counter() < deadline:
            status, raw = await posts[0].request("POST", "/api/tables", "-", json.dumps(
                {"encounter": text, "format": "json"}).encode())
            if status != 201:
                raise RuntimeError(f"POST /api/tables answered {status}: {raw[:200]!r}")
            t = json.loads(raw)
            gm = t["tokens"]["gm"]
            readers = [Reader() for _ in range(clients)]
            tasks = [asyncio.create_task(rd.run(servers[i % len(servers)].url, f"/api/tables/{t['id']}/events",
                                                t["tokens"]["spectator"]))
                     for i, rd in enumerate(readers)]
            for rd in readers:
                await rd.wait(t["version"])
            if not deadline:  # every table and client connected: the clock starts for all at once
                await go.wait()
                deadline = time.perf_counter() + seconds
            view = orjson.loads((await posts[0].request("GET", f"/api/tables/{t['id']}", gm))[1])
            n = 0
            while view["pending"] is not None and time.perf_counter() < deadline:
                conn = posts[n % len(posts)]
                n += 1
                key = view["pending"]["options"][0]["key"]
                body = json.dumps({"version": view["version"], "action": key, "log_since": view["version"]}).encode()
                start = time.perf_counter()
                status, raw = await conn.request("POST", f"/api/tables/{t['id']}/actions", gm, body)
                if status != 200:
                    errors.append(f"{status} {raw[:200]!r}")
                    break
                view = orjson.loads(raw)
                arrived = [await rd.wait(view["version"]) for rd in readers]
                latencies.append(max(arrived) - start)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        for c in posts:
            c.close()


async def _healthz(servers: list[Server], n: int = 50) -> float:
    times = []
    async with httpx.AsyncClient() as http:
        for i in range(n):
            start = time.perf_counter()
            await http.get(servers[i % len(servers)].url + "/healthz")
            times.append(time.perf_counter() - start)
    return statistics.median(times)


async def _run(servers: list[Server], tables: int, clients: int, seconds: float, db: str) -> dict[str, Any]:
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
    pg0 = _pg_children(db)
    start = time.perf_counter()
    await loops
    elapsed = time.perf_counter() - start
    cpu = [_cpu_seconds(p) - c for p, c in zip(pids, cpu0, strict=False)] + [time.process_time() - cpu0[-1]]
    pg = sum(c - pg0.get(p, 0.0) for p, c in _pg_children(db).items())
    return {"anchor": anchor, "latencies": latencies, "elapsed": elapsed, "errors": errors, "cpu": cpu, "pg": pg}


def _measure(db: str, processes: int, tables: int, clients: int, seconds: float,
             tree: Path | None = None) -> dict[str, Any]:
    """One run on fresh server processes; ``tree``: the servers run that source tree's ikusa."""
    saved = os.environ.get("PYTHONPATH")
    if tree is not None:
        os.environ["PYTHONPATH"] = str(tree)
    try:
        servers = [Server(db).start(60) for _ in range(processes)]
    finally:
        if tree is not None:
            if saved is None:
                os.environ.pop("PYTHONPATH", None)
            else:
                os.environ["PYTHONPATH"] = saved
    try:
        with asyncio.Runner(loop_factory=_loop_factory()) as runner:
            res = runner.run(_run(servers, tables, clients, seconds, db))
    finally:
        for s in servers:
            s.stop()
    res["load"] = Path("/proc/loadavg").read_text().split()[0]
    return res


def _report(label: str, res: dict[str, Any], backend: str, args: argparse.Namespace) -> list[float] | None:
    lat = res["latencies"]
    print(f"bench_serve: {label}{backend}, {args.processes} process(es), {args.tables} tables × {args.clients} SSE "
          f"clients, {res['elapsed']:.1f} s, load average {res['load']} (2 cores)")
    print(f"  anchor GET /healthz round trip p50 {res['anchor'] * 1000:7.1f} ms")
    if res["errors"]:
        print(f"  errors: {len(res['errors'])}, first: {res['errors'][0]}")
    if not lat:
        return None
    p50, p95, p99 = (_quantile(lat, q) * 1000 for q in (0.5, 0.95, 0.99))
    print(f"  POST → all clients     p50 {p50:7.1f} ms   p95 {p95:7.1f} ms   p99 {p99:7.1f} ms"
          f"   ({len(lat)} decisions)")
    print(f"  decisions/s            {len(lat) / res['elapsed']:7.1f}   (target: p95 ≤ 150 ms at 20 × 6)")
    servers_cpu = sum(res["cpu"][:-1])
    per = servers_cpu / len(lat) * 1000
    print(f"  CPU   servers {servers_cpu:5.1f} s ({per:.1f} ms a decision"
          f", {', '.join(f'{c:.1f}' for c in res['cpu'][:-1])} s each), this client {res['cpu'][-1]:5.1f} s"
          + (f", PostgreSQL {res['pg']:5.1f} s ({res['pg'] / len(lat) * 1000:.1f} ms a decision)"
             if backend.startswith("postgresql") else ""))
    return [p50, p95, p99, len(lat) / res["elapsed"], per]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--clients", type=int, default=6)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--db", default="", help="database URL (default: a fresh SQLite file)")
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("--against", default="", metavar="COMMIT",
                    help="also run the servers of COMMIT (git archive, bench/baseline.py), interleaved round by round")
    ap.add_argument("--rounds", type=int, default=1, help="runs of each side (with --against: ours, then theirs)")
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    db = args.db or f"sqlite:///{Path(tmp.name) / 'bench.db'}"
    if args.processes > 1 and db.startswith("sqlite"):
        ap.error("several processes need PostgreSQL (--db postgresql+psycopg://…)")
    sides: list[tuple[str, Path | None]] = [("", None)]
    if args.against:
        from bench.baseline import checkout

        sides.append((f"{args.against} ", checkout(args.against)))
    backend = db.split(":", 1)[0]
    figures: dict[str, list[list[float]]] = {label: [] for label, _ in sides}
    try:
        for _ in range(args.rounds):
            for label, tree in sides:
                res = _measure(db, args.processes, args.tables, args.clients, args.seconds, tree)
                got = _report(label or "this tree, ", res, backend, args)
                if got is not None:
                    figures[label].append(got)
    finally:
        tmp.cleanup()
    if len(sides) > 1 or args.rounds > 1:
        print("median of the rounds        p50      p95      p99  decisions/s  server ms a decision")
        for label, rows in figures.items():
            if rows:
                med = [statistics.median(col) for col in zip(*rows, strict=True)]
                print(f"  {label or 'this tree':14s} {med[0]:8.1f} {med[1]:8.1f} {med[2]:8.1f} {med[3]:10.1f}"
                      f" {med[4]:10.1f}")


if __name__ == "__main__":
    main()
