"""Builders and drivers for 千幻抄 engine tests (scripted dice, explicit decisions)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ikusa.dice.source import ScriptedSource
from ikusa.engine.combat import Combat
from ikusa.engine.events import Event
from ikusa.systems import sengensyou
from ikusa.systems.sengensyou.character import Fighter
from ikusa.systems.sengensyou.state import SengensyouState

BASE_STATS = {"身体": 3, "耐久": 3, "知性": 3, "感覚": 3, "意志": 3}


def char(cid: str, side: str, *, stats: dict[str, int] | None = None, **kw: Any) -> dict[str, Any]:
    return {"id": cid, "name": cid.upper(), "side": side, "stats": {**BASE_STATS, **(stats or {})}, **kw}


def combat(chars: list[dict[str, Any]], **enc: Any) -> Combat:
    body = {"characters": chars, **enc}
    e = sengensyou.encounter_from_dict(body, "<test>")
    return Combat("sengensyou", {"system": "sengensyou", **body}, lambda: sengensyou.new_state(e))


def st(c: Combat) -> SengensyouState:
    assert isinstance(c.state, SengensyouState)
    return c.state


def fi(c: Combat, fid: str) -> Fighter:
    return st(c).fighters[fid]


def push(c: Combat, key: str, dice: Iterable[int] = ()) -> list[Event]:
    src = ScriptedSource(list(dice))
    ev = c.push(key, src)
    assert src.remaining == 0, f"{src.remaining} scripted dice unused by {key}"
    return ev


def kind(c: Combat) -> str:
    d = c.pending()
    assert d is not None
    return d.kind


def keys(c: Combat) -> list[str]:
    d = c.pending()
    assert d is not None
    return d.keys()


def start_turn(c: Combat, declare: dict[str, int] | None = None, rows: dict[str, str] | None = None,
               focus: Iterable[str] = ()) -> list[Event]:
    """Answer the turn-start decisions: DP declarations (default: all DP), rows (default
    front), 防御専念 (only for ids in ``focus``)."""
    declare = declare or {}
    rows = rows or {}
    out: list[Event] = []
    while True:
        d = c.pending()
        assert d is not None
        if d.kind == "initiative":
            n = declare.get(d.actor)
            out += push(c, f"declare:{n}" if n is not None else d.keys()[0])
        elif d.kind == "row":
            out += push(c, f"row:{rows.get(d.actor, 'front')}")
        elif d.kind == "focus":
            out += push(c, "focus:yes" if d.actor in focus else "focus:no")
        else:
            return out


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


def of_kind(events: list[Event], k: str) -> list[Event]:
    return [e for e in events if e.kind == k]
