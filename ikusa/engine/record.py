"""The combat record's entries and their JSON form (the save file).

Entry kinds (issue #8 §2, §4):

* ``decision`` — a unit's (or the GM's) choice of a pending option, with its dice;
* ``ruling`` — a GM ruling (``actor: GM``): the ruling's data and any dice it rolled.

Each die is ``[value, sides]`` when the software drew it, or ``[value, sides, by]`` with
who typed it.  A decision may also carry ``reused`` (its dice are those of an undone
entry of the same action: undo is no free reroll), ``rerolled`` (the GM had the dice of
the previous attempt rolled again: their old values, and the reason) and ``discarded``
(undone entries dropped because a different action was chosen: their dice, never used).

A log also holds the *partial* entry (an action whose dice are not all in yet) and the
redo stack, so a combat survives a process restart exactly.

``ikusa-log/1`` logs (entries without ``kind``, dice as pairs) load unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ikusa.engine.dice_request import AUTO, DiceRequest, Die
from ikusa.engine.errors import InputError

LOG_FORMAT = "ikusa-log/2"
#: formats :func:`~ikusa.engine.runner.load_log` reads
LOG_FORMATS = ("ikusa-log/1", LOG_FORMAT)

EntryKind = Literal["decision", "ruling"]


@dataclass(slots=True)
class Entry:
    """One entry of the record: an applied decision (or a GM ruling) and its dice."""

    actor: str
    action: str
    #: the dice as ``(value, sides)``, in the order drawn
    dice: list[tuple[int, int]] = field(default_factory=list)
    kind: EntryKind = "decision"
    #: the ruling as data (``kind == "ruling"``)
    ruling: dict[str, Any] | None = None
    reused: bool = False
    rerolled: dict[str, Any] | None = None
    discarded: list[dict[str, Any]] = field(default_factory=list)
    #: who entered each die (``"auto"`` = the software); same length as ``dice`` when set
    by: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, actor: str, action: str, dies: list[Die], kind: EntryKind = "decision",
           ruling: dict[str, Any] | None = None) -> Entry:
        return cls(actor, action, [(d.value, d.sides) for d in dies], kind, ruling,
                   by=[d.by for d in dies] if any(d.by != AUTO for d in dies) else [])

    @property
    def dies(self) -> list[Die]:
        by = self.by or [AUTO] * len(self.dice)
        return [Die(v, s, b) for (v, s), b in zip(self.dice, by, strict=True)]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.kind != "decision":
            out["kind"] = self.kind
        out["actor"] = self.actor
        if self.kind == "ruling":
            out["ruling"] = self.ruling
        else:
            out["action"] = self.action
        out["dice"] = [d.to_json() for d in self.dies]
        if self.reused:
            out["reused"] = True
        if self.rerolled is not None:
            out["rerolled"] = self.rerolled
        if self.discarded:
            out["discarded"] = self.discarded
        return out

    def brief(self) -> dict[str, Any]:
        """What a ``discarded`` list keeps of an entry."""
        data = self.to_json()
        return {k: data[k] for k in ("kind", "actor", "action", "ruling", "dice") if k in data}


@dataclass(slots=True)
class Partial:
    """An action whose dice are not all in yet: the action, the dice so far, the request."""

    actor: str
    action: str
    dice: list[Die]
    request: DiceRequest
    kind: EntryKind = "decision"
    ruling: dict[str, Any] | None = None
    #: flags carried to the entry once complete
    reused: bool = False
    rerolled: dict[str, Any] | None = None
    discarded: list[dict[str, Any]] = field(default_factory=list)

    def entry(self, dice: list[Die]) -> Entry:
        e = Entry.of(self.actor, self.action, dice, self.kind, self.ruling)
        e.reused, e.rerolled, e.discarded = self.reused, self.rerolled, self.discarded
        return e

    def to_json(self) -> dict[str, Any]:
        out = self.entry(self.dice).to_json()
        out["waiting"] = self.request.to_json()
        return out


def _dice(raw: Any, source: str, where: str) -> list[Die]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InputError("'dice' must be a list of [value, sides]", source=source, field=where)
    out: list[Die] = []
    for d in raw:
        ok = (isinstance(d, list | tuple) and len(d) in (2, 3)
              and all(isinstance(x, int) and not isinstance(x, bool) for x in d[:2])
              and d[1] >= 1 and (len(d) == 2 or isinstance(d[2], str)))
        if not ok:
            raise InputError(f"'dice' must be a list of [value, sides] whole numbers (or [value, sides, "
                             f"who typed it]), not {d!r}", source=source, field=where)
        out.append(Die(int(d[0]), int(d[1]), d[2] if len(d) == 3 and d[2] else AUTO))
    return out


_ENTRY_KEYS = {"kind", "actor", "action", "ruling", "dice", "reused", "rerolled", "discarded"}


def entry_from_json(item: Any, source: str, where: str) -> Entry:
    """One saved entry (either format), with errors naming the field."""
    if not isinstance(item, dict):
        raise InputError("each entry must be a mapping", source=source, field=where)
    kind = item.get("kind", "decision")
    if kind not in ("decision", "ruling"):
        raise InputError(f"unknown entry kind {kind!r} (decision or ruling)", source=source, field=f"{where}.kind")
    unknown = set(item) - _ENTRY_KEYS - {"waiting"}
    if unknown:
        raise InputError(f"unknown key(s) {sorted(unknown)}", source=source, field=where)
    actor = item.get("actor", "")
    if not isinstance(actor, str):
        raise InputError("'actor' must be a string", source=source, field=f"{where}.actor")
    dice = _dice(item.get("dice", []), source, f"{where}.dice")
    if kind == "ruling":
        ruling = item.get("ruling")
        if not isinstance(ruling, dict) or not isinstance(ruling.get("op"), str):
            raise InputError("a ruling entry needs a 'ruling' mapping with an 'op'", source=source,
                             field=f"{where}.ruling")
        entry = Entry.of(actor or "GM", "!" + ruling["op"], dice, "ruling", dict(ruling))
    else:
        if not isinstance(item.get("action"), str):
            raise InputError("each entry needs a string 'action'", source=source, field=where)
        entry = Entry.of(actor, item["action"], dice)
    entry.reused = bool(item.get("reused", False))
    rer = item.get("rerolled")
    if rer is not None and not isinstance(rer, dict):
        raise InputError("'rerolled' must be a mapping", source=source, field=f"{where}.rerolled")
    entry.rerolled = rer
    disc = item.get("discarded", [])
    if not isinstance(disc, list) or not all(isinstance(x, dict) for x in disc):
        raise InputError("'discarded' must be a list of entries", source=source, field=f"{where}.discarded")
    entry.discarded = list(disc)
    return entry


def entries_from_json(raw: Any, source: str = "<log>", where: str = "entries") -> list[Entry]:
    """Parse the ``entries`` list of a saved log, with errors naming the field."""
    if not isinstance(raw, list):
        raise InputError("must be a list", source=source, field=where)
    return [entry_from_json(item, source, f"{where}[{i}]") for i, item in enumerate(raw)]


def partial_from_json(raw: Any, source: str = "<log>") -> tuple[Entry, dict[str, Any]] | None:
    """The saved partial entry (its action and dice so far) and its ``waiting`` request."""
    if raw is None:
        return None
    entry = entry_from_json(raw, source, "partial")
    waiting = raw.get("waiting") if isinstance(raw, dict) else None
    return entry, waiting if isinstance(waiting, dict) else {}
