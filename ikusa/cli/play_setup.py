"""Setting up ``ikusa play``: ``--control`` flags merged into the encounter's ``control:``
section, and where the autosave goes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ikusa.engine.control import DICE_MODES, parse_control
from ikusa.engine.driver import check_policies
from ikusa.engine.errors import InputError


def apply_control_flags(loaded: Any, flags: list[str]) -> None:
    """``SIDE|UNIT|default|gm=CONTROLLER[,DICE]`` flags, as if written in the file's
    ``control:`` section (so the log's setup carries them)."""
    if not flags:
        return
    raw: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else v)
                           for k, v in (loaded.doc.control_raw or {}).items()}
    roster = loaded.new_combat().roster()
    sides = {s for _, _, s in roster}
    by_name = {n: u for u, n, _ in roster}
    units = {u for u, _, _ in roster}
    for flag in flags:
        target, eq, spec = flag.partition("=")
        target = target.strip()
        if not eq or not target or not spec.strip():
            raise InputError(f"--control needs TARGET=CONTROLLER[,DICE], not {flag!r}", field="--control")
        part: dict[str, str] = {}
        for bit in (b.strip() for b in spec.split(",") if b.strip()):
            if bit in DICE_MODES:
                part["dice"] = bit
            else:
                part["controller"] = bit
        if target in ("default", "gm"):
            raw[target] = {**(raw.get(target) or {}), **part}
            continue
        group = "sides" if target in sides else "units"
        if group == "units":
            target = by_name.get(target, target)
            if target not in units:
                listed = ", ".join(sorted(sides | units))
                raise InputError(f"--control {flag!r}: no side or unit {target!r} (sides and units: {listed})",
                                 field="--control")
        bucket = dict(raw.get(group) or {})
        old = bucket.get(target)
        old_part = old if isinstance(old, dict) else ({} if old is None else {"controller": old})
        bucket[target] = {**old_part, **part}
        raw[group] = bucket
    loaded.doc.control = parse_control(raw, "--control", "control")
    loaded.doc.control_raw = raw
    check_policies(loaded.doc.control, loaded.module, "--control")
    loaded.new_combat()  # unit ids and sides checked against the roster


def autosave_path(file: Path | None, load: Path | None, save: Path | None) -> Path | None:
    """``--save``, else the loaded log itself, else ``NAME.play.json`` next to the encounter."""
    if save is not None:
        return save
    if load is not None:
        return load
    if file is not None:
        return file.with_name(file.stem + ".play.json")
    return None
