"""PostgreSQL writes after the database dropped the connections kept (a restart; here
``pg_terminate_backend``): a write lands exactly once, on the threaded path (SQLAlchemy's pool,
pinged at checkout) and on the event loop's own connections (:class:`ikusa.server.pg_async.PgWriter`,
not pinged: a write on a dropped one is sent once more on a new one); a stale version on the
loop's path is refused with the fresh view and writes nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest
from sqlalchemy import text

from ikusa.server.db import make_engine, migrate
from ikusa.server.errors import Conflict
from ikusa.server.hub import Hub, libpq_dsn
from ikusa.server.pg_async import PgWriter
from ikusa.server.projection import Principal
from ikusa.server.service import TableService
from tests.server.helpers import AMBUSH

GM_ONLY = {**AMBUSH, "control": {}}  # every unit the GM's, dice rolled by the server: a POST is a decision


def _drop_other_connections(url: str) -> int:
    """End every other connection to the test database (as a restart of the server would)."""
    with psycopg.connect(libpq_dsn(url), autocommit=True) as conn:
        rows = conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                            "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchall()
    return len(rows)


def _entries(svc: TableService, table_id: str) -> list[int]:
    with svc.engine.connect() as conn:
        return [r[0] for r in conn.execute(text("SELECT seq FROM entries WHERE table_id = :t ORDER BY seq"),
                                           {"t": table_id})]


def _key(view: dict[str, Any]) -> str:
    key: str = view["pending"]["options"][0]["key"]
    return key


def test_a_threaded_write_after_the_connections_were_dropped_lands_once(pg_url: str) -> None:
    engine = make_engine(pg_url)
    migrate(engine)
    svc = TableService(engine, Hub())
    created = svc.create_document(GM_ONLY, seed=5)
    gm = Principal(created.id, "gm")
    v = svc.act(gm, created.version, action=_key(svc.view(gm)))  # the pool now keeps a connection
    assert _drop_other_connections(pg_url) >= 1
    after = svc.act(gm, v["version"], action=_key(v))
    assert after["version"] == v["version"] + 1
    assert _entries(svc, created.id) == list(range(1, after["version"] + 1))  # each entry once, none lost
    engine.dispose()


def test_the_loops_writer_survives_a_dropped_connection_and_refuses_a_stale_version(pg_url: str) -> None:
    engine = make_engine(pg_url)
    migrate(engine)
    svc = TableService(engine, Hub())
    created = svc.create_document(GM_ONLY, seed=6)
    gm = Principal(created.id, "gm")

    async def main() -> tuple[dict[str, Any], dict[str, Any], Conflict]:
        svc.pg_writer = PgWriter(libpq_dsn(pg_url))
        try:
            v = await svc.act_async(gm, created.version, action=_key(svc.view(gm)))
            assert _drop_other_connections(pg_url) >= 1  # the writer's kept connection among them
            after = await svc.act_async(gm, v["version"], action=_key(v))
            with pytest.raises(Conflict) as stale:
                await svc.act_async(gm, v["version"], action=_key(v))
            return v, after, stale.value
        finally:
            await svc.pg_writer.close()

    v, after, stale = asyncio.run(main())
    assert after["version"] == v["version"] + 1
    assert stale.view is not None and stale.view["version"] == after["version"]  # the fresh view goes with it
    assert _entries(svc, created.id) == list(range(1, after["version"] + 1))
    # another process (a fresh service) replays the same table from the database
    assert TableService(engine, Hub()).view(gm)["version"] == after["version"]
    engine.dispose()
