"""A table's live state, derived by replaying its entries onto the core's :class:`Combat`.

This is the thin layer between the store and the core (issue #8's ``Combat``: control,
dice requests, rulings, honest undo).  It maps each stored entry to one call of the
combat, with the software dice seeded from the table's seed and the entry's ``seq``, so a
replay of the entries reproduces the table exactly.  It knows nothing of HTTP or roles.

Entry kinds (``payload`` shapes) and the call each makes:

* ``decision`` ``{"actor", "action"}`` → ``combat.push(action)``: auto dice are drawn, a
  roller on ``manual``/``ask`` dice makes it wait as the combat's dice request (the partial
  entry is part of the replay, so it survives a restart);
* ``dice`` ``{"values", "by"}`` → ``combat.supply(values, by)``; ``sum`` ``{"total", "by"}``
  → ``combat.supply_sum``; ``roll`` ``{"by"}`` → ``combat.roll_pending()`` ("roll for me");
* ``ruling`` ``{"ruling"}`` → ``combat.rule(ruling)``, except ``reveal``/``hide`` (which
  units players may see: the table's business, not the rules');
* ``undo`` / ``redo`` / ``reroll`` ``{"reason"}`` → the core's honest undo, redo, reroll;
* ``replay`` ``{"entries", "redo", "partial"}`` → an imported ``ikusa-log``'s record;
* ``chat`` ``{"text", "name", "result", "secret"}`` and ``reveal`` ``{"seq"}``: dice chat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ikusa.dice.source import RandomSource, ScriptedSource
from ikusa.engine.combat import Combat
from ikusa.engine.control import UnitControl
from ikusa.engine.dice_request import DiceRequest
from ikusa.engine.errors import InputError
from ikusa.engine.events import Event
from ikusa.engine.protocol import Decision
from ikusa.engine.record import entries_from_json
from ikusa.server.setup import TableSetup

Row = tuple[int, str, str, dict[str, Any]]
T = TypeVar("T")


def seed_for(seed: int, seq: int, salt: str = "") -> int:
    """The software dice seed of entry ``seq`` of a table seeded ``seed``."""
    return (seed * 1_000_003 + seq * 7919 + sum(map(ord, salt))) % (2**62)


@dataclass(slots=True)
class LogItem:
    """One line of the table's log: an event, a ruling, a typed roll."""

    seq: int
    kind: str  # "event", "ruling", "note", "dice", "partial"
    text: str
    rule: str = ""
    author: str = ""
    gm_only: bool = False
    mentions: frozenset[str] = frozenset()
    #: the unit the line is about (its ``unit``/``who``/``id``), whose numbers it may carry
    subject: str = ""
    #: the projection's rows of this line, kept on it so that a new version projects only its new
    #: lines: the GM's, and a player's or spectator's with the context it was made in (see
    #: :func:`ikusa.server.projection.log_rows`)
    gm_row: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    public_row: tuple[object, dict[str, Any] | None] | None = field(default=None, compare=False, repr=False)


@dataclass(slots=True)
class ChatLine:
    seq: int
    author: str
    name: str
    text: str
    result: dict[str, Any] | None
    secret: bool
    revealed: bool = False


class TableState:
    """Setup + entries → the combat, hidden units, chat and log."""

    def __init__(self, setup: TableSetup, seed: int) -> None:
        self.setup = setup
        self.seed = seed
        self.version = 0
        self.entries: list[Row] = []
        self._reset()

    def _reset(self) -> None:
        loaded = self.setup.loaded
        self.combat: Combat = loaded.new_combat()
        fallback = RandomSource(seed_for(self.seed, 0, "script"))
        for step in loaded.doc.script:  # the encounter's own script, deterministic from the seed
            self.combat.push(step.action, ScriptedSource(step.dice, fallback=fallback))
        self.names = {u: n for u, n, _ in self.combat.roster()}
        self.hidden: set[str] = set(self.setup.hidden)
        self.chat: list[ChatLine] = []
        self.typed: list[LogItem] = []  # the typed dice lines
        self.event_items: list[LogItem] = []  # per combat event, its log line (seq, author)
        self.extra_log: list[LogItem] = []  # reveal/hide lines
        self._log_cache: tuple[int, list[LogItem]] | None = None
        #: how many events, typed and extra lines the kept log holds; whether events were taken
        #: back (undo) or a partial action shown since: then the log is rebuilt, not extended
        self._log_marks = (0, 0, 0, False)
        self._events_cut = False
        #: bumped whenever the log is rebuilt rather than extended (``ikusa.server.projection``
        #: extends its rows while it stays the same)
        self.log_epoch = 0
        self.log_rows_kept: dict[str, tuple[int, int, object, list[dict[str, Any]]]] = {}
        self._memo: tuple[int, dict[str, Any]] = (-1, {})
        self._controls: tuple[int, dict[str, UnitControl]] = (-1, {})
        #: the projection's redaction context, kept while it stays the same (see ``log_rows``)
        self.log_context: tuple[Any, object] | None = None
        self._mark_events(0, "")

    # -- replay -----------------------------------------------------------------------------------
    def load(self, entries: list[Row]) -> None:
        """Rebuild from nothing with ``entries`` (start-up, or a cache that fell behind)."""
        self.entries = []
        self.version = 0
        self._reset()
        for e in entries:
            self.append(*e)

    def append(self, seq: int, kind: str, author: str, payload: dict[str, Any]) -> None:
        """Apply one entry.  A refused one raises (an :class:`IkusaError`) and changes nothing."""
        self._apply(seq, kind, author, payload)
        if kind == "ruling":  # add_unit/remove_unit change the roster: names feed mentions and redaction
            self.names = {u: n for u, n, _ in self.combat.roster()}
        self.entries.append((seq, kind, author, payload))
        self.version = seq
        self._mark_events(seq, author)

    def _mark_events(self, seq: int, author: str) -> None:
        events = self.combat.events
        n = len(events)
        if n < len(self.event_items):  # an undo took events back
            del self.event_items[n:]
            self._events_cut = True
        self.event_items.extend(_item(ev, seq, author, self.names) for ev in events[len(self.event_items):])

    def _apply(self, seq: int, kind: str, author: str, p: dict[str, Any]) -> None:
        c = self.combat
        c.auto_dice = RandomSource(seed_for(self.seed, seq))
        if kind == "decision":
            c.push(str(p["action"]))
        elif kind == "dice":
            req = self._request("dice")
            values = [int(v) for v in p["values"]]
            c.supply(values, by=str(p.get("by", author)))
            self._typed(seq, req, ", ".join(map(str, values)), str(p.get("by", author)))
        elif kind == "sum":
            req = self._request("dice")
            c.supply_sum(int(p["total"]), by=str(p.get("by", author)))
            self._typed(seq, req, f"合計 {p['total']}", str(p.get("by", author)))
        elif kind == "roll":
            self._request("roll")
            c.roll_pending()
        elif kind == "ruling":
            r = p["ruling"]
            if r.get("op") in ("reveal", "hide"):
                self._visibility(seq, author, r)
            else:
                c.rule(r)
        elif kind == "undo":
            c.undo()
        elif kind == "redo":
            c.redo()
        elif kind == "reroll":
            last = c.record[-1] if c.record else None
            reason = str(p.get("reason", ""))
            c.reroll(reason, by=author)
            if last is not None:  # the core keeps the old dice in the entry; the log says it happened
                who = self.names.get(last.actor, last.actor)
                old = ", ".join(str(v) for v, _ in last.dice)
                text = f"GM裁定: {who} の直前の行動を振り直し (旧ダイス {old})" + (f"（{reason}）" if reason else "")
                self.extra_log.append(LogItem(seq, "ruling", text, "GM", author, mentions=frozenset({last.actor})))
        elif kind == "replay":
            c.restore({"entries": p.get("entries", []), "redo": p.get("redo", []), "partial": p.get("partial")},
                      source="<log>")
        elif kind == "chat":
            self.chat.append(ChatLine(seq, author, str(p.get("name", author)), str(p["text"]), p.get("result"),
                                      bool(p.get("secret"))))
        elif kind == "reveal":
            for line in self.chat:
                if line.seq == p["seq"]:
                    line.revealed = True
        else:
            raise InputError(f"unknown entry kind {kind!r}")

    def _request(self, what: str) -> DiceRequest:
        w = self.combat.awaiting()
        if not isinstance(w, DiceRequest):
            raise InputError(f"no roll is waiting for dice ({what})")
        return w

    def _typed(self, seq: int, req: DiceRequest, values: str, by: str) -> None:
        named = frozenset(u for u, n in self.names.items() if u in req.purpose or (n and n in req.purpose))
        self.typed.append(LogItem(seq, "dice", f"{req.purpose}: {values}", "", by, mentions=named | {req.roller}))

    def _visibility(self, seq: int, author: str, r: dict[str, Any]) -> None:
        uid = str(r["unit"])
        reveal = r["op"] == "reveal"
        (self.hidden.discard if reveal else self.hidden.add)(uid)
        reason = str(r.get("reason", ""))
        text = f"GM裁定: {self.names.get(uid, uid)} が{'現れた' if reveal else '隠れた'}"
        self.extra_log.append(LogItem(seq, "ruling", text + (f"（{reason}）" if reason else ""), "GM", author,
                                      gm_only=not reveal, mentions=frozenset() if reveal else frozenset({uid})))

    # -- queries ----------------------------------------------------------------------------------
    @property
    def request(self) -> DiceRequest | None:
        w = self.combat.awaiting()
        return w if isinstance(w, DiceRequest) else None

    def decision(self) -> Decision | None:
        w = self.combat.awaiting()
        return w if isinstance(w, Decision) else None

    @property
    def over(self) -> bool:
        return self.combat.over

    def memo(self, name: str, make: Callable[[], T]) -> T:
        """``make()`` once per version (the summary, the board, controls: the same for every
        role; a projection filters them, never changes them)."""
        version, memo = self._memo
        if version != self.version:
            memo = {}
            self._memo = (self.version, memo)
        if name not in memo:
            memo[name] = make()
        value: T = memo[name]
        return value

    def control_of(self, unit: str) -> UnitControl:
        """Who controls ``unit`` now (kept per version: a projection asks it for every unit and row)."""
        kept = self._controls
        if kept[0] != self.version:
            kept = self._controls = (self.version, {})
        ctl = kept[1].get(unit)
        if ctl is None:
            ctl = kept[1][unit] = self.combat.control.of(unit)
        return ctl

    def players(self) -> dict[str, list[str]]:
        """Player name → the unit ids they control now."""
        out: dict[str, list[str]] = {}
        for uid, ctl in self.combat.control.everyone().items():
            if ctl.kind == "player":
                out.setdefault(ctl.who, []).append(uid)
        return out

    def undoable(self) -> bool:
        return bool(self.combat.record) or self.combat.partial is not None

    def log(self) -> list[LogItem]:
        """The log in order: the combat's events (as undo left them), typed dice, visibility lines
        (built once per version; a version that only added lines extends the last one)."""
        cached = self._log_cache
        if cached is not None and cached[0] == self.version:
            return cached[1]
        events, typed, extra, had_partial = self._log_marks
        partial = self.combat.partial_events
        items: list[LogItem] | None = None
        if cached is not None and not self._events_cut and not had_partial and not partial:
            new = self.event_items[events:] + self.typed[typed:] + self.extra_log[extra:]
            new.sort(key=_seq)
            if not new or not cached[1] or new[0].seq > cached[1][-1].seq:  # all after the kept ones
                items = cached[1] + new
        if items is None:
            items = list(self.event_items)
            for ev in partial:
                it = _item(ev, self.version, "", self.names)
                it.kind = "partial"
                items.append(it)
            items += self.typed
            items += self.extra_log
            items.sort(key=_seq)
            self.log_epoch += 1
        self._log_marks = (len(self.event_items), len(self.typed), len(self.extra_log), bool(partial))
        self._events_cut = False
        self._log_cache = (self.version, items)
        return items


def _seq(item: LogItem) -> int:
    return item.seq

def _item(ev: Event, seq: int, author: str, names: dict[str, str]) -> LogItem:
    values = {v for v in ev.data.values() if isinstance(v, str)}
    mentions = frozenset(u for u, n in names.items() if u in values or (n and n in ev.text) or u in ev.text)
    gm_only = bool(ev.data.get("gm_only")) or ev.kind == "note"
    subject = next((v for k in ("unit", "who", "id") if isinstance(v := ev.data.get(k), str)), "")
    return LogItem(seq, ev.kind if ev.kind in ("ruling", "note") else "event", ev.text, ev.rule, author,
                   gm_only=gm_only, mentions=mentions, subject=subject)


__all__ = ["ChatLine", "LogItem", "Row", "TableState", "entries_from_json", "seed_for"]
