"""A table's live state, derived by replaying its entries onto a :class:`Combat`.

This is the thin layer between the store and the core.  It knows the entry kinds and
what each does to the state; it does not know about HTTP, roles or the database.

Entry kinds (``payload`` shapes):

* ``decision`` ``{"actor", "action", "dice": [[v, s]…]}``: an action applied with exactly
  these dice (rolled by the server: auto dice, or the AI);
* ``begin`` ``{"actor", "action"}``: an action whose dice the roller types; it waits as a
  :class:`DiceRequest` (it survives a restart: the entry is in the log);
* ``dice`` ``{"values": [...], "sides": s, "by": who}``: dice typed (or rolled on request,
  ``by: "server"``) for the open request; the action is applied when its last die is in;
* ``ruling`` ``{"ruling": {...}}``: a GM ruling (``note``, ``control``, ``reveal``/``hide``
  handled here; any other op goes to the state's ``apply_ruling`` once the core has it);
* ``chat`` ``{"text", "result", "secret"}`` and ``reveal`` ``{"seq"}``: dice chat;
* ``undo`` / ``redo`` ``{}``: the GM takes back the last decision, ruling or begun action
  (append-only: an undo is itself an entry; the state is the replay of what is not undone).

Until the core exposes dice requests (issue #8), a begun action is tried with a source that
signals :class:`NeedDice` when the typed dice run dry; :class:`Combat` then rebuilds the
state by replay (so a try costs one replay of the table).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ikusa.dice.source import DiceSource, RandomSource, ScriptedSource
from ikusa.engine.combat import Combat
from ikusa.engine.errors import DiceError, InputError, RuleViolation
from ikusa.engine.events import Event
from ikusa.engine.protocol import Decision
from ikusa.server.setup import Control, TableSetup

SERVER_OPS = frozenset({"note", "control", "reveal", "hide"})


class NeedDice(DiceError):
    """The typed dice ran out: the action needs ``count`` d``sides`` for ``purpose`` next."""

    def __init__(self, sides: int, count: int, purpose: str) -> None:
        self.sides = sides
        self.count = count
        self.purpose = purpose
        super().__init__(f"{count}d{sides} needed: {purpose}")


class _FeedSource:
    """Hands out typed values in order; raises :class:`NeedDice` when they run dry."""

    def __init__(self, values: list[int]) -> None:
        self.values = values
        self.pos = 0

    def roll(self, sides: int, count: int = 1, purpose: str = "") -> list[int]:
        if self.pos + count > len(self.values):
            raise NeedDice(sides, count, purpose)
        out = self.values[self.pos:self.pos + count]
        self.pos += count
        return out


@dataclass(slots=True)
class DiceRequest:
    """A roll that waits for its roller: ``count`` d``sides`` for ``purpose``."""

    roller: str
    sides: int
    count: int
    purpose: str
    actor: str
    action: str
    typed: list[tuple[int, int, str]] = field(default_factory=list)  # (value, sides, by) so far


@dataclass(slots=True)
class LogItem:
    """One line of the table's log: an event, a ruling, a chat line."""

    seq: int
    kind: str  # "event", "ruling", "note", "chat", "dice"
    text: str
    rule: str = ""
    author: str = ""
    gm_only: bool = False
    mentions: frozenset[str] = frozenset()
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class ChatLine:
    seq: int
    author: str
    name: str
    text: str
    result: dict[str, Any] | None
    secret: bool
    revealed: bool = False


def _mentions(ev: Event, ids_names: dict[str, str]) -> frozenset[str]:
    found = set()
    values = [v for v in ev.data.values() if isinstance(v, str)]
    for uid, name in ids_names.items():
        if uid in values or (name and name in ev.text) or uid in ev.text:
            found.add(uid)
    return frozenset(found)


class TableState:
    """Setup + entries → the combat, the open dice request, control, hidden units, chat and log."""

    def __init__(self, setup: TableSetup, seed: int) -> None:
        self.setup = setup
        self.seed = seed
        self.version = 0
        self.entries: list[tuple[int, str, str, dict[str, Any]]] = []  # (seq, kind, author, payload)
        self._reset()

    # -- replay ---------------------------------------------------------------------------------
    def _reset(self) -> None:
        loaded = self.setup.loaded
        self.combat: Combat = loaded.new_combat()
        src = ScriptedSource([], fallback=RandomSource(self.seed))
        for step in loaded.doc.script:  # the encounter's own script, deterministic from the seed
            self.combat.push(step.action, ScriptedSource(step.dice, fallback=src))
        self.control: dict[str, Control] = dict(self.setup.control)
        self.hidden: set[str] = set(self.setup.hidden)
        self.request: DiceRequest | None = None
        self.chat: list[ChatLine] = []
        self.log: list[LogItem] = []
        self.redo_stack: list[int] = []
        self.names = {u.id: u.name for u in self.setup.units}
        self._log_events(0, list(self.combat.events), "")

    def load(self, entries: list[tuple[int, str, str, dict[str, Any]]]) -> None:
        """Rebuild from nothing with ``entries`` (used at start-up and after undo/redo)."""
        self.entries = []
        self.version = 0
        self._reset()
        undone = _undone(entries)
        for e in entries:
            self.entries.append(e)
            self.version = e[0]
            if e[0] in undone or e[1] in ("undo", "redo"):
                continue
            self._apply(*e)
        self.redo_stack = _redo_stack(entries)

    def append(self, seq: int, kind: str, author: str, payload: dict[str, Any],
               source: DiceSource | None = None) -> None:
        """Apply one new entry.  A ``decision`` given a ``source`` rolls its dice from it and
        records them in ``payload["dice"]``.  An illegal one raises and changes nothing."""
        if kind in ("undo", "redo"):
            self.load([*self.entries, (seq, kind, author, payload)])
            return
        self._apply(seq, kind, author, payload, source)
        self.entries.append((seq, kind, author, payload))
        self.version = seq
        if kind in ("decision", "begin", "ruling"):
            self.redo_stack = []

    def _apply(self, seq: int, kind: str, author: str, p: dict[str, Any], source: DiceSource | None = None) -> None:
        if kind == "decision":
            if source is not None:
                events = self.combat.push(p["action"], source)
                p["dice"] = [list(d) for d in self.combat.record[-1].dice]
            else:
                events = self.combat.push(p["action"], ScriptedSource([v for v, _ in p["dice"]]))
            self._log_events(seq, events, author)
        elif kind == "begin":
            self.request = self._try(seq, author, p["actor"], p["action"], [])
        elif kind == "dice":
            req = self.request
            assert req is not None
            typed = [*req.typed, *((int(v), int(p["sides"]), str(p["by"])) for v in p["values"])]
            self.log.append(LogItem(seq, "dice", f"{req.purpose}: {', '.join(str(v) for v in p['values'])}",
                                    author=str(p["by"]), mentions=frozenset({req.actor}),
                                    data={"values": p["values"], "sides": p["sides"], "purpose": req.purpose}))
            nxt = self._try(seq, author, req.actor, req.action, [v for v, _, _ in typed])
            if nxt is not None:
                nxt.typed = typed
            self.request = nxt
        elif kind == "ruling":
            self._apply_ruling(seq, author, p["ruling"])
        elif kind == "chat":
            self.chat.append(ChatLine(seq, author, str(p.get("name", author)), str(p["text"]),
                                      p.get("result"), bool(p.get("secret"))))
        elif kind == "reveal":
            for line in self.chat:
                if line.seq == p["seq"]:
                    line.revealed = True
        elif kind == "cancel":
            self.request = None
        else:  # pragma: no cover - the service writes only the kinds above
            raise InputError(f"unknown entry kind {kind!r}")

    def _try(self, seq: int, author: str, actor: str, action: str, typed: list[int]) -> DiceRequest | None:
        """Apply ``action`` with the ``typed`` dice if they suffice; else the next roll it needs
        (the combat is left unchanged: :meth:`Combat.push` rebuilds it by replay)."""
        try:
            events = self.combat.push(action, _FeedSource(typed))
        except NeedDice as need:
            return DiceRequest(actor, need.sides, need.count, need.purpose, actor, action)
        self._log_events(seq, events, author)
        return None

    def _apply_ruling(self, seq: int, author: str, r: dict[str, Any]) -> None:
        op = r["op"]
        reason = str(r.get("reason", ""))
        if op == "note":
            self.log.append(LogItem(seq, "note", str(r["text"]), author=author, gm_only=True))
            return
        if op == "reveal" or op == "hide":
            uid = str(r["unit"])
            (self.hidden.discard if op == "reveal" else self.hidden.add)(uid)
            text = f"GM裁定: {self.names.get(uid, uid)} が{'現れた' if op == 'reveal' else '隠れた'}"
            self.log.append(LogItem(seq, "ruling", text + (f"（{reason}）" if reason else ""), author=author,
                                    gm_only=op == "hide", mentions=frozenset({uid}) if op == "hide" else frozenset()))
            return
        if op == "control":
            targets = [str(r["unit"])] if r.get("unit") else [u.id for u in self.setup.units if u.side == r.get("side")]
            for uid in targets:
                old = self.control.get(uid, Control())
                self.control[uid] = Control(r.get("controller") or old.controller, r.get("dice") or old.dice)
            who = ", ".join(self.names.get(t, t) for t in targets)
            self.log.append(LogItem(seq, "ruling", f"GM裁定: 担当変更 {who}", author=author, gm_only=True))
            return
        apply_ruling = getattr(self.combat.state, "apply_ruling", None)
        if not callable(apply_ruling):
            raise InputError(f"the {self.setup.system} engine does not take {op!r} rulings yet (issue #8)",
                             field="ruling.op")
        from ikusa.engine.rulings import parse_ruling

        events = apply_ruling(parse_ruling(r), ScriptedSource([], fallback=RandomSource(self.seed + seq)))
        self._log_events(seq, list(events), author, kind="ruling")

    def _log_events(self, seq: int, events: list[Event], author: str, kind: str = "event") -> None:
        for ev in events:
            self.log.append(LogItem(seq, kind, ev.text, ev.rule, author, mentions=_mentions(ev, self.names),
                                    data={"kind": ev.kind, **ev.data}))

    # -- queries ----------------------------------------------------------------------------------
    def decision(self) -> Decision | None:
        return None if self.request is not None else self.combat.pending()

    @property
    def over(self) -> bool:
        return self.request is None and self.combat.pending() is None

    def control_of(self, unit: str) -> Control:
        return self.control.get(unit, Control())

    def undoable(self) -> bool:
        return bool(_groups(self.entries, _undone(self.entries)))

    # -- validation of a new entry (raises; changes nothing) ---------------------------------------
    def check_action(self, action: str) -> Decision:
        if self.request is not None:
            raise RuleViolation("ENGINE", "", f"dice are awaited first: {self.request.count}d{self.request.sides} "
                                f"for {self.request.purpose}")
        d = self.combat.pending()
        if d is None:
            raise RuleViolation("ENGINE", "", "the combat is over; no decision is pending")
        if d.option(action) is None:
            self.combat._refuse(action, d)
        return d



def _groups(entries: list[tuple[int, str, str, dict[str, Any]]], undone: set[int]) -> list[list[int]]:
    """The undoable groups still in force: a decision, a ruling, or a begin with its dice."""
    groups: list[list[int]] = []
    for seq, kind, _a, _p in entries:
        if seq in undone:
            continue
        if kind in ("decision", "ruling", "begin"):
            groups.append([seq])
        elif kind in ("dice", "cancel") and groups:
            groups[-1].append(seq)
    return groups


def _undo_state(entries: list[tuple[int, str, str, dict[str, Any]]]) -> tuple[set[int], list[list[int]]]:
    """The seqs undone, and the groups a redo would bring back (last = next)."""
    undone: set[int] = set()
    stack: list[list[int]] = []
    active: list[tuple[int, str, str, dict[str, Any]]] = []
    for e in entries:
        kind = e[1]
        if kind == "undo":
            groups = _groups(active, undone)
            if groups:
                undone.update(groups[-1])
                stack.append(groups[-1])
        elif kind == "redo":
            if stack:
                undone.difference_update(stack.pop())
        else:
            if kind in ("decision", "ruling", "begin"):
                stack = []
            active.append(e)
    return undone, stack


def _undone(entries: list[tuple[int, str, str, dict[str, Any]]]) -> set[int]:
    return _undo_state(entries)[0]


def _redo_stack(entries: list[tuple[int, str, str, dict[str, Any]]]) -> list[int]:
    return [g[0] for g in _undo_state(entries)[1]]
