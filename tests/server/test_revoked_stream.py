"""A revoked or rotated link's open SSE stream ends at the revocation (issue #9, links): real
uvicorn processes on loopback (TestClient does not deliver cross-request SSE), SQLite and, in
CI, two processes on one PostgreSQL (the revocation reaches the other process by NOTIFY)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ikusa.server.hub import Hub, deliver, revoke_payload
from tests.server.conftest import fresh_pg_database
from tests.server.helpers import AMBUSH, encounter_text
from tests.server.live import Server, SSEReader, get, post


def _create(server: Server) -> dict[str, Any]:
    r = post(server, "/api/tables", None, {"encounter": encounter_text(AMBUSH), "seed": 5})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def _step(server: Server, t: dict[str, Any]) -> int:
    v = get(server, f"/api/tables/{t['id']}", t["tokens"]["gm"])
    p = v["pending"]
    body: dict[str, Any] = {"version": v["version"]}
    body.update({"roll": True} if p["kind"] == "dice" else {"action": p["options"][-1]["key"]})
    r = post(server, f"/api/tables/{t['id']}/actions", t["tokens"]["gm"], body)
    assert r.status_code == 200, r.text
    version: int = r.json()["version"]
    return version


def _versions(reader: SSEReader) -> list[int]:
    return [int(line[3:]) for line in reader.raw if line.startswith("id:")]


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[Server]:
    server = Server(str(tmp_path / "revoke.db")).start()
    yield server
    server.stop()


def _revoke_then_play(writer: Server, reader_server: Server, t: dict[str, Any], how: str) -> None:
    """Alice's and the spectator's streams on ``reader_server``; the GM revokes alice (or rotates
    the spectator's link) on ``writer``: that stream ends and gets nothing more, the other goes on."""
    events = f"{reader_server.url}/api/tables/{t['id']}/events"
    alice = SSEReader(events, t["tokens"]["players"]["alice"]).start()
    spectator = SSEReader(events, t["tokens"]["spectator"]).start()
    gone, stays = (alice, spectator) if how == "revoke" else (spectator, alice)
    try:
        for r in (alice, spectator):
            assert r.wait_version(0)["version"] == 0
        before = _step(writer, t)
        for r in (alice, spectator):
            assert r.wait_version(before)["version"] == before
        if how == "revoke":
            res = post(writer, f"/api/tables/{t['id']}/links/revoke", t["tokens"]["gm"],
                       {"role": "player", "name": "alice"})
        else:
            res = post(writer, f"/api/tables/{t['id']}/links/rotate", t["tokens"]["gm"], {"role": "spectator"})
        assert res.status_code == 200, res.text
        assert gone.ended.wait(10), "the revoked link's stream is still open"
        heard = list(gone.raw)
        after = [_step(writer, t) for _ in range(2)]
        assert stays.wait_version(after[-1])["version"] == after[-1]  # the others' streams go on
        assert gone.raw == heard and max(_versions(gone)) == before  # nothing after the revocation
        again = post(reader_server, f"/api/tables/{t['id']}/actions",
                     t["tokens"]["players"]["alice"] if how == "revoke" else t["tokens"]["spectator"],
                     {"version": after[-1], "roll": True})
        assert again.status_code == 403  # and the link itself is refused
        if how == "rotate":  # the new link streams
            fresh = SSEReader(events, res.json()["token"]).start()
            try:
                assert fresh.wait_version(after[-1])["version"] == after[-1]
            finally:
                fresh.close()
    finally:
        alice.close()
        spectator.close()


def test_a_revoked_players_open_stream_ends_and_gets_nothing_more(sqlite_server: Server) -> None:
    _revoke_then_play(sqlite_server, sqlite_server, _create(sqlite_server), "revoke")


def test_a_rotated_link_ends_its_stream_and_the_new_link_streams(sqlite_server: Server) -> None:
    _revoke_then_play(sqlite_server, sqlite_server, _create(sqlite_server), "rotate")


def test_a_revocation_on_one_process_ends_the_stream_on_the_other_by_notify() -> None:
    for url in fresh_pg_database():
        a = Server(url).start()
        b = Server(url).start()
        try:
            _revoke_then_play(a, b, _create(a), "revoke")
        finally:
            a.stop()
            b.stop()


def test_hub_close_ends_only_the_revoked_links_subscriptions() -> None:
    hub = Hub()

    async def main() -> tuple[bool, bool, int | None, int | None]:
        async with hub.subscribe("t1", "h-alice") as alice, hub.subscribe("t1", "h-bob") as bob, \
                hub.subscribe("t2", "h-alice") as elsewhere:
            threading.Thread(target=deliver, args=(hub, revoke_payload("t1", ["h-alice", "h-x"]))).start()
            ended = await alice.next(0, timeout=5)  # wakes at once: closed
            hub.publish("t1", 4)
            hub.publish("t2", 4)
            bob_saw = await bob.next(0, timeout=5)
            other_saw = await elsewhere.next(0, timeout=5)
            return alice.closed, bob.closed, ended, bob_saw if other_saw == 4 else None

    alice_closed, bob_closed, ended, bob_saw = asyncio.run(main())
    assert alice_closed and ended is None  # closed: nothing more, even though version 4 came
    assert not bob_closed and bob_saw == 4  # another link of the same table streams on
    assert hub.subscribers("t1") == 0


def test_notify_payloads_publish_versions_and_close_streams() -> None:
    hub = Hub()

    async def main() -> tuple[int | None, bool]:
        async with hub.subscribe("abc", "h1") as sub:
            deliver(hub, "abc 7")
            got = await sub.next(0, timeout=5)
            deliver(hub, "abc revoke h0,h1")
            await sub.next(7, timeout=5)
            return got, sub.closed

    got, closed = asyncio.run(main())
    assert got == 7 and closed
    assert revoke_payload("abc", ["h2", "h1"]) == "abc revoke h1,h2"
