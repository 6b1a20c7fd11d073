"""Per-process caches of the table service: shared setups, the replayed states of the tables
in use, one view per role and version, and what is derived from a view (its JSON text per
``log_since``, a page's HTML fragments).

The store stays the truth (every entry is committed before a response is sent); these only
keep this process from doing the same work twice:

* :class:`SetupCache`: an encounter document → its validated :class:`TableSetup` (a
  maai encounter with homebrew rebuilds the whole catalogue: hundreds of ms).  A setup is
  read-only; every table state makes its own combats from it, as a replay does.
* :class:`StateCache`: table id → its replayed :class:`TableState`, bounded: a table nobody
  watches here (no open stream in this process) is forgotten once :data:`STATES_KEPT` others
  were used after it, and replayed from the store when it is used again.  Kept states are most of
  a server's heap (a finished maai battle: about 3 000 objects), and every object on it makes
  each full pass of Python's cyclic collector, a pause of the whole event loop, longer
  (:mod:`ikusa.server.collector`); until now a table's state stayed for the life of the process.
* :class:`ViewCache`: ``(table, role, name)`` → the newest view projected for it, and
  per view a memo of what is derived from it.  A view is made for one role and one name,
  so a memo of it is shared only among clients of that role and name (secrecy: never
  across roles, never across players).  Views and memos are shared: never mutate them.
"""

from __future__ import annotations

import hashlib
import json
import threading
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from ikusa.server.projection import Principal, project
from ikusa.server.setup import TableSetup, load_setup
from ikusa.server.table import TableState

#: distinct encounter documents whose setups are kept
SETUPS_KEPT = 64
#: replayed states kept of tables with no stream open in this process (watched ones are all kept)
STATES_KEPT = 16


def dumps(data: Any) -> str:
    """Compact JSON with ``<``, ``>`` and ``&`` as ``\\u`` escapes: safe even inside an HTML page.

    Encoded by orjson (a view's JSON was the largest single cost of a write after the engine);
    what it does not take (an integer past 64 bits) by the standard encoder, the same JSON."""
    try:
        raw = orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return raw.replace(b"<", b"\\u003c").replace(b">", b"\\u003e").replace(b"&", b"\\u0026").decode("utf-8")


def trim_log(view: dict[str, Any], log_since: int | None) -> dict[str, Any]:
    """``view`` with only the log lines after version ``log_since`` (``None``: the whole log);
    the trimmed view says so as ``"log_since": n`` (a client appends them to what it has).
    The log is in ``seq`` order: the newer lines are found from its end."""
    if log_since is None:
        return view
    log = view["log"]
    return {**view, "log": log[bisect_right(log, log_since, key=_seq):], "log_since": log_since}


def _seq(line: dict[str, Any]) -> int:
    seq: int = line["seq"]
    return seq


class SetupCache:
    """Validated setups by the digest of their document (least recently used dropped)."""

    def __init__(self, kept: int = SETUPS_KEPT) -> None:
        self.kept = kept
        self._setups: OrderedDict[str, TableSetup] = OrderedDict()
        self._loading: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()

    def get(self, document: dict[str, Any]) -> TableSetup:
        """``load_setup(document)``, once per distinct document (errors are not kept)."""
        key = hashlib.sha256(json.dumps(document, sort_keys=True, default=str).encode("utf-8")).hexdigest()
        with self._lock:
            setup = self._setups.get(key)
            if setup is not None:
                self._setups.move_to_end(key)
                return setup
            loading = self._loading.setdefault(key, threading.Lock())
        with loading:  # tables opened at once from one document: validated once
            with self._lock:
                setup = self._setups.get(key)
            try:
                if setup is None:
                    setup = load_setup(document)
            finally:
                with self._lock:
                    self._loading.pop(key, None)
            with self._lock:
                self._setups[key] = setup
                while len(self._setups) > self.kept:
                    self._setups.popitem(last=False)
        return setup


class StateCache:
    """Replayed states by table id, least recently used first (see the module doc).  ``watched``
    says whether a table has a stream open in this process: such a table is never forgotten.
    ``forgotten`` is called with the id of each table forgotten (its views go with it)."""

    def __init__(self, watched: Callable[[str], bool], forgotten: Callable[[str], None],
                 kept: int = STATES_KEPT) -> None:
        self.kept = kept
        self._watched = watched
        self._forgotten = forgotten
        self._states: OrderedDict[str, TableState] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, table_id: str) -> TableState | None:
        """The kept state of ``table_id``, now the most recently used (``None``: not kept)."""
        with self._lock:
            st = self._states.get(table_id)
            if st is not None:
                self._states.move_to_end(table_id)
            return st

    def peek(self, table_id: str) -> TableState | None:
        """The kept state of ``table_id``, its place unchanged."""
        return self._states.get(table_id)

    def put(self, table_id: str, st: TableState) -> None:
        """Keep ``st`` as ``table_id``'s state; forget the least recently used unwatched tables
        beyond :attr:`kept` of them (``st`` too, if it is one: it was just made, not used)."""
        with self._lock:
            self._states[table_id] = st
            self._states.move_to_end(table_id)
            gone: list[str] = []
            if len(self._states) > self.kept:
                idle = [tid for tid in self._states if not self._watched(tid)]  # least recently used first
                gone = idle[:max(0, len(idle) - self.kept)]
                for tid in gone:
                    del self._states[tid]
        for tid in gone:
            self._forgotten(tid)

    def pop(self, table_id: str) -> None:
        with self._lock:
            self._states.pop(table_id, None)

    def __len__(self) -> int:
        return len(self._states)


@dataclass(slots=True)
class CachedView:
    """One role's view of one state at one version, and the memo of what is derived from it."""

    state: TableState
    version: int
    view: dict[str, Any]
    derived: dict[Any, Any] = field(default_factory=dict)


Key = tuple[str, str, str]


def key_of(principal: Principal) -> Key:
    return (principal.table_id, principal.role, principal.name)


class ViewCache:
    """The newest view per ``(table, role, name)``.  :meth:`view` and :meth:`put` are called
    with the table's lock held (the state does not change under them); :meth:`peek` and
    :meth:`derive` need no table lock."""

    def __init__(self) -> None:
        self._views: dict[Key, CachedView] = {}
        self._lock = threading.Lock()

    def view(self, st: TableState, principal: Principal) -> CachedView:
        """The view of ``st`` for ``principal`` (projected once per version)."""
        key = key_of(principal)
        cached = self._views.get(key)
        if cached is not None and cached.state is st and cached.version == st.version:
            return cached
        return self.put(st, principal, project(st, principal))

    def put(self, st: TableState, principal: Principal, view: dict[str, Any]) -> CachedView:
        """Keep ``view`` (just projected from ``st`` for ``principal``, e.g. by a write)."""
        cached = CachedView(st, st.version, view)
        with self._lock:
            self._views[key_of(principal)] = cached
        return cached

    def peek(self, principal: Principal, at_least: int) -> CachedView | None:
        """The kept view for ``principal`` if it is at version ``at_least`` or newer."""
        cached = self._views.get(key_of(principal))
        return cached if cached is not None and cached.version >= at_least else None

    def find(self, principal: Principal, view: dict[str, Any]) -> CachedView | None:
        """The entry holding ``view`` (the very object) for ``principal``, if it is kept."""
        cached = self._views.get(key_of(principal))
        return cached if cached is not None and cached.view is view else None

    def drop(self, table_id: str) -> None:
        with self._lock:
            for key in [k for k in self._views if k[0] == table_id]:
                del self._views[key]

    def derive(self, cached: CachedView, name: Any, make: Callable[[], Any]) -> Any:
        """``make()`` once per view and ``name`` (a race may make it twice; one is kept)."""
        try:
            return cached.derived[name]
        except KeyError:
            pass
        value = make()
        return cached.derived.setdefault(name, value)

    def json(self, cached: CachedView, log_since: int | None) -> str:
        """The view as JSON (:func:`dumps`), trimmed to the log after ``log_since``."""
        text: str = self.derive(cached, ("json", log_since), lambda: dumps(trim_log(cached.view, log_since)))
        return text
