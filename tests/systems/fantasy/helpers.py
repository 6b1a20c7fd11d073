"""Builders for fantasy tests: small encounters and started states with scripted dice."""

from __future__ import annotations

from typing import Any

from ikusa.dice.source import ScriptedSource
from ikusa.systems.fantasy import encounter_from_dict
from ikusa.systems.fantasy.state import FantasyState

SWORD = {"id": "sword", "name": "ショートソード", "category": "short_sword", "damage_dice": 1, "damage_bonus": 2,
         "damage_type": "刺"}
BOW = {"id": "bow", "name": "ショートボウ", "kind": "ranged", "category": "bow", "damage_dice": 1, "damage_bonus": 0,
       "damage_type": "刺", "range_m": 40}
JAVELIN = {"id": "jav", "name": "ジャベリン", "kind": "thrown", "category": "javelin", "slender": True,
           "damage_dice": 1, "damage_bonus": 4, "damage_type": "刺", "range_m": 30}
CLUB = {"id": "club", "name": "投げ棍棒", "kind": "thrown", "category": "club", "slender": True,
        "damage_dice": 1, "damage_bonus": 4, "damage_type": "叩", "range_m": 30}


def ch(cid: str, side: str, **kw: Any) -> dict[str, Any]:
    values = {"melee": 5, "ranged": 5, "evasion": 4, "fort": 3, "intuition": 3, "will": 3, "magic": 4,
              "initiative": 0}
    values.update(kw.pop("values", {}))
    out: dict[str, Any] = {"id": cid, "name": cid.upper(), "side": side, "hp": 20, "values": values,
                           "weapons": [SWORD]}
    out.update(kw)
    return out


def make(chars: list[dict[str, Any]], **kw: Any) -> FantasyState:
    return FantasyState(encounter_from_dict({"characters": chars, **kw}, "<test>"))


def start(st: FantasyState, dice: list[int]) -> list[Any]:
    """Apply 'start' with exactly ``dice`` (surprise checks, then initiative 2D each); the
    surprised keep their places in the round-1 formation decision (F-R04)."""
    src = ScriptedSource(dice)
    events = st.apply("start", src)
    while (d := st.pending()) is not None and d.kind == "formation":
        events.extend(st.apply("place:keep", src))
    assert src.remaining == 0
    return events


def mods_of(data: dict[str, Any], key: str) -> list[tuple[str, int]]:
    return [(m["source"], m["value"]) for m in data[key]["mods"]]
