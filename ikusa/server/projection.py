"""What each role may see: a pure function from a table's state and a principal to a view.

Nothing GM-only leaves here for a player or a spectator: units still hidden (and every log
line, prompt or dice request that names them), NPC numbers (only a unit's name, side and
whether it is down; the log's lines about them lose their resource numbers, see
:mod:`ikusa.server.redact`), the options of a decision they may not answer, secret chat rolls of
others (shown as ``（シークレットダイス）`` until revealed) and GM notes.  The HTML pages,
the SSE streams and the JSON API all render from this view, never from the state.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ikusa.engine.dice_request import DiceRequest
from ikusa.server.redact import redact
from ikusa.server.table import LogItem, TableState

SECRET_TEXT = "（シークレットダイス）"

#: the unit fields a player or spectator sees of a unit no player controls
PUBLIC_UNIT_FIELDS = ("id", "name", "side", "status", "incapacitated", "down", "zone", "row", "stance")


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is asking: ``role`` is ``gm``, ``player`` (with ``name``) or ``spectator``.

    ``token_hash`` is the SHA-256 of the link it came from (empty when made in code): a
    stream opened with it ends when that link is revoked.  It is not part of equality."""

    table_id: str
    role: str
    name: str = ""
    token_hash: str = field(default="", compare=False, repr=False)

    @property
    def who(self) -> str:
        """The author label of the entries this principal writes (``gm``, ``player:<name>``)."""
        return f"player:{self.name}" if self.role == "player" else self.role

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"


def owns(state: TableState, principal: Principal, unit: str) -> bool:
    """Whether ``principal`` controls ``unit`` (the GM controls every unit)."""
    if principal.is_gm:
        return True
    c = state.control_of(unit)
    return principal.role == "player" and c.kind == "player" and c.who == principal.name


def may_answer(state: TableState, principal: Principal) -> bool:
    """Whether ``principal`` may answer what is pending now (decision or dice request)."""
    if state.request is not None:
        return owns(state, principal, state.request.roller)
    d = state.decision()
    return d is not None and owns(state, principal, d.actor)


def _summary_units(state: TableState) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The system's summary (once per version, for every role): its units and the rest."""
    return state.memo("summary", lambda: _split_summary(state))


def _split_summary(state: TableState) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    summary = dict(state.combat.state.summary())
    units = summary.pop("units", None)
    if units is None:
        units = summary.pop("characters", [])
    return list(units), summary


def _visible(state: TableState, principal: Principal, unit: str) -> bool:
    return principal.is_gm or unit not in state.hidden


def project(state: TableState, principal: Principal, table_id: str = "") -> dict[str, Any]:
    """The view of ``state`` for ``principal`` (JSON-serialisable)."""
    gm = principal.is_gm
    units_raw, board = _summary_units(state)
    board = dict(board)
    units: list[dict[str, Any]] = []
    for u in units_raw:
        uid = str(u.get("id"))
        if not _visible(state, principal, uid):
            continue
        c = state.control_of(uid)
        mine = owns(state, principal, uid) and not gm
        pc = c.kind == "player"
        if gm or pc:
            uv = dict(u)
        else:
            uv = {k: u[k] for k in PUBLIC_UNIT_FIELDS if k in u}
        if not gm and state.hidden:  # e.g. maai 心府 lists: no trace of a hidden unit
            uv = {k: [x for x in v if x not in state.hidden] if isinstance(v, list) else v for k, v in uv.items()}
        uv["controller"] = c.controller if (gm or pc) else "gm"
        if gm or mine:
            uv["dice"] = c.dice
        if gm:
            uv["hidden"] = uid in state.hidden
        uv["mine"] = mine
        units.append(uv)
    log = log_rows(state, gm)
    chat = []
    for line in state.chat:
        show = gm or line.author == principal.who or not line.secret or line.revealed
        chat.append({
            "seq": line.seq, "author": line.author, "name": line.name, "secret": line.secret,
            "revealed": line.revealed,
            "text": line.text if show else SECRET_TEXT,
            "result": line.result if show else None,
        })
    view: dict[str, Any] = {
        "id": table_id or principal.table_id,
        "system": state.setup.system,
        "title": state.setup.title,
        "version": state.version,
        "role": {"role": principal.role, "name": principal.name,
                 "units": [u.id for u in state.setup.units if owns(state, principal, u.id) and not gm]},
        "units": units,
        "board": board,
        "pending": _pending(state, principal),
        "tracker": _tracker(state, principal),
        "log": log,
        "chat": chat,
        "over": state.over,
    }
    if gm:
        view["can_undo"] = state.undoable()
        view["can_redo"] = bool(state.combat.redo_stack)
    return view


def _log_context(state: TableState) -> tuple[dict[str, str], tuple[str, ...], frozenset[str], object]:
    """What a player's or spectator's log line depends on besides the line: the NPCs (whose
    numbers are redacted), their names longest first, the hidden units; and a token that stays
    the same object while these do (a line projected under it is still right)."""
    npcs = {u: n for u, n in state.names.items() if state.control_of(u).kind != "player"}
    npc_names = tuple(sorted({n for n in npcs.values() if n}, key=len, reverse=True))
    key = (tuple(sorted(npcs.items())), npc_names, frozenset(state.hidden))
    kept = state.log_context
    if kept is None or kept[0] != key:
        kept = state.log_context = (key, object())
    return npcs, npc_names, key[2], kept[1]


def log_rows(state: TableState, gm: bool) -> list[dict[str, Any]]:
    """The log as the GM (``gm``) or a player or spectator may read it (the same for every player
    and spectator: no line depends on who reads it), once per version.  Each line's row is kept on
    the line (:class:`~ikusa.server.table.LogItem`), and a version that only added lines to the
    log (:attr:`TableState.log_epoch` unchanged) extends the last version's rows with theirs;
    rows are shared between views: never change one."""
    return state.memo("log:gm" if gm else "log:public", lambda: _rows(state, gm))


def _rows(state: TableState, gm: bool) -> list[dict[str, Any]]:
    items = state.log()
    key = "gm" if gm else "public"
    if gm:
        ctx: object = None
        make: Callable[[list[LogItem]], list[dict[str, Any]]] = _gm_rows
    else:
        npcs, npc_names, hidden, ctx = _log_context(state)
        make = partial(_public_rows, npcs, npc_names, hidden, ctx)
    kept = state.log_rows_kept.get(key)
    if kept is not None and kept[0] == state.log_epoch and kept[2] is ctx and kept[1] <= len(items):
        rows = kept[3] + make(items[kept[1]:])
    else:
        rows = make(items)
    state.log_rows_kept[key] = (state.log_epoch, len(items), ctx, rows)
    return rows


def _gm_rows(items: list[LogItem]) -> list[dict[str, Any]]:
    return [row if (row := item.gm_row) is not None else _gm_row(item) for item in items]


def _gm_row(item: LogItem) -> dict[str, Any]:
    row = item.gm_row
    if row is None:
        row = item.gm_row = {"seq": item.seq, "kind": item.kind, "text": item.text, "rule": item.rule,
                             "author": item.author}
    return row


def _public_rows(npcs: dict[str, str], npc_names: tuple[str, ...], hidden: frozenset[str], ctx: object,
                 items: list[LogItem]) -> list[dict[str, Any]]:
    def made(item: LogItem) -> tuple[object, dict[str, Any] | None]:
        row = None if item.gm_only or (item.mentions & hidden) else {
            "seq": item.seq, "kind": item.kind, "text": redact(item.text, item.subject in npcs, npc_names),
            "rule": item.rule, "author": item.author}
        item.public_row = (ctx, row)
        return item.public_row

    kept = [k if (k := item.public_row) is not None and k[0] is ctx else made(item) for item in items]
    return [row for _, row in kept if row is not None]


def _typed_so_far(state: TableState) -> list[dict[str, Any]]:
    p = state.combat.partial
    if p is None:
        return []
    return [{"value": d.value, "sides": d.sides, "by": d.by} for d in p.dice]


_BOARDS: dict[str, Callable[[Any], dict[str, Any]] | None] = {}


def _board_of(system: str) -> Callable[[Any], dict[str, Any]] | None:
    """The system's ``board(state)`` (``ikusa/systems/<id>/board.py``), imported once."""
    if system not in _BOARDS:
        try:
            mod = importlib.import_module(f"ikusa.systems.{system}.board")
        except ImportError:
            _BOARDS[system] = None
        else:
            _BOARDS[system] = mod.board
    return _BOARDS[system]


def _tracker(state: TableState, principal: Principal) -> dict[str, Any] | None:
    """The core's tracker board (``ikusa/systems/<id>/board.py``) as the role may see it
    (the board itself is made once per version)."""
    make = _board_of(state.setup.system)
    if make is None:
        return None
    board: dict[str, Any] = state.memo("board", lambda: make(state.combat.state))
    if principal.is_gm:
        return board
    hidden_names = [state.names.get(u, u) for u in state.hidden]
    rows = []
    for row in board.get("rows", []):
        uid = str(row.get("id"))
        if uid in state.hidden:
            continue
        if state.control_of(uid).kind != "player":
            row = {k: v for k, v in row.items() if k in ("id", "name", "marks", *PUBLIC_UNIT_FIELDS)}
        rows.append(row)
    notes = [n for n in board.get("notes", []) if not any(h and h in n for h in hidden_names)]
    return {**board, "rows": rows, "notes": notes}


def _pending(state: TableState, principal: Principal) -> dict[str, Any] | None:
    answer = may_answer(state, principal)
    req: DiceRequest | None = state.request
    if req is not None:
        if not _visible(state, principal, req.roller):
            return {"kind": "dice", "roller": None, "sides": req.sides, "count": req.count, "purpose": "",
                    "typed": [], "may_answer": False}
        purpose = req.purpose
        if not principal.is_gm and any(u in purpose or state.names.get(u, u) in purpose for u in state.hidden):
            purpose = f"{state.names.get(req.roller, req.roller)} の判定"
        return {"kind": "dice", "roller": req.roller, "roller_name": state.names.get(req.roller, req.roller),
                "sides": req.sides, "count": req.count, "purpose": purpose,
                "notation": req.notation, "sum_only": req.sum_only, "mode": req.mode,
                "typed": _typed_so_far(state), "may_answer": answer}
    d = state.decision()
    if d is None:
        return None
    if not _visible(state, principal, d.actor):
        return {"kind": d.kind, "actor": None, "actor_name": "", "prompt": "", "options": [], "may_answer": False}
    out: dict[str, Any] = {
        "kind": d.kind, "actor": d.actor, "actor_name": state.names.get(d.actor, d.actor),
        "prompt": d.prompt if answer else "", "options": [], "may_answer": answer,
    }
    if answer:
        secret = [] if principal.is_gm else [(u, state.names.get(u, u)) for u in state.hidden]
        out["options"] = [{"key": o.key, "label": o.label, "cost": o.cost, "odds": o.odds} for o in d.options
                          if not any(uid in o.key or (name and name in o.label) for uid, name in secret)]
        if any(uid in d.prompt or (name and name in d.prompt) for uid, name in secret):
            out["prompt"] = ""
    return out
