"""Event-sourced combat record: setup + ordered decisions and dice (python-chess's
``Board`` move stack is the model).

The state is derived from the list; the list is the save file, the replay and the undo
stack.

>>> # c = Combat(spec, encounter); c.push("yokogiri:oni", RandomSource(1)); c.pop()
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ikusa.dice.source import DiceSource, RecordingSource, ScriptedSource
from ikusa.engine.errors import DiceError, IkusaError, InputError, RuleViolation
from ikusa.engine.events import Event
from ikusa.engine.protocol import Action, Decision, GameState

LOG_FORMAT = "ikusa-log/1"


@dataclass(slots=True)
class Entry:
    """One applied decision and the dice it consumed, as ``(value, sides)``."""

    actor: str
    action: Action
    dice: list[tuple[int, int]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"actor": self.actor, "action": self.action, "dice": [[v, s] for v, s in self.dice]}


class Combat:
    """One combat: a fresh-state factory, the setup it came from, and the record.

    ``new_state`` builds the initial state from nothing but the setup, so replaying the
    record always reproduces the state exactly.
    """

    def __init__(
        self,
        system: str,
        setup: dict[str, Any],
        new_state: Callable[[], GameState],
    ) -> None:
        self.system = system
        self.setup = setup
        self._new_state = new_state
        self.state: GameState = new_state()
        self.record: list[Entry] = []
        self.events: list[Event] = []
        # events[i] was caused by record[event_owner[i]]; -1 = initial state
        self._marks: list[int] = []

    # -- queries -----------------------------------------------------------------
    def pending(self) -> Decision | None:
        return self.state.pending()

    @property
    def over(self) -> bool:
        return self.state.pending() is None

    # -- mutation ----------------------------------------------------------------
    def push(self, action: Action, dice: DiceSource) -> list[Event]:
        """Apply ``action`` for whoever must decide now.  Illegal actions raise
        :class:`RuleViolation` and change nothing (the state is rebuilt by replay)."""
        decision = self.state.pending()
        if decision is None:
            raise RuleViolation("ENGINE", "", "the combat is over; no decision is pending")
        if decision.option(action) is None:
            # Let the system explain with its own rule if it can, without mutating.
            self._refuse(action, decision)
        rec = RecordingSource(dice)
        try:
            events = self.state.apply(action, rec)
        except IkusaError:
            self._rebuild()
            raise
        self.record.append(Entry(decision.actor, action, rec.take()))
        self._marks.append(len(self.events))
        self.events.extend(events)
        return events

    def pop(self) -> Entry:
        """Undo the last decision (and its dice)."""
        if not self.record:
            raise InputError("nothing to undo")
        entry = self.record.pop()
        cut = self._marks.pop()
        del self.events[cut:]
        self._rebuild()
        return entry

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
        state = self._new_state()
        for i, e in enumerate(self.record):
            src = ScriptedSource([v for v, _ in e.dice])
            try:
                state.apply(e.action, src)
            except IkusaError as exc:  # pragma: no cover - would be an engine bug
                raise IkusaError(f"replay diverged at entry {i + 1} ({e.action}): {exc}") from exc
        self.state = state

    # -- persistence -------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": LOG_FORMAT,
            "system": self.system,
            "setup": self.setup,
            "entries": [e.to_json() for e in self.record],
        }

    def save(self, path: str | Path) -> None:
        """Write the log; an unwritable path is an :class:`InputError` naming the file."""
        text = json.dumps(self.to_json(), ensure_ascii=False, indent=1) + "\n"
        try:
            Path(path).write_text(text, "utf-8")
        except OSError as exc:
            raise InputError(f"cannot save the log: {exc.strerror or exc}", source=str(path)) from None

    def replay(self, entries: list[Entry], *, source: str = "") -> None:
        """Apply saved entries in order, each with exactly its recorded dice.

        A hand-edited entry that does not fit is refused with its field named: an action
        that is not legal, an ``actor`` who is not the one deciding, dice too few, too
        many, out of range, or with other sides than the action rolls."""
        for i, e in enumerate(entries):
            where = f"entries[{i}]"
            decision = self.state.pending()
            if decision is not None and e.actor and e.actor != decision.actor:
                raise InputError(
                    f"entry {i + 1} ({e.action!r}) is recorded for {e.actor!r}, but the decision "
                    f"is {decision.actor!r}'s ({decision.kind})", source=source, field=f"{where}.actor")
            src = ScriptedSource([v for v, _ in e.dice])
            try:
                self.push(e.action, src)
            except IkusaError as exc:
                raise InputError(f"entry {i + 1} ({e.action!r}) cannot be replayed: {exc}",
                                 source=source, field=where) from exc
            if src.remaining:
                prefix = ":".join(p for p in (source, f"{where}.dice") if p)
                raise DiceError(f"{prefix}: entry {i + 1} ({e.action!r}) left {src.remaining} recorded dice unused")
            rolled = [s for _, s in self.record[-1].dice]
            recorded = [s for _, s in e.dice]
            if rolled != recorded:
                raise InputError(
                    f"entry {i + 1} ({e.action!r}) records dice of sides {recorded}, but the action "
                    f"rolls {rolled}", source=source, field=f"{where}.dice")


def entries_from_json(raw: Any, source: str = "<log>") -> list[Entry]:
    """Parse the ``entries`` list of a saved log, with errors naming the field."""
    if not isinstance(raw, list):
        raise InputError("must be a list", source=source, field="entries")
    out: list[Entry] = []
    for i, item in enumerate(raw):
        where = f"entries[{i}]"
        if not isinstance(item, dict) or not isinstance(item.get("action"), str):
            raise InputError("each entry needs a string 'action'", source=source, field=where)
        unknown = set(item) - {"actor", "action", "dice"}
        if unknown:
            raise InputError(f"unknown key(s) {sorted(unknown)}", source=source, field=where)
        actor = item.get("actor", "")
        if not isinstance(actor, str):
            raise InputError("'actor' must be a string", source=source, field=f"{where}.actor")
        dice_raw = item.get("dice", [])
        dice: list[tuple[int, int]] = []
        if not isinstance(dice_raw, list):
            raise InputError("'dice' must be a list of [value, sides]", source=source, field=f"{where}.dice")
        for d in dice_raw:
            if (
                not isinstance(d, list | tuple) or len(d) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in d)
                or d[1] < 1
            ):
                raise InputError(f"'dice' must be a list of [value, sides] whole numbers, not {d!r}",
                                 source=source, field=f"{where}.dice")
            dice.append((int(d[0]), int(d[1])))
        out.append(Entry(actor, item["action"], dice))
    return out
