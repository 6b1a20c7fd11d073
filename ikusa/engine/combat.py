"""Event-sourced combat record: setup + ordered entries (python-chess's ``Board`` move
stack is the model; issue #8 for control, dice requests, rulings and honest undo).

The state is derived from the list; the list is the save file, the replay and the undo
stack.  What the combat waits for is explicit (:meth:`Combat.awaiting`): a
:class:`~ikusa.engine.protocol.Decision` for whoever decides, or a
:class:`~ikusa.engine.dice_request.DiceRequest` for whoever rolls.

Two ways to feed dice:

* ``push(action, dice)`` with a :class:`~ikusa.dice.source.DiceSource`: every die the
  action rolls comes from it (``ikusa fight``, the lab, tests);
* ``push(action)`` (table mode): dice of rollers on ``auto`` come from
  :attr:`Combat.auto_dice`; a roller on ``manual``/``ask`` makes the action wait as a
  *partial entry* (:attr:`Combat.partial`) until :meth:`supply` (or :meth:`supply_sum`,
  :meth:`roll_pending`) brings the dice.  The action is parked where it rolled (a
  :class:`~ikusa.engine.continuation.Continuation`) and goes on from there, so the rules
  modules never see the pause and nothing is replayed; where it cannot go on (another
  thread, a restored log) it is re-applied from its start with every die so far.

Honest undo (§4): :meth:`undo` keeps the undone entries (their dice) on a redo stack;
pushing the same action again reuses those dice, a different action draws new ones (and
the undone entries are logged as ``discarded``); :meth:`redo` re-applies; :meth:`reroll`
(GM) applies the last action again with new dice, logged as ``rerolled``.

>>> # c = Combat(spec, encounter); c.push("yokogiri:oni", RandomSource(1)); c.undo()
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ikusa.dice.source import DiceSource, RandomSource
from ikusa.engine.continuation import Continuation
from ikusa.engine.control import GM, ControlSpec, ControlTable, DiceMode
from ikusa.engine.dice_request import AUTO, SUM, DiceRequest, Die, TableDice
from ikusa.engine.errors import DiceError, IkusaError, InputError, RuleViolation
from ikusa.engine.events import Event
from ikusa.engine.protocol import Action, Decision, GameState, fix_labels
from ikusa.engine.record import LOG_FORMAT, LOG_FORMATS, Entry, Partial, entries_from_json
from ikusa.engine.rulings import CORE_OPS, parse_ruling, ruling_to_json

__all__ = ["LOG_FORMAT", "LOG_FORMATS", "Combat", "Entry", "Partial", "entries_from_json"]


def _always_auto(_roller: str) -> DiceMode:
    return "auto"


class Combat:
    """One combat: a fresh-state factory, the setup it came from, and the record.

    ``new_state`` builds the initial state from nothing but the setup, so replaying the
    record always reproduces the state exactly.  ``control`` is the encounter's
    ``control:`` section (who decides and who rolls, checked against the state's roster).
    """

    def __init__(
        self,
        system: str,
        setup: dict[str, Any],
        new_state: Callable[[], GameState],
        control: ControlSpec | None = None,
        *,
        source: str = "",
    ) -> None:
        self.system = system
        self.setup = setup
        self._new_state = new_state
        self.state: GameState = new_state()
        self._control_spec = control or ControlSpec()
        self.control = ControlTable.build(self._control_spec, _roster(self.state), source)
        self.record: list[Entry] = []
        self.events: list[Event] = []
        # events[_marks[i]:] were caused by record[i:]
        self._marks: list[int] = []
        #: undone entries, the last undone on top: their dice are reused (honest undo)
        self.redo_stack: list[Entry] = []
        #: the action waiting for dice (its dice so far and the request), or None
        self.partial: Partial | None = None
        #: events the partial action caused before it stopped for dice (when the state
        #: shows them: ``events_so_far()``), for an interface to show the hit before the damage
        self.partial_events: list[Event] = []
        #: the parked action of :attr:`partial` (None: re-apply it from its start) and the
        #: decision it answers
        self._cont: Continuation | None = None
        self._src: TableDice | None = None
        self._answering: Decision | None = None
        #: the software dice of table mode (``push(action)`` without a source)
        self.auto_dice: DiceSource = RandomSource()
        #: an interface's own dice preference for every roller (``ikusa play --dice manual``:
        #: this terminal types every die); not part of the record — a logged change is a
        #: ``control`` ruling.  Who typed each die is recorded either way.
        self.dice_override: DiceMode | None = None

    # -- queries -----------------------------------------------------------------
    def pending(self) -> Decision | None:
        """The state's decision (while a partial waits for dice: the one it answers)."""
        if self.partial is not None:
            return self._answering
        return self.state.pending()

    def awaiting(self) -> Decision | DiceRequest | None:
        """What the combat waits for: dice from a roller, a decision, or ``None`` (over)."""
        if self.partial is not None:
            return self.partial.request
        return self.state.pending()

    @property
    def over(self) -> bool:
        return self.partial is None and self.state.pending() is None

    def _drop_partial(self) -> Partial | None:
        """Forget the action waiting for dice; the state is again the one before it."""
        p, self.partial, self.partial_events = self.partial, None, []
        cont, self._cont = self._cont, None
        if cont is not None:  # the state is mid-action: end it, then the state before it
            cont.abort()
            self._rebuild()
        return p

    def roster(self) -> list[tuple[str, str, str]]:
        """Every unit as ``(id, name, side)``."""
        return _roster(self.state)

    # -- decisions ----------------------------------------------------------------
    def push(self, action: Action, dice: DiceSource | None = None) -> list[Event]:
        """Apply ``action`` for whoever must decide now.  Illegal actions raise
        :class:`RuleViolation` and change nothing (the state is rebuilt by replay).

        Without ``dice`` (table mode) the action may stop for a person's dice: it is then
        kept as :attr:`partial` and the events so far are returned empty."""
        self._no_partial("choose an action")
        decision = self.state.pending()
        if decision is None:
            raise RuleViolation("ENGINE", "", "the combat is over; no decision is pending")
        if decision.option(action) is None:
            # Let the system explain with its own rule if it can, without mutating.
            self._refuse(action, decision)
        prefill: list[Die] = []
        reused = False
        discarded: list[dict[str, Any]] = []
        if self.redo_stack:
            top = self.redo_stack[-1]
            if top.kind == "decision" and top.action == action and top.actor == decision.actor:
                prefill, reused = top.dies, True
            else:
                discarded = [e.brief() for e in reversed(self.redo_stack)]
        template = Partial(decision.actor, action, [], _NO_REQUEST, reused=reused, discarded=discarded)
        events = self._attempt(template, prefill, dice)
        if reused:
            self.redo_stack.pop()
        elif discarded:
            self.redo_stack.clear()
        return events

    def rule(self, ruling: Any, dice: DiceSource | None = None) -> list[Event]:
        """Apply a GM ruling (a :mod:`~ikusa.engine.rulings` model or its data) as an entry
        with ``actor: GM``, whatever is pending.  ``control`` and ``note`` are the core's;
        every other op is the state's ``apply_ruling(ruling, dice)``.  A refused ruling
        changes nothing.  While an action waits for dice, the ruling comes first and the
        action is tried again after it (dropped, with an event, if it no longer fits)."""
        r = parse_ruling(ruling) if isinstance(ruling, dict) else ruling
        data = ruling_to_json(r)
        if r.op not in CORE_OPS and not callable(getattr(self.state, "apply_ruling", None)):
            raise InputError(f"GM ruling {r.op!r} is not supported by the {self.system} engine yet "
                             "(only control and note)", field="ruling.op")
        waiting = self._drop_partial()
        try:
            events = self._attempt(Partial(GM, "!" + r.op, [], _NO_REQUEST, "ruling", data), [], dice)
        except IkusaError:
            if waiting is not None:  # back to waiting for the same dice
                self._attempt(waiting, waiting.dice, None)
            raise
        if waiting is not None:
            if self.partial is not None:  # the ruling itself waits for dice: the action is dropped
                self.redo_stack.append(waiting.entry(waiting.dice))
                return events
            try:
                events += self._attempt(waiting, waiting.dice, None)
            except IkusaError as exc:
                self.redo_stack.append(waiting.entry(waiting.dice))
                # told to the caller only: it is no entry's event, so a replay of the log (which
                # holds the ruling, and the action on the redo stack) gives the same events
                events.append(Event("ruling", "GM", f"GM裁定の後、{waiting.actor} の {waiting.action} は"
                                    f"適用できないため取り消し ({exc})", {"cancelled": waiting.action}))
        return events

    # -- dice ---------------------------------------------------------------------
    def supply(self, values: list[int], by: str = "") -> list[Event]:
        """The dice of the pending request, typed by ``by`` (default: the roller).  Values
        that do not fit are a :class:`DiceError` and change nothing."""
        p = self._need_partial()
        p.request.check(values)
        who = by or p.request.roller
        return self._resume(p, [Die(v, p.request.sides, who) for v in values])

    def supply_sum(self, total: int, by: str = "") -> list[Event]:
        """Only the sum of a pool (``DiceRequest.sum_only``): faces spread evenly, marked ``sum``."""
        p = self._need_partial()
        if not p.request.sum_only and p.request.count > 1:
            raise DiceError(f"{p.request.purpose}: the faces matter here; type each of the "
                            f"{p.request.count} dice")
        faces = p.request.spread_sum(total)
        who = f"{SUM}:{by or p.request.roller}"
        return self._resume(p, [Die(v, p.request.sides, who) for v in faces])

    def roll_pending(self, dice: DiceSource | None = None) -> list[Event]:
        """Let the software roll the pending request (``roll`` at a dice prompt)."""
        p = self._need_partial()
        src = dice or self.auto_dice
        values = src.roll(p.request.sides, p.request.count, p.request.purpose, p.request.roller)
        return self._resume(p, [Die(v, p.request.sides, AUTO) for v in values])

    def _resume(self, p: Partial, new: list[Die]) -> list[Event]:
        cont, src = self._cont, self._src
        if cont is None or src is None or not cont.usable():  # re-apply from its start
            self._drop_partial()
            try:
                return self._attempt(p, p.dice + new, None)
            except IkusaError:
                self._attempt(p, p.dice, None)
                raise
        self.partial, self.partial_events, self._cont = None, [], None
        try:
            step = cont.resume(new)
        except IkusaError:
            self._rebuild()
            self._attempt(p, p.dice, None)
            raise
        return self._settle(p, src, cont, step)

    # -- undo / redo / reroll -----------------------------------------------------
    def undo(self) -> Entry:
        """Undo the action waiting for dice, or the last entry; its dice stay on the redo
        stack (the same action again gets the same dice)."""
        if self.partial is not None:
            p = self._drop_partial()
            assert p is not None
            entry = p.entry(p.dice)
            self.redo_stack.append(entry)
            return entry
        entry = self.pop()
        self.redo_stack.append(entry)
        return entry

    def pop(self) -> Entry:
        """Remove the last entry (and its events) without keeping it for redo."""
        if self.partial is not None:
            p = self._drop_partial()
            assert p is not None
            return p.entry(p.dice)
        if not self.record:
            raise InputError("nothing to undo")
        entry = self.record.pop()
        cut = self._marks.pop()
        del self.events[cut:]
        self._rebuild()
        return entry

    def redo(self) -> list[Event]:
        """Re-apply the last undone entry with its own dice."""
        self._no_partial("redo")
        if not self.redo_stack:
            raise InputError("nothing to redo")
        e = self.redo_stack[-1]
        template = Partial(e.actor, e.action, [], _NO_REQUEST, e.kind, e.ruling, e.reused, e.rerolled,
                           e.discarded)
        if e.kind == "decision":
            decision = self.state.pending()
            if decision is None or decision.option(e.action) is None or decision.actor != e.actor:
                who = "nobody" if decision is None else f"{decision.actor} ({decision.kind})"
                raise InputError(f"cannot redo {e.actor} {e.action}: the pending decision is {who}'s now")
        events = self._attempt(template, e.dies, None)
        self.redo_stack.pop()
        return events

    def reroll(self, reason: str = "", by: str = GM) -> list[Event]:
        """GM: apply the last decision again with new dice; the entry records the old dice
        (``rerolled``).  Rollers on manual dice are asked again."""
        self._no_partial("reroll")
        if not self.record or self.record[-1].kind != "decision":
            raise InputError("nothing to reroll: the last entry is not a decision")
        last = self.record[-1]
        if not last.dice:
            raise InputError(f"nothing to reroll: {last.actor} {last.action} rolled no dice")
        self.pop()
        self.redo_stack.clear()
        info = {"dice": [d.to_json() for d in last.dies], "by": by, **({"reason": reason} if reason else {})}
        template = Partial(last.actor, last.action, [], _NO_REQUEST, rerolled=info)
        try:
            return self._attempt(template, [], None)
        except IkusaError:
            self._attempt(Partial(last.actor, last.action, [], _NO_REQUEST), last.dies, None)
            raise

    # -- the core of every entry --------------------------------------------------
    def _attempt(self, tpl: Partial, prefill: list[Die], dice: DiceSource | None) -> list[Event]:
        """Apply one entry (decision or ruling) with ``prefill`` dice first; on success it
        is recorded, if a person must roll it becomes the partial (parked where it rolled),
        on refusal nothing changes."""
        fix_labels(self.state.pending())  # lazy labels from the state before the entry (protocol.Option)
        if dice is not None:
            src = TableDice(list(prefill), dice, _always_auto, tpl.actor)
            try:
                events = self._apply_entry(tpl, src)
            except IkusaError:
                self._rebuild()
                raise
            self._record(tpl, src, events)
            return events
        src = TableDice(list(prefill), self.auto_dice, self._mode_of, tpl.actor, sum_only=self._sum_only(),
                        resolve=self.control.resolve)
        answering = self.state.pending()
        cont = Continuation(lambda: self._apply_entry(tpl, src))
        src.wait = cont.wait
        try:
            step = cont.start()
        except IkusaError:
            self._rebuild()
            raise
        self._answering = answering
        return self._settle(tpl, src, cont, step)

    def _settle(self, tpl: Partial, src: TableDice, cont: Continuation, step: DiceRequest | list[Event]) -> list[Event]:
        """Record a finished entry, or keep the parked one as the partial."""
        if isinstance(step, DiceRequest):
            so_far = getattr(self.state, "events_so_far", None)
            self.partial_events = list(so_far()) if callable(so_far) else []
            self.partial = Partial(tpl.actor, tpl.action, list(src.drawn), step, tpl.kind, tpl.ruling,
                                   tpl.reused, tpl.rerolled, tpl.discarded)
            self._cont, self._src = cont, src
            return []
        self._record(tpl, src, step)
        return step

    def _apply_entry(self, tpl: Partial, src: TableDice) -> list[Event]:
        if tpl.kind == "ruling":
            assert tpl.ruling is not None
            return self._apply_ruling(self.state, tpl.ruling, src)
        return self.state.apply(tpl.action, src)

    def _record(self, tpl: Partial, src: TableDice, events: list[Event]) -> None:
        self.record.append(tpl.entry(src.drawn))
        self._marks.append(len(self.events))
        self.events.extend(events)

    def _apply_ruling(self, state: GameState, data: dict[str, Any], dice: DiceSource) -> list[Event]:
        r = parse_ruling(data)
        reason = f" (理由: {r.reason})" if getattr(r, "reason", "") else ""
        if r.op == "control":
            text = self.control.set(r.unit, r.side, r.controller, r.dice)
            return [Event("ruling", "GM", f"GM裁定 操作: {text}{reason}", {"ruling": data})]
        if r.op == "note":
            return [Event("note", "GM", f"GMメモ: {r.text}", {"ruling": data, "gm_only": True})]
        apply = getattr(state, "apply_ruling", None)
        if not callable(apply):
            raise InputError(f"GM ruling {r.op!r} is not supported by the {self.system} engine yet",
                             field="ruling.op")
        events: list[Event] = apply(r, dice)
        if r.op == "add_unit":
            self.control.roster = _roster(state)
        return events

    def _mode_of(self, roller: str) -> DiceMode:
        return self.dice_override or self.control.of(roller).dice

    def _sum_only(self) -> bool:
        return bool(getattr(self.state, "dice_sum_only", False))

    def _no_partial(self, what: str) -> None:
        if self.partial is not None:
            r = self.partial.request
            raise InputError(f"cannot {what}: waiting for {self.control.name_of(r.roller)}'s {r.notation} "
                             f"({r.purpose}); give the dice, roll them, or undo the action")

    def _need_partial(self) -> Partial:
        if self.partial is None:
            raise InputError("no roll is waiting for dice")
        return self.partial

    def _refuse(self, action: Action, decision: Decision) -> None:
        explain = getattr(self.state, "explain_illegal", None)
        if callable(explain):
            err = explain(action)
            if isinstance(err, RuleViolation):
                raise err
        legal = ", ".join(decision.keys()[:12])
        more = " …" if len(decision.options) > 12 else ""
        raise RuleViolation(
            "ENGINE",
            "",
            f"{action!r} is not a legal option for {decision.actor} ({decision.kind}) now; "
            f"legal: {legal}{more}",
        )

    def _rebuild(self) -> None:
        """The state (and control table) again from the setup and the record, by replay."""
        state = self._new_state()
        self.control = ControlTable.build(self._control_spec, _roster(state))
        for i, e in enumerate(self.record):
            src = TableDice(e.dies, None, _always_auto, e.actor, strict=True)
            try:
                if e.kind == "ruling":
                    assert e.ruling is not None
                    self._apply_ruling(state, e.ruling, src)
                else:
                    state.apply(e.action, src)
            except IkusaError as exc:  # pragma: no cover - would be an engine bug
                raise IkusaError(f"replay diverged at entry {i + 1} ({e.action}): {exc}") from exc
        self.state = state

    # -- persistence -------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": LOG_FORMAT,
            "system": self.system,
            "setup": self.setup,
            "entries": [e.to_json() for e in self.record],
        }
        if self.partial is not None:
            out["partial"] = self.partial.to_json()
        if self.redo_stack:
            out["redo"] = [e.to_json() for e in self.redo_stack]
        return out

    def save(self, path: str | Path) -> None:
        """Write the log atomically (a crash mid-write never leaves half a file); an
        unwritable path is an :class:`InputError` naming the file."""
        text = json.dumps(self.to_json(), ensure_ascii=False, indent=1) + "\n"
        p = Path(path)
        tmp = p.with_name(p.name + ".tmp")
        try:
            tmp.write_text(text, "utf-8")
            tmp.replace(p)
        except OSError as exc:
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass
            raise InputError(f"cannot save the log: {exc.strerror or exc}", source=str(path)) from None

    def replay(self, entries: list[Entry], *, source: str = "") -> None:
        """Apply saved entries in order, each with exactly its recorded dice.

        A hand-edited entry that does not fit is refused with its field named: an action
        that is not legal, an ``actor`` who is not the one deciding, dice too few, too
        many, out of range, or with other sides than the action rolls."""
        for i, e in enumerate(entries):
            where = f"entries[{i}]"
            decision = self.state.pending()
            if e.kind == "decision" and decision is not None and e.actor and e.actor != decision.actor:
                raise InputError(
                    f"entry {i + 1} ({e.action!r}) is recorded for {e.actor!r}, but the decision "
                    f"is {decision.actor!r}'s ({decision.kind})", source=source, field=f"{where}.actor")
            self.replay_one(e, source=source, where=where, number=i + 1)

    def replay_one(self, e: Entry, *, source: str = "", where: str = "entry", number: int = 0) -> None:
        """Apply one saved entry with exactly its dice (errors name ``where``)."""
        tpl = Partial(e.actor, e.action, [], _NO_REQUEST, e.kind, e.ruling, e.reused, e.rerolled, e.discarded)
        label = f"entry {number} ({e.action!r})" if number else f"{e.action!r}"
        src = TableDice(e.dies, None, _always_auto, e.actor, strict=True)
        try:
            if e.kind == "decision":
                decision = self.state.pending()
                if decision is None:
                    raise RuleViolation("ENGINE", "", "the combat is over; no decision is pending")
                if decision.option(e.action) is None:
                    self._refuse(e.action, decision)
            events = (self._apply_ruling(self.state, e.ruling or {}, src) if e.kind == "ruling"
                      else self.state.apply(e.action, src))
        except IkusaError as exc:
            self._rebuild()
            raise InputError(f"{label} cannot be replayed: {exc}", source=source, field=where) from exc
        if src.unused:
            self._rebuild()
            prefix = ":".join(p for p in (source, f"{where}.dice") if p)
            raise DiceError(f"{prefix}: {label} left {len(src.unused)} recorded dice unused")
        rolled = [d.sides for d in src.drawn]
        recorded = [s for _, s in e.dice]
        if rolled != recorded:
            self._rebuild()
            raise InputError(f"{label} records dice of sides {recorded}, but the action rolls {rolled}",
                             source=source, field=f"{where}.dice")
        self.record.append(tpl.entry(src.drawn))
        self._marks.append(len(self.events))
        self.events.extend(events)

    def restore(self, data: dict[str, Any], *, source: str = "") -> None:
        """Replay a saved log's entries, then its redo stack and its partial entry."""
        self.replay(entries_from_json(data.get("entries", []), source), source=source)
        self.redo_stack = entries_from_json(data.get("redo", []), source, "redo")
        raw = data.get("partial")
        if raw is None:
            return
        [p] = entries_from_json([raw], source, "partial")
        tpl = Partial(p.actor, p.action, [], _NO_REQUEST, p.kind, p.ruling, p.reused, p.rerolled, p.discarded)
        try:
            self._attempt(tpl, p.dies, None)
        except IkusaError as exc:
            raise InputError(f"the action waiting for dice ({p.action!r}) cannot be restored: {exc}",
                             source=source, field="partial") from exc


def _roster(state: GameState) -> list[tuple[str, str, str]]:
    fn = getattr(state, "roster", None)
    return list(fn()) if callable(fn) else []


#: placeholder request of an entry template (never shown)
_NO_REQUEST = DiceRequest(GM, 1, 0, "")
