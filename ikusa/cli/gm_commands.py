"""GM commands typed at any prompt of ``ikusa play``, beginning with ``!`` (issue #8 §2, §4).

Each command becomes a ruling (validated by :mod:`ikusa.engine.rulings`, logged with
``actor: GM``), or one of the record commands ``undo``, ``redo``, ``reroll``.  Unit ids or
names and sides are read from the combat's roster; what follows the recognised words is
the reason (理由).
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from typing import Any

import yaml

from ikusa.engine.control import DICE_MODES
from ikusa.engine.errors import InputError

HELP = """GM commands (at any prompt, also at a dice prompt):
  !set UNIT RESOURCE VALUE [理由]      resource: maai wounds(戦力) vigor(活力) fate(運命);
                                       sengensyou hp dp graze reiryoku(霊力); fantasy hp
  !effect UNIT NAME [KEY=N …] [for N maai|breath|turn|round] [cond=CONDITION] [理由]
                                       an effect (no KEY=N: the encounter's homebrew effect NAME)
  !uneffect UNIT NAME                  remove an effect
  !condition UNIT NAME [off]           give / take away a condition
  !add {id: …, name: …, side: …}       a combatant joins (written as in the encounter file)
  !remove UNIT [理由]                  a combatant leaves
  !skip [UNIT] [理由] · !endturn [理由]  skip a unit's turn · end the acting unit's turn
  !mod UNIT N [理由]                   a one-off modifier on UNIT's next check
  !override [UNIT] OUTCOME [理由]      force the next roll's outcome (a d100 result as its number)
  !end [SIDE|draw] [理由]              end the combat with a winner
  !control UNIT|SIDE|GM|all [gm|player:NAME|ai:POLICY] [dice auto|manual|ask] [理由]
  !note TEXT                           a GM-only note in the log
  !json {"op": …}                      any ruling as JSON
  !undo · !redo · !reroll [理由]        undo (dice kept) · redo · roll the last action again
"""

_CLOCKS = {"maai": "maai", "間合": "maai", "breath": "breath", "呼吸": "breath", "turn": "turn",
           "turns": "turn", "ターン": "turn", "round": "round", "rounds": "round", "ラウンド": "round",
           "r": "round", "permanent": "permanent", "解除まで": "permanent"}


@dataclass(slots=True, frozen=True)
class RecordCommand:
    """``undo``, ``redo`` or ``reroll`` (with its reason), or ``help``."""

    name: str
    reason: str = ""


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def _int(tok: str, what: str) -> int:
    try:
        return int(tok)
    except ValueError:
        raise InputError(f"{what} must be a whole number, not {tok!r}", field="ruling") from None


def _need(toks: list[str], n: int, usage: str) -> None:
    if len(toks) < n:
        raise InputError(f"usage: {usage}", field="ruling")


def parse_gm(text: str, units: set[str], sides: set[str]) -> dict[str, Any] | RecordCommand:
    """``text`` without its ``!``: a ruling as data, or a record command.  ``units`` holds
    the unit ids and names, ``sides`` the sides (to tell a unit from the reason)."""
    head, _, rest = text.strip().partition(" ")
    cmd = head.lower()
    if cmd in ("undo", "redo", "help", "?"):
        return RecordCommand("help" if cmd == "?" else cmd)
    if cmd == "reroll":
        return RecordCommand("reroll", rest.strip())
    if cmd == "note":
        return {"op": "note", "text": rest.strip()}
    if cmd in ("json", "add"):
        try:
            data = json.loads(rest) if cmd == "json" else yaml.safe_load(rest)
        except (json.JSONDecodeError, yaml.YAMLError) as exc:
            raise InputError(f"cannot read {'JSON' if cmd == 'json' else 'the unit'}: {exc}", field="ruling") from None
        if cmd == "add":
            if not isinstance(data, dict):
                raise InputError("usage: !add {id: …, name: …, side: …} (as in the encounter file)", field="ruling")
            return {"op": "add_unit", "unit": data}
        if not isinstance(data, dict):
            raise InputError("!json needs a mapping such as {\"op\": \"note\", \"text\": \"…\"}", field="ruling")
        return data
    toks = _split(rest)
    if cmd == "set":
        _need(toks, 3, "!set UNIT RESOURCE VALUE [理由]")
        return _reason({"op": "set", "unit": toks[0], "resource": toks[1],
                        "value": _int(toks[2], "VALUE")}, toks[3:])
    if cmd == "effect":
        return _effect(toks)
    if cmd in ("uneffect", "remove_effect"):
        _need(toks, 2, "!uneffect UNIT NAME")
        return _reason({"op": "remove_effect", "unit": toks[0], "name": toks[1]}, toks[2:])
    if cmd in ("condition", "cond"):
        _need(toks, 2, "!condition UNIT NAME [off]")
        off = len(toks) > 2 and toks[2].lower() in ("off", "remove", "解除")
        return _reason({"op": "condition", "unit": toks[0], "name": toks[1], "on": not off}, toks[3 if off else 2:])
    if cmd == "remove":
        _need(toks, 1, "!remove UNIT [理由]")
        return _reason({"op": "remove_unit", "unit": toks[0]}, toks[1:])
    if cmd == "skip":
        if toks and toks[0] in units:
            return _reason({"op": "skip_turn", "unit": toks[0]}, toks[1:])
        return _reason({"op": "skip_turn"}, toks)
    if cmd in ("endturn", "end_turn"):
        return _reason({"op": "end_turn"}, toks)
    if cmd in ("mod", "modifier"):
        _need(toks, 2, "!mod UNIT N [理由]")
        return _reason({"op": "modifier", "unit": toks[0], "value": _int(toks[1], "N")}, toks[2:])
    if cmd == "override":
        _need(toks, 1, "!override [UNIT] OUTCOME [理由]")
        if toks[0] in units and len(toks) > 1:
            return _reason({"op": "override", "unit": toks[0], "outcome": toks[1]}, toks[2:])
        return _reason({"op": "override", "outcome": toks[0]}, toks[1:])
    if cmd == "end":
        if toks and toks[0].lower() in ("draw", "none", "引き分け"):
            return _reason({"op": "end", "winner": None}, toks[1:])
        if toks and toks[0] in sides:
            return _reason({"op": "end", "winner": toks[0]}, toks[1:])
        raise InputError(f"usage: !end SIDE|draw [理由] (sides: {', '.join(sorted(sides))})", field="ruling")
    if cmd == "control":
        return _control(toks, units, sides)
    raise InputError(f"unknown GM command !{head}; type !help", field="ruling")


def _reason(data: dict[str, Any], toks: list[str]) -> dict[str, Any]:
    if toks:
        data["reason"] = " ".join(toks)
    return data


def _effect(toks: list[str]) -> dict[str, Any]:
    _need(toks, 2, "!effect UNIT NAME [KEY=N …] [for N CLOCK] [理由]")
    unit, name = toks[0], toks[1]
    mods: dict[str, int] = {}
    condition: str | None = None
    duration: dict[str, Any] | None = None
    reason: list[str] = []
    i = 2
    while i < len(toks):
        t = toks[i]
        low = t.lower()
        if low == "for" and i + 1 < len(toks):
            if toks[i + 1].lower() in _CLOCKS:  # "for breath" / "for permanent"
                duration = {"clock": _CLOCKS[toks[i + 1].lower()]}
                i += 2
                continue
            n = _int(toks[i + 1], "the duration")
            clock = _CLOCKS.get(toks[i + 2].lower()) if i + 2 < len(toks) else None
            if clock is None:
                raise InputError("usage: for N maai|breath|turn|round", field="ruling")
            duration = {"clock": clock, "n": n}
            i += 3
            continue
        if low in _CLOCKS and _CLOCKS[low] in ("permanent", "breath") and duration is None:
            duration = {"clock": _CLOCKS[low]}
            i += 1
            continue
        key, eq, val = t.partition("=")
        if eq and key.lower() in ("cond", "condition", "状態"):
            condition = val
        elif eq:
            mods[key] = _int(val, f"the modifier {key}")
        else:
            reason.append(t)
        i += 1
    if not mods and condition is None and duration is None:
        return _reason({"op": "effect", "unit": unit, "name": name}, reason)
    effect: dict[str, Any] = {"name": name, "modifiers": mods}
    if condition is not None:
        effect["condition"] = condition
    if duration is not None:
        effect["duration"] = duration
    return _reason({"op": "effect", "unit": unit, "effect": effect}, reason)


def _control(toks: list[str], units: set[str], sides: set[str]) -> dict[str, Any]:
    _need(toks, 2, "!control UNIT|SIDE|GM|all [CONTROLLER] [dice MODE] [理由]")
    target, rest = toks[0], toks[1:]
    data: dict[str, Any] = {"op": "control"}
    if target.lower() == "all":
        pass
    elif target in ("GM", "gm"):
        data["unit"] = "GM"
    elif target in units:
        data["unit"] = target
    elif target in sides:
        data["side"] = target
    else:
        raise InputError(f"unknown unit or side {target!r}; units: {', '.join(sorted(units))}; "
                         f"sides: {', '.join(sorted(sides))}", field="ruling.unit")
    reason = []
    i = 0
    while i < len(rest):
        t = rest[i]
        low = t.lower()
        if low == "dice" and i + 1 < len(rest):
            data["dice"] = rest[i + 1].lower()
            i += 2
            continue
        if low in DICE_MODES:
            data["dice"] = low
        elif low == "gm" or low.startswith(("player:", "ai:")):
            data["controller"] = t
        else:
            reason.append(t)
        i += 1
    return _reason(data, reason)
