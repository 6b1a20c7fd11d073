"""Real processes: SSE on uvicorn, two processes on one PostgreSQL, and kill -9 mid-battle."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import fresh_pg_database
from tests.server.helpers import AMBUSH, encounter_text
from tests.server.live import Server, SSEReader, get, post


def _create(server: Server, seed: int = 5) -> dict[str, Any]:
    r = post(server, "/api/tables", None, {"encounter": encounter_text(AMBUSH), "seed": seed})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def _step(server: Server, t: dict[str, Any], v: dict[str, Any]) -> dict[str, Any]:
    p = v["pending"]
    body: dict[str, Any] = {"version": v["version"]}
    body.update({"roll": True} if p["kind"] == "dice" else {"action": p["options"][-1]["key"]})
    r = post(server, f"/api/tables/{t['id']}/actions", t["tokens"]["gm"], body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[Server]:
    server = Server(str(tmp_path / "live.db")).start()
    yield server
    server.stop()


def test_sse_delivers_each_roles_view_on_a_real_server(sqlite_server: Server) -> None:
    t = _create(sqlite_server)
    stream = f"{sqlite_server.url}/api/tables/{t['id']}/events"
    readers = {who: SSEReader(stream, tok).start()
               for who, tok in [("alice", t["tokens"]["players"]["alice"]), ("spectator", t["tokens"]["spectator"]),
                                ("gm", t["tokens"]["gm"])]}
    try:
        for r in readers.values():
            assert r.wait_version(0)["version"] == 0  # the current view first
        v = get(sqlite_server, f"/api/tables/{t['id']}", t["tokens"]["gm"])
        for _ in range(4):
            v = _step(sqlite_server, t, v)
            for who, r in readers.items():
                got = r.wait_version(v["version"])
                assert got["role"]["role"] == ("player" if who == "alice" else who)
        assert all("隠れ忍ノ鬼丸" not in line for line in readers["alice"].raw + readers["spectator"].raw)
        assert any("隠れ忍ノ鬼丸" in line for line in readers["gm"].raw)
        forged = post(sqlite_server, f"/api/tables/{t['id']}/events", "x" * 43, {})
        assert forged.status_code in (403, 405)
    finally:
        for r in readers.values():
            r.close()


def test_kill_9_mid_battle_loses_nothing_not_even_a_half_typed_roll(tmp_path: Path) -> None:
    db = str(tmp_path / "crash.db")
    server = Server(db).start()
    try:
        t = _create(server, seed=9)
        tid, gm, bob = t["id"], t["tokens"]["gm"], t["tokens"]["players"]["bob"]
        v = get(server, f"/api/tables/{tid}", gm)
        for _ in range(60):  # until bob's kuro (manual dice) is to act
            if v["pending"]["kind"] == "breath" and v["pending"]["actor"] == "kuro":
                break
            v = _step(server, t, v)
        else:
            raise AssertionError("kuro never got a breath")
        attack = next(o["key"] for o in get(server, f"/api/tables/{tid}", bob)["pending"]["options"]
                      if o["key"].startswith("use:"))
        r = post(server, f"/api/tables/{tid}/actions", bob, {"version": v["version"], "action": attack})
        assert r.status_code == 200 and r.json()["pending"]["kind"] == "dice"
        before = get(server, f"/api/tables/{tid}", gm)
        server.kill9()
        server = Server(db, server.port).start()
        after = get(server, f"/api/tables/{tid}", gm)
        assert after == before  # every entry, and the roll still waiting for bob's dice
        p = after["pending"]
        r = post(server, f"/api/tables/{tid}/actions", bob, {"version": after["version"], "dice": [9] * p["count"]})
        assert r.status_code == 200, r.text
        assert any(e["kind"] == "dice" and e["author"] == "player:bob" for e in r.json()["log"])
    finally:
        server.stop()


def test_two_processes_on_one_postgresql_fan_out_by_listen_notify() -> None:
    for url in fresh_pg_database():
        a = Server(url).start()
        b = Server(url).start()
        reader: SSEReader | None = None
        try:
            t = _create(a)
            reader = SSEReader(f"{b.url}/api/tables/{t['id']}/events", t["tokens"]["players"]["alice"]).start()
            assert reader.wait_version(0)["version"] == 0
            v = get(a, f"/api/tables/{t['id']}", t["tokens"]["gm"])
            for _ in range(3):
                v = _step(a, t, v)  # posted to process a …
                assert reader.wait_version(v["version"])["version"] == v["version"]  # … reaches b's client
            # b serves writes too, and a stale write across processes is a 409
            r = post(b, f"/api/tables/{t['id']}/actions", t["tokens"]["gm"], {"version": 0, "action": "end"})
            assert r.status_code == 409
        finally:
            if reader is not None:
                reader.close()
            a.stop()
            b.stop()
