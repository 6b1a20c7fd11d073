"""Live updates: an in-process pub/sub hub, fanned out across processes by PostgreSQL.

Writers call :meth:`Hub.publish` (``table_id``, ``version``) after their transaction has
committed; every subscriber of that table (an SSE stream, in an asyncio loop) gets the
new version and renders its own role's view.  Publishing is thread-safe (the service runs
in worker threads) and never blocks: a slow subscriber only keeps the newest version.

With PostgreSQL the writer also sends ``NOTIFY ikusa_tables, '<id> <version> <start>
<entries>'`` inside its transaction (delivered on commit), and each process ``LISTEN``\\ s on a
connection of its own (:func:`ikusa.server.pg_async.listen`, on the server's loop) and
publishes what arrives into the local hub (:func:`deliver`; the writer's own process finds
its version published already, and nothing more happens); so
an action posted to one ``ikusa serve`` process reaches the SSE clients of every other one.  The
entries (when they fit in a payload) let another process advance its kept state by them alone
(:attr:`Hub.on_entries`), without reading the database.

A revoked or rotated link ends its open streams: :meth:`Hub.close` (``table_id`` and the
SHA-256 hashes of the revoked tokens) marks every subscription opened with one of them
closed, and its stream ends without sending anything more.  With PostgreSQL the revoker
sends ``NOTIFY ikusa_tables, '<id> revoke <hash>,<hash>…'`` instead, so the streams of
every process end.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from contextlib import asynccontextmanager, suppress
from typing import Any

import orjson

CHANNEL = "ikusa_tables"
#: bytes of a NOTIFY payload at most (PostgreSQL refuses 8000 and more)
NOTIFY_LIMIT = 7900
#: the word of a NOTIFY payload that closes streams: ``"<table_id> revoke <hash>,<hash>"``
REVOKE = "revoke"


def revoke_payload(table_id: str, token_hashes: Collection[str]) -> str:
    """The NOTIFY payload that closes the streams of ``token_hashes`` in every process."""
    return f"{table_id} {REVOKE} {','.join(sorted(token_hashes))}"


class Subscription:
    """One subscriber's mailbox: the newest version published for its table, and whether
    the link it was opened with has been revoked (:attr:`closed`).

    Waiting costs no timer per wait: :meth:`next`'s ``timeout`` is an idle time, kept by one
    timer per subscription that fires at most once per ``timeout`` and re-arms itself to the
    last activity (a busy stream's waits make no timer objects at all)."""

    def __init__(self, table_id: str, loop: asyncio.AbstractEventLoop, token_hash: str = "",
                 audience: tuple[str, str] | None = None) -> None:
        self.table_id = table_id
        self.loop = loop
        self.token_hash = token_hash
        self.audience = audience
        self.latest = 0
        self.closed = False
        self._event = asyncio.Event()
        self._idle = False
        self._idle_after = 0.0
        self._active_at = loop.time()
        self._timer: asyncio.TimerHandle | None = None

    def _offer(self, version: int) -> None:  # runs in the subscriber's loop
        if version > self.latest:
            self.latest = version
            self._event.set()

    def _close(self) -> None:  # runs in the subscriber's loop
        self.closed = True
        self._event.set()

    def _check_idle(self) -> None:  # the idle timer: quiet for ``_idle_after`` seconds?
        due = self._active_at + self._idle_after
        if self.loop.time() >= due - 0.001:
            self._timer = None
            self._idle = True
            self._event.set()
        else:  # something happened since it was armed: wait the rest from then
            self._timer = self.loop.call_at(due, self._check_idle)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def next(self, seen: int, timeout: float | None = None) -> int | None:
        """Wait for a version newer than ``seen``; ``None`` after ``timeout`` seconds without one
        (counted from the last return of :meth:`next`) or once :attr:`closed`."""
        while self.latest <= seen and not self.closed:
            if self._idle:
                self._idle = False
                self._active_at = self.loop.time()
                return None
            self._event.clear()
            if timeout is not None and (self._timer is None or self._idle_after != timeout):
                self._stop_timer()
                self._idle_after = timeout
                self._timer = self.loop.call_at(self._active_at + timeout, self._check_idle)
            await self._event.wait()
        self._active_at = self.loop.time()
        self._idle = False
        return None if self.closed else self.latest


class Hub:
    """Subscribers by table id; :meth:`publish` from any thread."""

    def __init__(self) -> None:
        self._subs: dict[str, set[Subscription]] = {}
        self._lock = threading.Lock()
        #: called by :meth:`close` with ``(table_id, token_hashes)`` before the streams are told
        #: (the service forgets the links it had looked up)
        self.on_close: list[Callable[[str, Collection[str]], None]] = []
        #: called by :func:`deliver` with ``(table_id, start, rows)``: the entries another process
        #: committed after version ``start``, before their version is published
        self.on_entries: Callable[[str, int, list[tuple[Any, ...]]], None] | None = None

    def publish(self, table_id: str, version: int) -> None:
        """Tell every subscriber of ``table_id`` (from any thread): one wake-up of each other
        loop for all its subscribers, none for the running loop's own."""
        with self._lock:
            subs = self._subs.get(table_id)
            if not subs:
                return
            by_loop: dict[asyncio.AbstractEventLoop, list[Subscription]] = {}
            for sub in subs:
                by_loop.setdefault(sub.loop, []).append(sub)
        try:
            here: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:  # a worker thread
            here = None
        for loop, group in by_loop.items():
            if loop is here:  # a write made on the event loop itself: no wake-up through its pipe
                _offer_all(group, version)
                continue
            with suppress(RuntimeError):  # its loop has closed
                loop.call_soon_threadsafe(_offer_all, group, version)

    def close(self, table_id: str, token_hashes: Collection[str]) -> int:
        """End the streams of ``table_id`` opened with one of ``token_hashes`` (revoked links);
        returns how many were told."""
        hashes = set(token_hashes)
        for forget in self.on_close:
            forget(table_id, hashes)
        with self._lock:
            subs = [s for s in self._subs.get(table_id, ()) if s.token_hash and s.token_hash in hashes]
        for sub in subs:
            with suppress(RuntimeError):  # its loop has closed
                sub.loop.call_soon_threadsafe(sub._close)
        return len(subs)

    def subscribers(self, table_id: str) -> int:
        with self._lock:
            return len(self._subs.get(table_id, ()))

    def audiences(self, table_id: str) -> set[tuple[str, str]]:
        """The ``(role, name)`` pairs whose streams of ``table_id`` are open in this process (a
        writer makes their views while it holds the new state: no stream asks a thread for one)."""
        with self._lock:
            return {s.audience for s in self._subs.get(table_id, ()) if s.audience is not None}

    @asynccontextmanager
    async def subscribe(self, table_id: str, token_hash: str = "",
                        audience: tuple[str, str] | None = None) -> AsyncIterator[Subscription]:
        """A subscription to ``table_id``; ``token_hash`` (of the link the stream was opened
        with) lets :meth:`close` end it when that link is revoked; ``audience`` is the
        ``(role, name)`` whose view the stream sends (see :meth:`audiences`)."""
        sub = Subscription(table_id, asyncio.get_running_loop(), token_hash, audience)
        with self._lock:
            self._subs.setdefault(table_id, set()).add(sub)
        try:
            yield sub
        finally:
            sub._stop_timer()
            with self._lock:
                subs = self._subs.get(table_id)
                if subs is not None:
                    subs.discard(sub)
                    if not subs:
                        del self._subs[table_id]


def _offer_all(subs: list[Subscription], version: int) -> None:  # runs in the subscribers' loop
    for sub in subs:
        sub._offer(version)


def json_rows(rows: Sequence[Sequence[Any]]) -> str:
    """Entries as one compact JSON text, ``[[seq, kind, author, payload], …]`` (orjson; what it
    does not take, an integer past 64 bits, by the standard encoder: the same JSON)."""
    try:
        return orjson.dumps(rows, option=orjson.OPT_NON_STR_KEYS).decode("utf-8")
    except TypeError:
        return json.dumps(rows, ensure_ascii=False, separators=(",", ":"))


def entries_payload(table_id: str, version: int, start: int, rows: str) -> str:
    """The NOTIFY payload of a write that took ``table_id`` from ``start`` to ``version`` with the
    entries ``rows`` (:func:`json_rows`): ``"<id> <version> <start> <rows>"``, or ``"<id>
    <version>"`` when the entries do not fit in PostgreSQL's limit (:data:`NOTIFY_LIMIT`; the other
    processes then read them)."""
    text = f"{table_id} {version} {start} {rows}"
    return text if len(text) <= NOTIFY_LIMIT // 4 or len(text.encode("utf-8")) <= NOTIFY_LIMIT else \
        f"{table_id} {version}"


def deliver(hub: Hub, payload: str) -> None:
    """Publish one NOTIFY payload into ``hub``: ``"<id> <version>"``, ``"<id> <version> <start>
    <rows>"`` (the entries go to :attr:`Hub.on_entries` first) or ``"<id> revoke <hashes>"``."""
    table_id, _, rest = payload.partition(" ")
    word, _, tail = rest.partition(" ")
    if word == REVOKE:
        hub.close(table_id, [h for h in tail.split(",") if h])
        return
    try:
        version = int(word)
    except ValueError:
        return
    if tail and hub.on_entries is not None:
        start, _, rows = tail.partition(" ")
        with suppress(ValueError):
            hub.on_entries(table_id, int(start), [tuple(r) for r in orjson.loads(rows)])
    hub.publish(table_id, version)


def libpq_dsn(sqlalchemy_url: str) -> str:
    """``postgresql+psycopg://…`` as a libpq connection string for psycopg."""
    from sqlalchemy.engine import make_url

    url = make_url(sqlalchemy_url)
    return str(url.set(drivername="postgresql").render_as_string(hide_password=False))
