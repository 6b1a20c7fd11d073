"""Helpers for the maai flow tests: small encounters built in Python, scripted dice."""

from __future__ import annotations

from typing import Any

from ikusa.dice.source import ScriptedSource
from ikusa.engine.combat import Combat
from ikusa.engine.events import Event
from ikusa.systems.maai.encounter import encounter_from_dict
from ikusa.systems.maai.state import MaaiState

MOVES: dict[str, dict[str, Any]] = {
    "katana.yokogiri": {"name": "横斬り", "kind": "attack", "cost": 2, "ability": "yu", "skill": "kenjutsu"},
    "katana.ukenagashi": {"name": "受け流し", "kind": "defence", "cost": 1, "ability": "gi", "skill": "kenjutsu",
                          "defence_type": "parry", "reservable": True},
    "katana.issen": {"name": "一閃", "kind": "counter", "cost": 3, "ability": "yu", "skill": "kenjutsu",
                     "reservable": True},
    "kanabo.kyouda": {"name": "強打", "kind": "attack", "cost": 3, "ability": "yu"},
    "kanabo.kyouda3": {"name": "大強打", "kind": "attack", "cost": 3, "ability": "yu", "damage": 3},
    "tanto.kinkyu": {"name": "緊急回避", "kind": "defence", "cost": 1, "ability": "gi", "defence_type": "evasion",
                     "reservable": True},
    "zanba.zanba": {"name": "斬馬", "kind": "attack", "cost": 3, "ability": "yu"},
    "zanba.kiriage": {"name": "切上げ", "kind": "attack", "cost": 3, "ability": "yu"},
    "feat.a": {"name": "型甲", "kind": "feat", "cost": 0, "zero_cost": True},
    "feat.b": {"name": "型乙", "kind": "feat", "cost": 0, "zero_cost": True},
    "feat.c": {"name": "型丙", "kind": "feat", "cost": 0, "zero_cost": True},
    "stance.fudou": {"name": "不動の陣", "kind": "stance", "cost": 1, "defence_bonus": 2},
}


def unit(uid: str, side: str, gi: int = 0, yu: int = 0, tai: int = 0, un: int = 0, grade: str = "PC",
         **kw: Any) -> dict[str, Any]:
    return {"id": uid, "name": kw.pop("name", uid), "side": side, "grade": grade,
            "abilities": {"yu": yu, "gi": gi, "tai": tai, "chi": 0, "bi": 0, "un": un}, **kw}


def state(*units: dict[str, Any], **extra: Any) -> MaaiState:
    data = {"sides": ["A", "B"], "maneuvers": MOVES, "units": list(units), **extra}
    return MaaiState(encounter_from_dict(data, "<test>"))


def combat(*units: dict[str, Any], **extra: Any) -> Combat:
    data = {"sides": ["A", "B"], "maneuvers": MOVES, "units": list(units), **extra}
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
