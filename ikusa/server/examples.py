"""The shipped example encounters, as tables (``ikusa serve --example NAME``).

An example is ``<system>/<file stem>`` (``maai/duel``) or just its stem when that is
unique (``duel``).  Without a ``control:`` section of its own, the units of the first side
(the PCs) are given to players named after the units, and the rest stay with the GM.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ikusa.engine.encounter import read_document
from ikusa.engine.errors import InputError

#: the example a fresh database gets
DEFAULT_EXAMPLE = "maai/duel"


def examples_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "examples"


def example_names() -> list[str]:
    root = examples_dir()
    return sorted(f"{p.parent.name}/{p.stem}" for p in root.glob("*/*.yaml"))


def example_document(name: str) -> dict[str, Any]:
    """The document of example ``name``, with players for the first side's units."""
    names = example_names()
    match = [n for n in names if n == name or n.split("/", 1)[1] == name]
    if len(match) != 1:
        raise InputError(f"unknown example {name!r}; examples: {', '.join(names)}", field="--example")
    doc = read_document(examples_dir() / f"{match[0]}.yaml")
    if "control" not in doc:
        units = doc.get("units") or doc.get("characters") or []
        if units and isinstance(units, list):
            first = doc.get("pc_side") or (doc.get("sides") or [units[0].get("side")])[0]
            doc["control"] = {"units": {u["id"]: {"controller": f"player:{u.get('name', u['id'])}", "dice": "ask"}
                                        for u in units if isinstance(u, dict) and u.get("side") == first and "id" in u}}
    return doc
