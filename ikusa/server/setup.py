"""A table's setup: the encounter text a GM uploads, parsed and validated.

The encounter is the system's own document (``ikusa fight`` reads the same files) plus
what the table adds, taken out before the system validates the rest:

* ``control:`` who decides for each unit and how its dice are rolled (issue #8's
  section; until the core reads it, the server does).  Keys are unit ids or side names,
  values a controller (``gm``, ``player:<name>``, ``ai:<policy>``) or
  ``{controller: …, dice: auto|manual|ask}``.  A unit's own key beats its side's.
* ``players:`` ``{<name>: [unit ids]}``, a shorthand for ``control: {<unit>: player:<name>}``.
* ``hidden: true`` on a unit: unknown to players and spectators until the GM reveals it.

Defaults: units of a player are ``ask`` (the player chooses "roll for me" or types each
roll), everything else ``gm`` with ``auto`` dice.  Every refusal names its field.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from typing import Any

import yaml

from ikusa.engine.encounter import EncounterDoc, split_document
from ikusa.engine.errors import InputError
from ikusa.engine.runner import Loaded, resolve_system

#: the largest encounter or log the server reads (bytes); bigger uploads get 413
MAX_UPLOAD_BYTES = 256 * 1024

DICE_MODES = ("auto", "manual", "ask")
SOURCE = "<encounter>"


@dataclass(frozen=True, slots=True)
class Control:
    """Who decides for one unit (``gm``, ``player:<name>``, ``ai:<policy>``) and its dice mode."""

    controller: str = "gm"
    dice: str = "auto"

    @property
    def player(self) -> str | None:
        return self.controller[len("player:"):] if self.controller.startswith("player:") else None

    @property
    def ai(self) -> str | None:
        return self.controller[len("ai:"):] if self.controller.startswith("ai:") else None


@dataclass(slots=True)
class UnitInfo:
    id: str
    name: str
    side: str


@dataclass(slots=True)
class TableSetup:
    """The parsed setup: the loaded encounter, the units, their control and the hidden ones."""

    loaded: Loaded
    document: dict[str, Any]
    units: list[UnitInfo]
    control: dict[str, Control]
    hidden: set[str] = field(default_factory=set)

    @property
    def system(self) -> str:
        return self.loaded.doc.system

    @property
    def title(self) -> str:
        title = self.document.get("title", "")
        return title if isinstance(title, str) else ""

    def players(self) -> dict[str, list[str]]:
        """Player name → the unit ids they control, in encounter order."""
        out: dict[str, list[str]] = {}
        for u in self.units:
            p = self.control[u.id].player
            if p is not None:
                out.setdefault(p, []).append(u.id)
        return out


def parse_text(text: str, fmt: str) -> dict[str, Any]:
    """Parse an uploaded document (``yaml``, ``toml`` or ``json``) into a mapping."""
    if len(text.encode("utf-8")) > MAX_UPLOAD_BYTES:
        raise InputError(f"the file is larger than {MAX_UPLOAD_BYTES // 1024} KiB", source=SOURCE)
    fmt = (fmt or "yaml").lower()
    try:
        if fmt == "toml":
            data: Any = tomllib.loads(text)
        elif fmt == "json":
            data = json.loads(text)
        elif fmt in ("yaml", "yml"):
            data = yaml.safe_load(text)
        else:
            raise InputError(f"unknown format {fmt!r}; use yaml, toml or json", field="format")
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        raise InputError(f"malformed YAML: {where}{getattr(exc, 'problem', None) or exc}", source=SOURCE) from None
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"malformed {fmt.upper()}: {exc}", source=SOURCE) from None
    except RecursionError:
        raise InputError("nested too deeply to be an encounter", source=SOURCE) from None
    if not isinstance(data, dict):
        raise InputError("the top level must be a mapping (key: value)", source=SOURCE)
    return data


def _unit_key(body: dict[str, Any]) -> str:
    return "units" if "units" in body else "characters"


def _parse_control_value(raw: Any, where: str) -> Control:
    if isinstance(raw, str):
        raw = {"controller": raw}
    if not isinstance(raw, dict):
        raise InputError("must be a controller (gm, player:<name>, ai:<policy>) or {controller, dice}",
                         source=SOURCE, field=where)
    unknown = set(raw) - {"controller", "dice"}
    if unknown:
        raise InputError(f"unknown key(s) {sorted(unknown)}", source=SOURCE, field=where)
    ctl = raw.get("controller", "gm")
    if not isinstance(ctl, str) or not (
        ctl == "gm" or (ctl.startswith("player:") and ctl[7:].strip()) or (ctl.startswith("ai:") and ctl[3:])
    ):
        raise InputError(f"controller must be gm, player:<name> or ai:<policy>, not {ctl!r}",
                         source=SOURCE, field=f"{where}.controller")
    if ctl.startswith("player:"):
        name = ctl[7:].strip()
        if len(name) > 60:
            raise InputError("a player name is at most 60 characters", source=SOURCE, field=f"{where}.controller")
        ctl = "player:" + name
    dice = raw.get("dice", "ask" if ctl.startswith("player:") else "auto")
    if dice not in DICE_MODES:
        raise InputError(f"dice must be one of {', '.join(DICE_MODES)}, not {dice!r}",
                         source=SOURCE, field=f"{where}.dice")
    return Control(ctl, dice)


def load_setup(document: dict[str, Any]) -> TableSetup:
    """Validate an encounter document (with ``control``/``players``/``hidden``) for a table."""
    doc_in = json.loads(json.dumps(document, default=str))  # a JSON-clean deep copy (TOML dates …)
    body = dict(doc_in)
    control_raw = body.pop("control", None)
    players_raw = body.pop("players", None)
    ukey = _unit_key(body)
    raw_units = body.get(ukey)
    hidden: set[str] = set()
    units: list[UnitInfo] = []
    if isinstance(raw_units, list):
        clean = []
        for i, u in enumerate(raw_units):
            if isinstance(u, dict):
                u = dict(u)
                h = u.pop("hidden", False)
                if not isinstance(h, bool):
                    raise InputError("must be true or false", source=SOURCE, field=f"{ukey}[{i}].hidden")
                uid = u.get("id")
                if h and isinstance(uid, str):
                    hidden.add(uid)
            clean.append(u)
        body[ukey] = clean
    doc: EncounterDoc = split_document(body, SOURCE)
    module = resolve_system(doc)
    encounter = module.encounter_from_dict(doc.body, SOURCE)
    loaded = Loaded(doc, module, encounter)
    for u in body.get(ukey) or []:
        units.append(UnitInfo(str(u["id"]), str(u.get("name", u["id"])), str(u.get("side", ""))))
    ids = {u.id for u in units}
    sides = {u.side for u in units}
    control: dict[str, Control] = {u.id: Control() for u in units}
    if control_raw is not None:
        if not isinstance(control_raw, dict):
            raise InputError("must be a mapping of unit ids or sides to controllers", source=SOURCE,
                             field="control")
        for key in control_raw:
            if key not in ids and key not in sides:
                raise InputError(f"{key!r} is neither a unit id nor a side; units: {', '.join(sorted(ids))}",
                                 source=SOURCE, field=f"control.{key}")
        for u in units:  # side defaults first, then the unit's own entry
            if u.side in control_raw and u.side not in ids:
                control[u.id] = _parse_control_value(control_raw[u.side], f"control.{u.side}")
        for u in units:
            if u.id in control_raw:
                control[u.id] = _parse_control_value(control_raw[u.id], f"control.{u.id}")
    if players_raw is not None:
        if not isinstance(players_raw, dict):
            raise InputError("must be a mapping {player name: [unit ids]}", source=SOURCE, field="players")
        for name, owned in players_raw.items():
            where = f"players.{name}"
            if not isinstance(owned, list) or not all(isinstance(x, str) for x in owned):
                raise InputError("must be a list of unit ids", source=SOURCE, field=where)
            for uid in owned:
                if uid not in ids:
                    raise InputError(f"unknown unit {uid!r}; units: {', '.join(sorted(ids))}",
                                     source=SOURCE, field=where)
                control[uid] = _parse_control_value(f"player:{name}", where)
    for uid, c in control.items():
        if c.ai is not None:
            by_lower = {k.lower() for k in module.POLICIES}
            if c.ai.lower() not in by_lower:
                raise InputError(f"unknown AI policy {c.ai!r}; known: {', '.join(sorted(module.POLICIES))}",
                                 source=SOURCE, field=f"control.{uid}.controller")
    return TableSetup(loaded, doc_in, units, control, hidden)
