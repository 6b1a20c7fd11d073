"""Helpers for the maai flow tests: small encounters built in Python, scripted dice."""

from __future__ import annotations

from typing import Any

from ikusa.dice.source import ScriptedSource
from ikusa.engine.combat import Combat
from ikusa.engine.events import Event
from ikusa.systems.maai.encounter import encounter_from_dict
from ikusa.systems.maai.state import MaaiState

#: test-only content in the catalog's own format (three distinct 0-活力 [型], a 3-戦力 blow)
HOMEBREW: dict[str, Any] = {
    "feats": [
        {"id": "kata_a", "name": "型甲", "type": "型", "zero_vigor": True},
        {"id": "kata_b", "name": "型乙", "type": "型", "zero_vigor": True},
        {"id": "kata_c", "name": "型丙", "type": "型", "zero_vigor": True},
    ],
    "maneuvers": [
        {"id": "test.daikyouda", "name": "大強打", "kind": "attack", "cost": 3, "ability": "勇", "damage": 3},
    ],
}


def unit(uid: str, side: str, gi: int = 0, yu: int = 0, tai: int = 0, un: int = 0, grade: str = "PC",
         **kw: Any) -> dict[str, Any]:
    return {"id": uid, "name": kw.pop("name", uid), "side": side, "grade": grade,
            "abilities": {"yu": yu, "gi": gi, "tai": tai, "chi": 0, "bi": 0, "un": un}, **kw}


def state(*units: dict[str, Any], **extra: Any) -> MaaiState:
    data = {"sides": ["A", "B"], "homebrew": HOMEBREW, "units": list(units), **extra}
    return MaaiState(encounter_from_dict(data, "<test>"))


def combat(*units: dict[str, Any], **extra: Any) -> Combat:
    data = {"sides": ["A", "B"], "homebrew": HOMEBREW, "units": list(units), **extra}
    enc = encounter_from_dict(data, "<test>")
    return Combat("maai", {"system": "maai", **data}, lambda: MaaiState(enc))


def push(s: MaaiState, action: str, *dice: int) -> list[Event]:
    """Apply ``action`` with exactly ``dice``; every die must be used."""
    src = ScriptedSource(dice)
    events = s.apply(action, src)
    assert src.remaining == 0, f"{src.remaining} dice unused by {action}"
    return events


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def find(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e.kind == kind)
