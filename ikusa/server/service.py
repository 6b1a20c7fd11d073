"""The table service: every read and write of a table, for the pages, the JSON API and SSE.

Service API (for the page layer, ``ikusa/server/pages*.py``)
------------------------------------------------------------
Get the service of an app with ``app.state.service`` (a :class:`TableService`), the hub
with ``app.state.hub``.  Every method is synchronous (call it from a plain ``def`` route,
which FastAPI runs in a worker thread, or wrap it in ``run_in_threadpool``); every refusal
is a :class:`~ikusa.server.errors.ServiceError` subclass with ``.status`` and ``.error``
(and ``.view`` for a 409), which the app turns into ``{"error": …}`` for ``/api`` routes.

Who is asking:

* ``principal_from_request(request, table_id)`` (``ikusa.server.auth``) → a
  :class:`~ikusa.server.projection.Principal` (``role`` ``gm``/``player``/``spectator``,
  ``name``), from the table's cookie ``ikusa_<table_id>`` or ``Authorization: Bearer``;
  raises ``Forbidden``.  ``GET /join/{token}`` sets the cookie and redirects to
  ``/tables/{id}`` (the page route is the page layer's).
* ``service.principal(token)`` → ``Principal`` for a raw token (``Forbidden`` if forged,
  revoked or of another table when ``table_id`` is given).

Tables:

* ``create_table(text, fmt="yaml", seed=None)`` → :class:`Created` (``id``, ``version``,
  ``tokens = {"gm": t, "players": {name: t}, "spectator": t}``); ``Unprocessable`` names the
  field of a malformed encounter, ``TooLarge`` above ``MAX_UPLOAD_BYTES``.
  ``preview(text, fmt)`` validates without creating (a ``TableSetup``: ``units``,
  ``hidden``, ``players()``).  ``create_document(doc)`` takes a parsed mapping
  (``ikusa.server.examples.example_document(name)`` for a shipped example).  Control comes
  from the encounter's ``control:`` section (the core's, docs/gm-control.md); players are
  its ``player:<name>`` controllers; ``hidden: true`` on a unit hides it from players.
* ``create_from_log(log: dict)`` continues an exported ``ikusa-log`` (v1 or v2).
* ``view(principal)`` → the role's view (``ikusa.server.projection.project``): ``version``,
  ``units`` (the system summary per unit + ``controller``, ``mine``; GM also ``dice``,
  ``hidden``), ``board`` (summary extras: ``winner``, ``maai``/``turn``/``round``),
  ``tracker`` (the core's ``board(state)``: title, columns, rows with ``marks``, notes),
  ``pending`` (``None`` when over; a decision ``{kind, actor, actor_name, prompt,
  options[{key,label,cost,odds}], may_answer}`` or a dice request ``{kind: "dice", roller,
  roller_name, sides, count, notation, sum_only, mode, purpose, typed[{value,sides,by}],
  may_answer}``), ``log`` (``{seq, kind, text, rule, author}``; kind ``event``, ``ruling``,
  ``note`` (GM only), ``dice`` (typed, ``author`` = who typed), ``partial`` (events of an
  action still waiting for dice)), ``chat``, ``role`` ``{role, name, units}``, ``over``;
  GM also ``can_undo``/``can_redo``.  Views are cached per version and role and shared:
  never mutate one.  ``trim_log(view, since)`` keeps only newer log lines;
  ``view_json(principal, min_version, log_since)`` → ``(version, text)``;
  ``memo(principal, view, name, make)`` → ``make()`` once per view and name, shared by the
  clients of that role and name only (a page's HTML fragments: render once per version).

Writes (each carries the ``version`` the caller saw; stale → ``Conflict`` with the fresh
view; each is committed before it returns the new view, then published on the hub):

* ``act(principal, version, action=…)`` / ``act(…, dice=[…])`` / ``act(…, roll=True)`` /
  ``act(…, ruling={…})`` (GM only; ``op`` ``note``, ``control``, ``reveal``, ``hide`` and
  the core's ruling ops: set, effect, condition, add_unit, skip_turn, end …);
  ``dice=[n]`` for a ``sum_only`` pool of several dice is its sum; ``undo``, ``redo``
  (honest: the same action again gets the same dice), ``reroll(principal, version, reason)``.
  AI-controlled units (``ai:<policy>``) act by themselves after every write.
* ``chat(principal, text, version=None)``: any BCDice command (via :func:`ikusa.roll` for the
  table's system) or plain text; ``S`` prefix = secret.  ``reveal(principal, seq)``.
* ``rotate(principal, role, name="")`` → the new token (old one revoked);
  ``revoke(principal, role, name="")``; ``links(principal)`` (GM) lists the roles.  A revoked
  link's open SSE streams end at once, in every process (``Hub.close``; PostgreSQL: NOTIFY).
* ``export_log(principal)`` → the ``ikusa-log`` JSON ``ikusa play --load`` resumes.

Live: ``ikusa.server.sse.view_events(request, principal, render)`` is the async iterator of
an SSE route (``response_class=EventSourceResponse``); the page layer supplies
``render(view, principal) -> list[ServerSentEvent]`` (``raw_data=`` for HTML fragments).
The JSON API's ``/api/tables/{id}/events`` uses it with ``render_json``.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, insert, select, text, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session

import ikusa
from ikusa.dice.source import RandomSource
from ikusa.engine.errors import IkusaError
from ikusa.server.cache import CachedView, SetupCache, StateCache, ViewCache, trim_log
from ikusa.server.db import Base, is_postgres
from ikusa.server.entries import Row, act_build, ai_chain, push, seed_of
from ikusa.server.errors import Conflict, Forbidden, NotFound, ServiceError, TooLarge, Unprocessable
from ikusa.server.hub import CHANNEL, Hub, entries_payload, json_rows
from ikusa.server.links import LinkService, hash_token
from ikusa.server.pg_async import PgWriter
from ikusa.server.projection import Principal, project
from ikusa.server.setup import MAX_UPLOAD_BYTES, TableSetup, parse_text
from ikusa.server.table import TableState

MAX_CHAT = 400

__all__ = ["Created", "TableService", "hash_token", "trim_log"]

_TABLES = Base.metadata.tables["tables"]
_ENTRIES = Base.metadata.tables["entries"]
# built once: SQLAlchemy compiles each statement once and reuses it (a write is 2 statements)
_BUMP = (update(_TABLES).where(_TABLES.c.id == bindparam("b_id"), _TABLES.c.version == bindparam("b_seen"))
         .values(version=bindparam("b_new")))
_INSERT_ENTRIES = insert(_ENTRIES)
_TABLE = select(_TABLES.c.setup, _TABLES.c.seed).where(_TABLES.c.id == bindparam("b_id"))
_NEWER = (select(_ENTRIES.c.seq, _ENTRIES.c.kind, _ENTRIES.c.author, _ENTRIES.c.payload)
          .where(_ENTRIES.c.table_id == bindparam("b_id"), _ENTRIES.c.seq > bindparam("b_seq"))
          .order_by(_ENTRIES.c.seq))
#: PostgreSQL's write: data-modifying WITH parts run to completion in the one statement, and the
#: entries and the NOTIFY follow the compare-and-set only when it found the version (a row back).
#: ``:rows`` is the entries as one JSON text, ``[[seq, kind, author, payload], …]``: the same text
#: the NOTIFY carries (:func:`~ikusa.server.hub.entries_payload`), encoded once
_WRITE_PG = text(
    "WITH bump AS (UPDATE tables SET version = :b_new WHERE id = :b_id AND version = :b_seen RETURNING id), "
    "added AS (INSERT INTO entries (table_id, seq, kind, author, payload) "
    "SELECT bump.id, (r->>0)::integer, r->>1, r->>2, r->3 FROM bump, "
    "json_array_elements(CAST(:rows AS json)) AS r RETURNING 1) "
    "SELECT pg_notify(:c, :p) FROM bump")


@dataclass(slots=True)
class Created:
    id: str
    version: int
    tokens: dict[str, Any] = field(default_factory=dict)


def _user_error(exc: IkusaError) -> Unprocessable:
    return Unprocessable(str(exc))


class TableService(LinkService):
    """Tables on one database; a cache of replayed states per table in this process."""

    def __init__(self, engine: Engine, hub: Hub) -> None:
        self.engine = engine
        self.hub = hub
        self.postgres = is_postgres(str(engine.url))
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self.views = ViewCache()
        self._states = StateCache(lambda table_id: hub.subscribers(table_id) > 0, self.views.drop)
        self.setups = SetupCache()
        self._sqlite_writer = threading.Lock()
        #: per table, for :meth:`act_async` (the coroutines of one loop take turns before the thread lock)
        self._alocks: dict[str, asyncio.Lock] = {}
        #: PostgreSQL writes on the event loop (set by the app; ``None``: every write in a thread)
        self.pg_writer: PgWriter | None = None
        self._init_links()
        hub.on_entries = self.advance

    def _writing(self) -> AbstractContextManager[Any]:
        """Around every write transaction.  SQLite has one writer at a time, and a writer that
        finds the file locked sleeps in the busy handler (up to 100 ms a try): so this process's
        writers take turns here instead, each holding the file for one short transaction.
        PostgreSQL writes of different tables do not wait for each other."""
        return nullcontext() if self.postgres else self._sqlite_writer

    # -- creating -------------------------------------------------------------------------------
    def preview(self, text_: str, fmt: str = "yaml") -> TableSetup:
        """Validate an encounter text; ``Unprocessable`` names the field."""
        if len(text_.encode("utf-8")) > MAX_UPLOAD_BYTES:
            raise TooLarge(f"the encounter is larger than the limit of {MAX_UPLOAD_BYTES // 1024} KiB")
        try:
            return self.setups.get(parse_text(text_, fmt))
        except IkusaError as exc:
            raise _user_error(exc) from None

    def create_table(self, text_: str, fmt: str = "yaml", seed: int | None = None) -> Created:
        return self._create(self.preview(text_, fmt), seed, [])

    def create_document(self, document: dict[str, Any], seed: int | None = None) -> Created:
        try:
            setup = self.setups.get(document)
        except IkusaError as exc:
            raise _user_error(exc) from None
        return self._create(setup, seed, [])

    def create_from_log(self, log: dict[str, Any]) -> Created:
        """A new table continuing an exported ``ikusa-log`` (its record, redo stack and the
        roll still waiting for dice are replayed)."""
        from ikusa.engine.record import LOG_FORMATS

        if log.get("format") not in LOG_FORMATS:
            raise Unprocessable(f"format: not an ikusa log (expected one of {', '.join(sorted(LOG_FORMATS))})")
        setup_doc = log.get("table_setup") or log.get("setup")
        if not isinstance(setup_doc, dict):
            raise Unprocessable("setup: missing")
        setup_doc = {k: v for k, v in setup_doc.items() if k != "script"}  # its steps are in the entries
        payload = {"entries": log.get("entries", []), "redo": log.get("redo", []), "partial": log.get("partial")}
        seed = log.get("seed") if isinstance(log.get("seed"), int) else None
        try:
            setup = self.setups.get(setup_doc)
        except IkusaError as exc:
            raise _user_error(exc) from None
        return self._create(setup, seed, [("replay", "import", payload)])

    def _create(self, setup: TableSetup, seed: int | None, rows: list[tuple[str, str, dict[str, Any]]]) -> Created:
        table_id = secrets.token_urlsafe(9)
        seed = secrets.randbelow(2**31) if seed is None else seed
        state = TableState(setup, seed)
        entries = [(i + 1, k, a, p) for i, (k, a, p) in enumerate(rows)]
        try:
            for e in entries:
                state.append(*e)
        except IkusaError as exc:
            raise _user_error(exc) from None
        entries += ai_chain(state)
        tokens: dict[str, Any] = {"players": {}}
        with self._writing(), self.engine.begin() as conn:
            conn.execute(insert(_TABLES).values(id=table_id, system=setup.system, title=setup.title[:200],
                                                setup=setup.document, seed=seed, version=state.version))
            self._insert(conn, table_id, entries)
            tokens["gm"] = self._new_token(conn, table_id, "gm")
            for name in state.players():
                tokens["players"][name] = self._new_token(conn, table_id, "player", name)
            tokens["spectator"] = self._new_token(conn, table_id, "spectator")
        self._states.put(table_id, state)
        return Created(table_id, state.version, tokens)

    # -- reading --------------------------------------------------------------------------------
    def _lock(self, table_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(table_id, threading.Lock())

    def _state(self, table_id: str, min_version: int | None = None) -> TableState:
        """The replayed state, brought up to the database's version."""
        with self._lock(table_id):
            return self._synced(table_id, min_version)

    def _synced(self, table_id: str, min_version: int | None = None, trust_cache: bool = False) -> TableState:
        """The cached state if it is new enough (``min_version``, or ``trust_cache`` on the write
        path, where the compare-and-set catches another process's write), else synced with the
        database: a kept state reads only the entries it lacks (one query; none newer: it is
        current), a table not kept yet is replayed from its setup."""
        st = self._states.get(table_id)
        if st is not None and (trust_cache or (min_version is not None and st.version >= min_version)):
            return st
        with self.engine.connect() as conn:
            if st is not None:
                for r in conn.execute(_NEWER, {"b_id": table_id, "b_seq": st.version}):
                    st.append(r.seq, r.kind, r.author, r.payload)  # another process wrote these
                return st
            row = conn.execute(_TABLE, {"b_id": table_id}).first()
            if row is None:
                raise NotFound(f"no table {table_id!r}")
            st = TableState(self.setups.get(row.setup), row.seed)
            for r in conn.execute(_NEWER, {"b_id": table_id, "b_seq": 0}):  # committed entries: a prefix
                st.append(r.seq, r.kind, r.author, r.payload)
        self._states.put(table_id, st)
        return st

    def view(self, principal: Principal, min_version: int | None = None) -> dict[str, Any]:
        """The table as ``principal``'s role may see it.  Views are cached per version and role
        and shared between callers: read them, never change them."""
        return self.cached_view(principal, min_version).view

    def cached_view(self, principal: Principal, min_version: int | None = None) -> CachedView:
        """:meth:`view` with its memo (see :meth:`memo`)."""
        if min_version is not None:
            hit = self.views.peek(principal, min_version)
            if hit is not None:
                return hit
        with self._lock(principal.table_id):
            return self.views.view(self._synced(principal.table_id, min_version), principal)

    def view_json(self, principal: Principal, min_version: int | None = None,
                  log_since: int | None = None) -> tuple[int, str]:
        """``(version, text)``: :meth:`view` as JSON (``<>&`` escaped), encoded once per version,
        role and ``log_since`` (see :func:`trim_log`)."""
        cached = self.cached_view(principal, min_version)
        return cached.version, self.views.json(cached, log_since)

    def memo(self, principal: Principal, view: dict[str, Any], name: str, make: Callable[[], Any]) -> Any:
        """``make()`` once per ``view`` (one of :meth:`view`'s) and ``name``, shared by every client
        of ``principal``'s role and name; a view no longer kept just calls ``make()``."""
        cached = self.views.find(principal, view)
        return make() if cached is None else self.views.derive(cached, name, make)

    def version(self, table_id: str) -> int:
        return self._state(table_id).version

    def quick_writes(self, table_id: str) -> bool:
        """Whether a write to ``table_id`` is short enough to make on the event loop itself (no
        worker thread): SQLite (a local file) or PostgreSQL with :attr:`pg_writer` (awaited on the
        loop, :meth:`act_async`), the state kept in this process (no replay) and no AI-controlled
        unit (whose chain may make hundreds of decisions in one write)."""
        if self.postgres and self.pg_writer is None:
            return False
        st = self._states.peek(table_id)
        return st is not None and not any(c.is_ai for c in st.combat.control.everyone().values())

    def state_for(self, principal: Principal) -> TableState:
        """The state itself, for the GM's own pages only (``Forbidden`` otherwise)."""
        self._require_gm(principal)
        return self._state(principal.table_id)

    # -- writing --------------------------------------------------------------------------------
    def act(self, principal: Principal, version: int, *, action: str | None = None, dice: list[int] | None = None,
            roll: bool = False, ruling: dict[str, Any] | None = None) -> dict[str, Any]:
        """Answer the pending decision or dice request, or make a ruling (see the module doc)."""
        return self._write(principal, version, act_build(principal, action, dice, roll, ruling))

    def undo(self, principal: Principal, version: int) -> dict[str, Any]:
        self._require_gm(principal)

        def build(st: TableState, rows: list[Row]) -> None:
            push(st, rows, "undo", principal.who, {})

        return self._write(principal, version, build, chain=False)

    def redo(self, principal: Principal, version: int) -> dict[str, Any]:
        self._require_gm(principal)

        def build(st: TableState, rows: list[Row]) -> None:
            push(st, rows, "redo", principal.who, {})

        return self._write(principal, version, build, chain=False)

    def reroll(self, principal: Principal, version: int, reason: str = "") -> dict[str, Any]:
        """GM: the last decision again with new dice (the log keeps the old ones)."""
        self._require_gm(principal)

        def build(st: TableState, rows: list[Row]) -> None:
            push(st, rows, "reroll", principal.who, {"reason": reason[:500]})

        return self._write(principal, version, build)

    def chat(self, principal: Principal, text_: str, version: int | None = None, name: str = "") -> dict[str, Any]:
        """A chat line; a dice command is rolled by the server (``S`` prefix: secret)."""
        if principal.role == "spectator":
            raise Forbidden("spectators cannot chat")
        line = text_.strip()
        if not line or len(line) > MAX_CHAT:
            raise Unprocessable(f"text: a chat line is 1 to {MAX_CHAT} characters")

        def build(st: TableState, rows: list[Row]) -> None:
            try:
                result = ikusa.roll(line, st.setup.system, dice=RandomSource(seed_of(st, "chat")))
            except IkusaError:
                result = None
            payload: dict[str, Any] = {"text": line, "name": name or principal.name or principal.role,
                                       "result": result.to_json() if result is not None else None,
                                       "secret": bool(result is not None and result.secret)}
            push(st, rows, "chat", principal.who, payload)

        return self._write(principal, version, build, chain=False)

    def reveal(self, principal: Principal, seq: int, version: int | None = None) -> dict[str, Any]:
        """Show a secret roll to everyone (its roller or the GM)."""

        def build(st: TableState, rows: list[Row]) -> None:
            line = next((c for c in st.chat if c.seq == seq), None)
            if line is None or not line.secret:
                raise Unprocessable(f"seq: no secret roll {seq}")
            if not principal.is_gm and line.author != principal.who:
                raise Forbidden("only the roller or the GM may reveal a secret roll")
            push(st, rows, "reveal", principal.who, {"seq": seq})

        return self._write(principal, version, build, chain=False)

    def export_log(self, principal: Principal) -> dict[str, Any]:
        """The ``ikusa-log`` JSON (GM only): ``ikusa play --load`` resumes it."""
        st = self.state_for(principal)
        with self._lock(principal.table_id):
            log = st.combat.to_json()
        log["table_setup"] = st.setup.document
        log["seed"] = st.seed
        return log

    # -- the write path -------------------------------------------------------------------------
    def _write(self, principal: Principal, version: int | None, build: Callable[[TableState, list[Row]], None],
               chain: bool = True) -> dict[str, Any]:
        table_id = principal.table_id
        with self._lock(table_id):
            st, start = self._current(principal, version)
            rows: list[Row] = []
            with self._or_drop(principal, st, start):
                build(st, rows)
                if chain:
                    rows += ai_chain(st)
                if rows:
                    self._commit(table_id, start, rows)
            view = self._written(principal, st, rows)
            new = st.version  # read under the lock: the next writer's entries are not committed yet
        if rows:  # committed: this process's streams are told now (PostgreSQL's NOTIFY tells the others)
            self.hub.publish(table_id, new)
        return view

    async def act_async(self, principal: Principal, version: int, *, action: str | None = None,
                        dice: list[int] | None = None, roll: bool = False,
                        ruling: dict[str, Any] | None = None) -> dict[str, Any]:
        """:meth:`act` on the event loop, its PostgreSQL write awaited on the loop's own connection
        (:attr:`pg_writer`): for a table :meth:`quick_writes` says yes to.  The table's lock is held
        across the write: an asyncio lock first, so no other coroutine of this loop waits for the
        thread lock while it is held (its other holders are worker threads, which never wait for
        the loop)."""
        if self.pg_writer is None:
            raise RuntimeError("act_async needs a PostgreSQL writer (pg_writer)")
        build = act_build(principal, action, dice, roll, ruling)
        table_id = principal.table_id
        with self._guard:
            alock = self._alocks.setdefault(table_id, asyncio.Lock())
        async with alock:
            lock = self._lock(table_id)
            lock.acquire()
            try:
                st, start = self._current(principal, version)
                rows: list[Row] = []
                with self._or_drop(principal, st, start):
                    build(st, rows)
                    rows += ai_chain(st)
                    if rows and not await self.pg_writer.write(self._pg_params(table_id, start, rows[-1][0], rows)):
                        raise Conflict("the table changed (another writer was first)")
                view = self._written(principal, st, rows)
                new = st.version
            finally:
                lock.release()
        if rows:  # committed: this process's streams need not wait for the NOTIFY to come back
            self.hub.publish(table_id, new)
        return view

    def _current(self, principal: Principal, version: int | None) -> tuple[TableState, int]:
        """The kept state to write on (table lock held) and its version; a stale ``version`` is
        refused with the fresh view (409)."""
        table_id = principal.table_id
        st = self._synced(table_id, trust_cache=True)
        if version is not None and version != st.version:
            st = self._synced(table_id)  # another process may have written: ask the database
        if version is not None and version != st.version:
            raise Conflict(f"the table changed (version {st.version}, not {version})", project(st, principal))
        return st, st.version

    @contextmanager
    def _or_drop(self, principal: Principal, st: TableState, start: int) -> Iterator[None]:
        """Around a write's build and commit: on any failure the kept state, which may hold entries
        that were not committed, is dropped (a replay from the database follows)."""
        table_id = principal.table_id
        try:
            yield
        except Conflict as exc:  # another process was first: the fresh view goes with the 409
            self._drop(table_id, st, start, force=True)
            exc.view = exc.view or project(self._synced(table_id), principal)
            raise
        except ServiceError:
            self._drop(table_id, st, start)
            raise
        except IkusaError as exc:
            self._drop(table_id, st, start)
            raise _user_error(exc) from None
        except BaseException:
            self._drop(table_id, st, start)
            raise

    def _written(self, principal: Principal, st: TableState, rows: list[Row]) -> dict[str, Any]:
        """The writer's view of the new version, and the views of the streams open here."""
        view = self.views.view(st, principal).view
        if rows:
            self._project_for_streams(principal.table_id, st, principal)
        return view

    def _project_for_streams(self, table_id: str, st: TableState, writer: Principal | None) -> None:
        """The new version's view for every role and name with a stream open here: made once,
        now, while the state is at hand (the streams then find it kept)."""
        for role, name in self.hub.audiences(table_id):
            if writer is None or (role, name) != (writer.role, writer.name):
                self.views.view(st, Principal(table_id, role, name))

    def advance(self, table_id: str, start: int, rows: list[tuple[Any, ...]]) -> None:
        """Entries another process committed after version ``start`` (its NOTIFY, PostgreSQL): a
        kept state at ``start`` takes them, as a read of them would, and the views of this
        process's streams are made; otherwise nothing (a stream syncs from the database), also
        when a write of this process holds the table's lock.  Runs on the LISTEN loop (the
        server's own), before the new version is published."""
        st = self._states.peek(table_id)
        if st is None or st.version != start:  # not kept, or this process wrote them
            return
        lock = self._lock(table_id)
        if not lock.acquire(blocking=False):  # a write of this process holds it (the loop must not wait)
            return
        try:
            st = self._states.peek(table_id)
            if st is None or st.version != start:
                return
            try:
                for seq, kind, author, payload in rows:
                    st.append(int(seq), str(kind), str(author), dict(payload))
                self._project_for_streams(table_id, st, None)
            except Exception:  # never expected (the writer applied them): replay from the database
                self._drop(table_id, st, start, force=True)
        finally:
            lock.release()

    def _drop(self, table_id: str, st: TableState, start: int, force: bool = False) -> None:
        if force or st.version != start:  # the cache holds entries that were not committed
            self._states.pop(table_id)
            self.views.drop(table_id)

    def _commit(self, table_id: str, start: int, rows: list[Row]) -> None:
        new = rows[-1][0]
        if self.postgres:
            self._commit_pg(table_id, start, new, rows)
            return
        with self._writing(), self.engine.begin() as conn:  # one short transaction: compare-and-set, entries
            res = conn.execute(_BUMP, {"b_id": table_id, "b_seen": start, "b_new": new})
            if res.rowcount != 1:
                raise Conflict("the table changed (another writer was first)")
            self._insert(conn, table_id, rows)

    def _commit_pg(self, table_id: str, start: int, new: int, rows: list[Row]) -> None:
        """PostgreSQL: the compare-and-set, the entries and the NOTIFY as one statement, which is
        its own transaction (one round trip instead of five: the database's CPU is the server's)."""
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            if conn.execute(_WRITE_PG, self._pg_params(table_id, start, new, rows)).first() is None:
                raise Conflict("the table changed (another writer was first)")  # nothing written, nothing sent

    @staticmethod
    def _pg_params(table_id: str, start: int, new: int, rows: list[Row]) -> dict[str, Any]:
        """The parameters of PostgreSQL's write statement (the entries' JSON encoded once)."""
        rows_json = json_rows([(seq, kind, author[:120], payload) for seq, kind, author, payload in rows])
        return {"b_id": table_id, "b_seen": start, "b_new": new, "c": CHANNEL, "rows": rows_json,
                "p": entries_payload(table_id, new, start, rows_json)}

    @staticmethod
    def _insert(conn: Connection | Session, table_id: str, rows: list[Row]) -> None:
        if rows:
            conn.execute(_INSERT_ENTRIES, [
                {"table_id": table_id, "seq": seq, "kind": kind, "author": author[:120], "payload": payload}
                for seq, kind, author, payload in rows])
