"""A tiny record of decisions and GM rulings applied straight to a system's state (the core's
Combat dispatches rulings the same way: ``state.apply_ruling(ruling, dice)``), so the system
tests of issue #8 can replay a session and compare it byte for byte."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ikusa.dice.source import RecordingSource, ScriptedSource
from ikusa.engine.events import Event
from ikusa.engine.rulings import parse_ruling
from ikusa.engine.runner import load_encounter

ROOT = Path(__file__).resolve().parents[2]


@cache
def _loaded(path: str) -> Any:
    """An encounter file read once per test run (every session gets a fresh state from it)."""
    return load_encounter(path)


@dataclass
class Session:
    """A fresh state of ``path`` plus the entries applied to it, each with its dice."""

    path: str
    state: Any = None
    entries: list[tuple[str, Any, list[int]]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = _loaded(str(ROOT / self.path)).new_combat().state

    def act(self, key: str, dice: Any) -> list[Event]:
        rec = RecordingSource(dice)
        out = self.state.apply(key, rec)
        self.entries.append(("act", key, [v for v, _ in rec.take()]))
        self.events.extend(out)
        return out

    def rule(self, raw: dict[str, Any], dice: Any = None) -> list[Event]:
        rec = RecordingSource(dice if dice is not None else ScriptedSource([]))
        out = self.state.apply_ruling(parse_ruling(raw), rec)
        self.entries.append(("rule", raw, [v for v, _ in rec.take()]))
        self.events.extend(out)
        return out

    def replay(self) -> Session:
        """The same entries with the same dice on a fresh state."""
        s = Session(self.path)
        for kind, what, dice in self.entries:
            if kind == "act":
                s.act(what, ScriptedSource(dice))
            else:
                s.rule(what, ScriptedSource(dice))
        return s

    def log(self) -> str:
        return json.dumps([e.to_json() for e in self.events], ensure_ascii=False, sort_keys=True)

    def texts(self, kind: str | None = None) -> list[str]:
        return [e.text for e in self.events if kind is None or e.kind == kind]

    def first(self, pred: Any, policy: Any = None) -> None:
        """Apply the first legal option whose key satisfies ``pred`` (else the first option)."""
        d = self.state.pending()
        keys = [o.key for o in d.options]
        key = next((k for k in keys if pred(k)), keys[0])
        self.act(key, policy)
