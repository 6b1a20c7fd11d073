"""Across processes (PostgreSQL): the writer's NOTIFY carries its entries, and the other process
advances its kept state by them alone (no read of the log), making the same views a replay from
the database makes, per role and name (issue #9, 20 tables x 6 clients on two processes).
Also the links a service looks up are kept, and a revocation ends them at once (here, and in the
other process by its NOTIFY)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.engine import Engine

from ikusa.server import links as links_mod
from ikusa.server.cache import dumps
from ikusa.server.db import make_engine, migrate
from ikusa.server.errors import Forbidden
from ikusa.server.hub import NOTIFY_LIMIT, Hub, Subscription, deliver, entries_payload, json_rows, libpq_dsn
from ikusa.server.pg_async import PgListener
from ikusa.server.projection import Principal
from ikusa.server.service import TableService
from tests.server.helpers import AMBUSH

AUDIENCES = (("gm", ""), ("spectator", ""), ("player", "alice"), ("player", "bob"))


class Process:
    """One ``ikusa serve`` process's service, hub and LISTEN thread, in this test process."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        migrate(self.engine)
        self.hub = Hub()
        self.service = TableService(self.engine, self.hub)
        self.listener = PgListener(libpq_dsn(url), self.hub)
        self.listener.start()
        self.loop = asyncio.new_event_loop()
        self._subs: list[AbstractAsyncContextManager[Subscription]] = []
        self.entry_reads = 0

        @event.listens_for(self.engine, "before_cursor_execute")
        def _count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            if "FROM entries" in statement:
                self.entry_reads += 1

    def stream(self, table_id: str, role: str, name: str) -> None:
        """An open stream of ``role``/``name`` in this process (its audience is known to the hub)."""
        cm = self.hub.subscribe(table_id, "", (role, name))
        self.loop.run_until_complete(cm.__aenter__())
        self._subs.append(cm)

    def close(self) -> None:
        for cm in self._subs:
            self.loop.run_until_complete(cm.__aexit__(None, None, None))
        self.loop.close()
        self.listener.stop()
        self.engine.dispose()


@pytest.fixture
def two(pg_url: str) -> Iterator[tuple[Process, Process]]:
    a, b = Process(pg_url), Process(pg_url)
    try:
        yield a, b
    finally:
        a.close()
        b.close()


def _answer(proc: Process, gm: Principal, v: dict[str, Any]) -> dict[str, Any]:
    p = v["pending"]
    if p["kind"] == "dice":
        return proc.service.act(gm, v["version"], roll=True)
    return proc.service.act(gm, v["version"], action=p["options"][-1]["key"])


def _kept_view(proc: Process, who: Principal, version: int) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        cached = proc.service.views.peek(who, version)
        if cached is not None and cached.version == version:
            return cached.view
        time.sleep(0.005)
    raise AssertionError(f"{who.role} {who.name}: version {version} never reached the other process")


def test_the_other_process_advances_by_the_notified_entries_alone(two: tuple[Process, Process],
                                                                  pg_url: str) -> None:
    a, b = two
    created = a.service.create_document(AMBUSH, seed=11)
    gm = Principal(created.id, "gm")
    for role, name in AUDIENCES:
        b.stream(created.id, role, name)
    v = b.service.view(gm)  # b keeps the table from here on
    reads = b.entry_reads
    writers = (a, b)
    for step in range(40):
        if v["pending"] is None:
            break
        writer = writers[step % 2]
        if step == 6:
            v = writer.service.act(gm, v["version"], ruling={"op": "reveal", "unit": "shinobi"})
        elif step == 12:
            v = writer.service.undo(gm, v["version"])
        elif step == 16:
            v = writer.service.act(gm, v["version"], ruling={"op": "hide", "unit": "yagyu"})
        else:
            v = _answer(writer, gm, v)
        if writer is a:  # b's views of this version come from a's NOTIFY, checked against a replay
            replay = TableService(a.engine, Hub())
            for role, name in AUDIENCES:
                who = Principal(created.id, role, name)
                assert dumps(_kept_view(b, who, v["version"])) == dumps(replay.view(who)), (step, role, name)
    assert v["version"] >= 30
    assert b.entry_reads == reads, "the other process read entries it had been sent"


def test_entries_too_large_for_a_notify_are_read_from_the_database() -> None:
    rows = [(5, "chat", "gm", {"text": "x" * NOTIFY_LIMIT})]
    assert entries_payload("t1", 5, 4, json_rows(rows)) == "t1 5"
    # 2,000 characters of 3 UTF-8 bytes each: short in characters, too long in bytes
    assert entries_payload("t1", 5, 4, json_rows([(5, "chat", "gm", {"text": "攻" * 2640})])) == "t1 5"
    small = entries_payload("t1", 5, 4, json_rows([(5, "decision", "gm", {"actor": "a", "action": "攻撃"})]))
    assert small == 't1 5 4 [[5,"decision","gm",{"actor":"a","action":"攻撃"}]]'
    hub = Hub()
    got: list[tuple[str, int, list[tuple[Any, ...]]]] = []
    hub.on_entries = lambda table_id, start, entries: got.append((table_id, start, entries))
    deliver(hub, small)
    deliver(hub, "t1 6")
    assert got == [("t1", 4, [(5, "decision", "gm", {"actor": "a", "action": "攻撃"})])]


def test_a_revoked_link_kept_by_a_service_is_refused_at_once(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'links.db'}")
    migrate(engine)
    svc = TableService(engine, Hub())
    created = svc.create_document(AMBUSH, seed=3)
    token = created.tokens["players"]["alice"]
    alice = svc.principal(token, created.id)
    assert svc.principal(token, created.id) == alice  # kept
    with pytest.raises(Forbidden):
        svc.principal(token, "another-table")  # a kept link still names its own table only
    svc.revoke(Principal(created.id, "gm"), "player", "alice")
    with pytest.raises(Forbidden):
        svc.principal(token, created.id)
    engine.dispose()


def test_another_sqlite_process_trusts_a_kept_link_for_link_ttl_only(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(links_mod, "LINK_TTL", 0.3)
    engine: Engine = make_engine(f"sqlite:///{tmp_path / 'links.db'}")
    migrate(engine)
    one, other = TableService(engine, Hub()), TableService(engine, Hub())
    created = one.create_document(AMBUSH, seed=3)
    token = created.tokens["spectator"]
    other.principal(token, created.id)
    one.revoke(Principal(created.id, "gm"), "spectator")
    time.sleep(0.35)  # no NOTIFY on SQLite: the other process asks the database again after LINK_TTL
    with pytest.raises(Forbidden):
        other.principal(token, created.id)
    engine.dispose()


def test_a_revocation_in_one_postgres_process_ends_the_kept_link_in_the_other(two: tuple[Process, Process]) -> None:
    a, b = two
    created = a.service.create_document(AMBUSH, seed=3)
    token = created.tokens["players"]["bob"]
    b.service.principal(token, created.id)
    a.service.revoke(Principal(created.id, "gm"), "player", "bob")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            b.service.principal(token, created.id)
        except Forbidden:
            break
        time.sleep(0.01)
    else:
        raise AssertionError("the other process still takes the revoked link")
    assert time.monotonic() < deadline - 9  # by the NOTIFY, long before LINK_TTL would run out
