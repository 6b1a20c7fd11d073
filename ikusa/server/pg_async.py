"""PostgreSQL on the server's event loop: the write statement and the LISTEN loop, with no
worker thread between a request and the database.

A write (:meth:`PgWriter.write`) is one autocommit statement, as the threaded path
(:meth:`TableService._commit_pg`) sends it: the compare-and-set on the version, the entries
and ``pg_notify``.  It runs on a few kept :class:`psycopg.AsyncConnection`\\ s of the loop
(prepared by psycopg after a few uses), so the loop sends it and serves other requests
until the answer comes, where a thread per write cost a hop there and back and GIL hand-offs
(``bench/bench_serve.py``).  A connection found broken (the database restarted) is dropped
and the write sent once more on a new one; had the first reached the database, the second
finds the version moved (409).

:func:`listen` is the LISTEN loop (``NOTIFY ikusa_tables``): each notification goes to
:func:`ikusa.server.hub.deliver` on the loop itself, so the streams of this process are told
without a wake-up from another thread.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import psycopg

from ikusa.server.hub import CHANNEL, Hub, deliver

#: the write: see ``ikusa.server.service._WRITE_PG`` (the same statement, psycopg's placeholders)
WRITE = (
    "WITH bump AS (UPDATE tables SET version = %(b_new)s WHERE id = %(b_id)s AND version = %(b_seen)s "
    "RETURNING id), "
    "added AS (INSERT INTO entries (table_id, seq, kind, author, payload) "
    "SELECT bump.id, (r->>0)::integer, r->>1, r->>2, r->3 FROM bump, "
    "json_array_elements(CAST(%(rows)s AS json)) AS r RETURNING 1) "
    "SELECT pg_notify(%(c)s, %(p)s) FROM bump")

#: connections kept open for writes (more are opened for a burst and closed after it)
KEPT = 16


class PgWriter:
    """Writes on kept async connections (made on first use; each reused only in its own loop)."""

    def __init__(self, dsn: str, kept: int = KEPT) -> None:
        self.dsn = dsn
        self.kept = kept
        self._idle: list[psycopg.AsyncConnection[Any]] = []
        self._loop: asyncio.AbstractEventLoop | None = None

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        return await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)

    async def write(self, params: dict[str, Any]) -> bool:
        """Send :data:`WRITE` with ``params``; whether the compare-and-set found its version."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # connections belong to the loop they were made in
            self._idle, self._loop = [], loop
        for attempt in (1, 2):
            conn = self._idle.pop() if self._idle else await self._connect()
            try:
                cur = await conn.execute(WRITE, params)
                written = await cur.fetchone() is not None
            except psycopg.OperationalError:
                broken = conn.broken or conn.closed
                await conn.close()
                if attempt == 2 or not broken:
                    raise
                continue
            except BaseException:  # cancelled mid-statement, or refused: the connection is not reused
                await conn.close()
                raise
            if len(self._idle) < self.kept:
                self._idle.append(conn)
            else:
                await conn.close()
            return written
        raise AssertionError("unreachable")

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for conn in idle:
            await conn.close()


async def listen(dsn: str, hub: Hub, ready: Callable[[], None] = lambda: None,
                 retry: float = 0.5) -> None:
    """``LISTEN`` on PostgreSQL and deliver every notification into ``hub`` on this loop, until
    cancelled; ``ready()`` once listening.  A lost connection is made again after ``retry`` s."""
    while True:
        try:
            conn = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
            try:
                await conn.execute(f"LISTEN {CHANNEL}")
                ready()
                async for note in conn.notifies():
                    deliver(hub, note.payload)
            finally:
                await conn.close()
        except psycopg.Error:
            await asyncio.sleep(retry)


class PgListener:
    """:func:`listen` in a thread with a loop of its own (a process whose loop is not the
    server's: the tests' services); ``ikusa serve`` runs :func:`listen` on its own loop."""

    def __init__(self, dsn: str, hub: Hub) -> None:
        self.dsn = dsn
        self.hub = hub
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()), name="ikusa-pg-listen",
                                        daemon=True)

    def start(self, timeout: float = 10.0) -> None:
        self._thread.start()
        self._ready.wait(timeout)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=3)

    async def _main(self) -> None:
        task = asyncio.create_task(listen(self.dsn, self.hub, self._ready.set))
        while not self._stop.is_set():
            await asyncio.sleep(0.05)
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
