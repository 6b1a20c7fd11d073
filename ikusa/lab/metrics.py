"""Per-battle measurements read from the events and the final summary the engines already
produce (the engines' output is not changed for the lab).

One :class:`BattleMetrics` per battle: the winner, the battle length in the system's own
unit, and per unit the damage dealt and taken, the length survived, whether it ended down,
and the resources it spent.

* **maai** — length in breaths (一呼吸, ``breath`` events); damage from ``damage`` (unit,
  damage), dealt by the last ``attack``'s attacker; down = ``incapacitated``; 活力 spent =
  ``breath_end.spent``; fate = one per ``fate`` event.
* **sengensyou** — length in turns (``turn_start``); damage from ``damage`` (who, amount), dealt
  by the last attacker (shot, melee, 弾幕 …); down = ``down``; DP spent = the dice of shot,
  melee, approach, evade and guard, and 1 per 弾幕 (G-R18).
* **fantasy** — length in rounds (``round``); damage from ``damage`` (target, damage) and
  drowning, dealt by the last ``attack`` or ``cast``; down = ``down``; no resources counted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ikusa.engine.events import Event

#: the per-unit resource counters, in the order they are reported
RESOURCES = ("vigor", "dp", "fate")
LENGTH_UNIT = {"maai": "breaths", "sengensyou": "turns", "fantasy": "rounds"}
TICK = {"maai": "breath", "sengensyou": "turn_start", "fantasy": "round"}
#: sengensyou events whose ``dp`` is the number of DP dice the actor spent on it
_DP_SPENT = {"shot", "melee", "approach", "evade", "guard"}
_BARRAGE_DP = 1  # G-R18: a 弾幕 costs 1 DP (ikusa.systems.sengensyou.attacks.BARRAGE_DP)
_SG_ATTACKS = {"shot", "melee", "approach", "barrage", "damage_roll", "sc_attack"}


@dataclass(slots=True)
class UnitMetrics:
    dealt: int = 0
    taken: int = 0
    survived: int = 0
    down: int = 0
    vigor: int = 0
    dp: int = 0
    fate: int = 0


@dataclass(slots=True)
class BattleMetrics:
    winner: str
    length: int
    decisions: int
    units: dict[str, UnitMetrics] = field(default_factory=dict)
    #: unit id → (side, name), for the report
    roster: dict[str, tuple[str, str]] = field(default_factory=dict)


def roster(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """The per-unit entries of a summary (maai ``units``, the others ``characters``)."""
    units = summary.get("units") or summary.get("characters") or []
    return [u for u in units if isinstance(u, dict)]


def _down(system: str, u: dict[str, Any]) -> bool:
    if system == "maai":
        return bool(u.get("incapacitated"))
    return bool(u.get("down"))


def measure(system: str, events: Iterable[Event], summary: dict[str, Any], decisions: int) -> BattleMetrics:
    """Read one finished battle."""
    winner = summary.get("winner")
    units: dict[str, UnitMetrics] = {}
    downs: dict[str, int] = {}
    tick = TICK.get(system, "")
    length = 0
    dealer = ""

    def unit(uid: Any) -> UnitMetrics:
        key = str(uid)
        m = units.get(key)
        if m is None:
            m = units[key] = UnitMetrics()
        return m

    for e in events:
        kind, d = e.kind, e.data
        if kind == tick:
            length += 1
            continue
        if system == "maai":
            if kind == "attack":
                dealer = str(d.get("attacker", ""))
            elif kind == "damage":
                amount = int(d.get("damage", 0))
                unit(d.get("unit")).taken += amount
                if dealer and dealer != str(d.get("unit")):
                    unit(dealer).dealt += amount
            elif kind == "breath_end":
                unit(d.get("unit")).vigor += int(d.get("spent", 0))
            elif kind == "fate":
                unit(d.get("unit")).fate += 1
            elif kind == "down":
                downs.setdefault(str(d.get("unit")), length)
        elif system == "sengensyou":
            if kind in _SG_ATTACKS:
                dealer = str(d.get("who", ""))
            if kind in _DP_SPENT:
                unit(d.get("who")).dp += int(d.get("dp", 0))
            elif kind == "barrage":
                unit(d.get("who")).dp += _BARRAGE_DP
            elif kind == "damage":
                amount = int(d.get("amount", 0))
                unit(d.get("who")).taken += amount
                if dealer and dealer != str(d.get("who")):
                    unit(dealer).dealt += amount
            elif kind == "fainted":
                downs.setdefault(str(d.get("who")), length)
        elif system == "fantasy":
            if kind == "attack":
                dealer = str(d.get("attacker", ""))
            elif kind == "cast":
                dealer = str(d.get("caster", ""))
            elif kind in ("damage", "drowning"):
                target = d.get("target", d.get("id"))
                amount = int(d.get("damage", 0))
                unit(target).taken += amount
                if kind == "damage" and dealer and dealer != str(target):
                    unit(dealer).dealt += amount
            elif kind == "down":
                downs.setdefault(str(d.get("id")), length)
    names: dict[str, tuple[str, str]] = {}
    for u in roster(summary):
        uid = str(u.get("id"))
        m = unit(uid)
        names[uid] = (str(u.get("side", "")), str(u.get("name", uid)))
        if _down(system, u):
            m.down = 1
            m.survived = downs.get(uid, length)
        else:
            m.survived = length
    return BattleMetrics(str(winner) if winner is not None else "draw", length, decisions, units, names)
