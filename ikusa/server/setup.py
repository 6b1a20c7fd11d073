"""A table's setup: the encounter text a GM uploads, parsed and validated.

The encounter is the system's own document (``ikusa fight`` reads the same files),
with the core's ``control:`` section (who decides for each unit and how its dice are
rolled; docs/gm-control.md) and one key the table adds, taken out before the system
validates the rest:

* ``hidden: true`` on a unit: unknown to players and spectators until the GM reveals it.

Players are named by ``control:`` (``player:<name>``); each gets a link.  Every refusal
names its field.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from typing import Any

import yaml

from ikusa.engine.encounter import split_document
from ikusa.engine.errors import InputError
from ikusa.engine.runner import Loaded, resolve_system

#: the largest encounter the server reads (bytes of its text); bigger ones get 413
MAX_UPLOAD_BYTES = 256 * 1024

SOURCE = "<encounter>"


@dataclass(slots=True)
class UnitInfo:
    id: str
    name: str
    side: str


@dataclass(slots=True)
class TableSetup:
    """The parsed setup: the loaded encounter (with its control), its units, the hidden ones."""

    loaded: Loaded
    document: dict[str, Any]
    units: list[UnitInfo]
    hidden: set[str] = field(default_factory=set)

    @property
    def system(self) -> str:
        return self.loaded.doc.system

    @property
    def title(self) -> str:
        title = self.document.get("title", "")
        return title if isinstance(title, str) else ""

    def players(self) -> dict[str, list[str]]:
        """Player name → the unit ids the encounter's ``control:`` gives them."""
        out: dict[str, list[str]] = {}
        for uid, ctl in self.loaded.new_combat().control.everyone().items():
            if ctl.kind == "player":
                out.setdefault(ctl.who, []).append(uid)
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


def load_setup(document: dict[str, Any]) -> TableSetup:
    """Validate an encounter document (with ``control`` and ``hidden``) for a table."""
    from ikusa.engine.driver import check_policies

    doc_in = json.loads(json.dumps(document, default=str))  # a JSON-clean deep copy (TOML dates …)
    body = dict(doc_in)
    ukey = _unit_key(body)
    raw_units = body.get(ukey)
    hidden: set[str] = set()
    if isinstance(raw_units, list):
        clean = []
        for i, u in enumerate(raw_units):
            if isinstance(u, dict) and "hidden" in u:
                u = dict(u)
                h = u.pop("hidden")
                if not isinstance(h, bool):
                    raise InputError("must be true or false", source=SOURCE, field=f"{ukey}[{i}].hidden")
                if h and isinstance(u.get("id"), str):
                    hidden.add(u["id"])
            clean.append(u)
        body[ukey] = clean
    doc = split_document(body, SOURCE)
    module = resolve_system(doc)
    encounter = module.encounter_from_dict(doc.body, SOURCE)
    check_policies(doc.control, module, SOURCE)
    loaded = Loaded(doc, module, encounter)
    combat = loaded.new_combat()  # checks control's unit ids and sides against the roster
    units = [UnitInfo(u, n, side) for u, n, side in combat.roster()]
    return TableSetup(loaded, doc_in, units, hidden)
