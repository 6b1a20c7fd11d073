"""The GM's ruling forms: one small form per core ruling (issue #8 §2, issue #9 §4).

Each form posts to ``/tables/{id}/ruling`` with its ``op`` and the fields that op reads;
:func:`ruling_from_form` turns the form into the ruling dict the core validates
(:func:`ikusa.engine.rulings.parse_ruling`, then the system's ``apply_ruling``).  A refusal
comes back into the form that sent it, with the field it names marked
(:func:`field_of`), so the GM sees the error where it is (not only in the page's flash).

* ``set`` (unit, resource, value): a resource (maai 戦力・活力・運命; sengensyou HP・DP・
  グレイズ・霊力; fantasy HP);
* ``effect`` (unit, name, modifiers ``defense=-1 check=+1``, duration clock and ``n``): an
  inline effect when modifiers or a clock are given, else the homebrew/built-in effect of
  that name (maai 毒・呪い); ``remove_effect`` (unit, name);
* ``condition`` (unit, name, off);
* ``add_unit`` (a unit written as in the encounter, YAML), ``remove_unit`` (unit);
* ``skip_turn`` (unit or the acting one), ``end_turn``;
* ``modifier`` (unit, value): a one-off modifier on the unit's next check;
* ``override`` (unit, outcome, reason: required): the next roll's outcome;
* ``end`` (winner: a side, or none = a draw);
* ``note`` (text): GM-only.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

#: the duration clocks each system's effects run on (ikusa/systems/*/effects.py CLOCKS)
CLOCKS: dict[str, list[tuple[str, str]]] = {
    "maai": [("maai", "間合"), ("breath", "次の呼吸まで"), ("permanent", "解除まで")],
    "sengensyou": [("turn", "ターン"), ("permanent", "解除まで")],
    "fantasy": [("round", "ラウンド"), ("permanent", "解除まで")],
}
#: the outcomes an override may force, offered as suggestions (the system checks them)
OUTCOMES: dict[str, list[str]] = {
    "maai": ["成功", "失敗", "会心", "失着", "天命", "業報"],
    "sengensyou": [],  # a 千幻抄 check is overruled by its 達成値 (a number)
    "fantasy": ["成功", "失敗", "自動成功", "自動失敗"],
}
#: effect modifier keys per system, shown as the field's hint
MODIFIER_HINTS = {
    "maai": "defense=-1 attack=+1 check=+1 defence_roll=+1",
    "sengensyou": "hit=+1 evasion=-1 guard=+1 resist=+1 move=+1 check=+1 dp_recovery=-1",
    "fantasy": "check=+1 attack=+1 evasion=-1 st=+1 magic=+1 initiative=+1",
}
#: the form fields an error may name, as the message spells them
FIELDS = ("unit", "resource", "value", "name", "modifiers", "clock", "n", "outcome", "winner", "reason", "text",
          "add_unit")
_MOD = re.compile(r"^([^=\s]+?)\s*(?:=\s*)?([+\-−]?\d+)$")


class FormError(ValueError):
    """A field of a ruling form that cannot be read; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


def sides_of(v: dict[str, Any]) -> list[str]:
    """The sides of the table's units, in order (the ``end`` form's winners)."""
    out: list[str] = []
    for u in v.get("units", []):
        s = u.get("side")
        if isinstance(s, str) and s and s not in out:
            out.append(s)
    return out


def form_context(v: dict[str, Any]) -> dict[str, Any]:
    system = str(v.get("system", ""))
    return {"clocks": CLOCKS.get(system, [("permanent", "解除まで")]), "outcomes": OUTCOMES.get(system, []),
            "modifier_hint": MODIFIER_HINTS.get(system, ""), "sides": sides_of(v)}


def field_of(message: str, op: str = "") -> str:
    """The input of ``op``'s form that an error line names (``value: …``,
    ``<ruling>:ruling: set.value: …``), or ``""``."""
    for part in message.split(";"):
        for path in map(str, re.findall(r"([A-Za-z_][A-Za-z_.]*)\s*:", part)):
            for token in path.split("."):
                token = {"effect": "modifiers", "duration": "clock"}.get(token, token)
                if token not in FIELDS:
                    continue
                if op == "override" and token == "outcome":
                    return "name"
                if op == "add_unit" and token == "unit":
                    return "add_unit"
                return token
    return ""


def _int(form: dict[str, str], key: str) -> int:
    raw = form.get(key, "").strip().replace("−", "-")
    try:
        return int(raw)
    except ValueError:
        raise FormError(key, "a whole number is needed") from None


def modifiers_of(raw: str) -> dict[str, int]:
    """``defense=-1 check=+1`` (or ``防備-1``, commas allowed) into ``{key: value}``."""
    out: dict[str, int] = {}
    for part in raw.replace(",", " ").replace("、", " ").split():
        m = _MOD.match(part)
        if m is None:
            raise FormError("modifiers", f"{part!r}: write KEY=N, e.g. defense=-1")
        out[m.group(1)] = int(m.group(2).replace("−", "-"))
    return out


def ruling_from_form(form: dict[str, str]) -> dict[str, Any]:
    """A ruling dict from one of the ruling forms (or a unit row of the GM panel)."""
    op = form.get("op", "").strip()
    unit = form.get("unit", "").strip() or None
    name = form.get("name", "").strip()
    reason = form.get("reason", "").strip()
    r: dict[str, Any] = {"op": op}
    if reason:
        r["reason"] = reason
    if op in ("reveal", "hide"):
        r["unit"] = unit
    elif op == "note":
        text = form.get("text", "").strip() or name or reason
        if not text:
            raise FormError("text", "write the note")
        r = {"op": "note", "text": text}
    elif op == "control":
        r["unit"] = unit
        for k in ("controller", "dice"):
            if form.get(k):
                r[k] = form[k]
    elif op == "set":
        r.update(unit=unit, resource=form.get("resource", ""), value=_int(form, "value"))
    elif op == "modifier":
        r.update(unit=unit, value=_int(form, "value"))
    elif op == "effect":
        mods = modifiers_of(form.get("modifiers", ""))
        clock = form.get("clock", "").strip()
        if not name:
            raise FormError("name", "name the effect")
        if mods or clock:
            n = _int(form, "n") if form.get("n", "").strip() else 1
            spec: dict[str, Any] = {"name": name, "modifiers": mods}
            if clock:
                spec["duration"] = {"clock": clock, "n": n}
            r.update(unit=unit, effect=spec)
        else:
            r.update(unit=unit, name=name)
    elif op == "remove_effect":
        r.update(unit=unit, name=name)
    elif op == "condition":
        r.update(unit=unit, name=name)
        if form.get("off"):
            r["on"] = False
    elif op == "add_unit":
        raw = form.get("add_unit", "")
        try:
            data = yaml.safe_load(raw) if raw.strip() else None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            at = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
            raise FormError("add_unit", f"malformed YAML: {at}{getattr(exc, 'problem', None) or exc}") from None
        if not isinstance(data, dict):
            raise FormError("add_unit", "write the unit as in the encounter file (id: …, name: …, side: …)")
        r["unit"] = data
    elif op in ("skip_turn", "remove_unit"):
        if unit:
            r["unit"] = unit
    elif op == "override":
        if not name:
            raise FormError("name", "give the outcome to force")
        if not reason:
            raise FormError("reason", "an override needs its reason (it is logged)")
        r["outcome"] = name
        if unit:
            r["unit"] = unit
    elif op == "end":
        r["winner"] = form.get("winner", "").strip() or None
    elif op != "end_turn":
        raise FormError("op", f"unknown ruling {op!r}")
    return r
