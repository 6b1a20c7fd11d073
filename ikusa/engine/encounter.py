"""Reading encounter documents (YAML, TOML or JSON) and their system-independent keys.

An encounter file is a mapping with:

* ``system`` — ``maai``, ``sengensyou`` or ``fantasy`` (required);
* ``script`` — optional list of ``{action: KEY, dice: [ints]}``: decisions applied first,
  each with the dice it should consume (missing dice are rolled from the seed);
* ``control`` — optional: who decides for each side/unit and who rolls its dice
  (:mod:`ikusa.engine.control`; unit ids and sides are checked against the state);
* everything else — validated by the system's ``encounter_from_dict``.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from ikusa.engine.control import ControlSpec, parse_control
from ikusa.engine.errors import InputError


@dataclass(slots=True)
class ScriptStep:
    action: str
    dice: list[int]


@dataclass(slots=True)
class EncounterDoc:
    source: str
    system: str
    body: dict[str, Any]
    script: list[ScriptStep]
    control: ControlSpec = field(default_factory=ControlSpec)
    #: the ``control:`` section as written (kept in a log's setup)
    control_raw: dict[str, Any] | None = None


def read_document(path: str | Path) -> dict[str, Any]:
    """Parse a YAML/TOML/JSON file into a mapping, with errors naming the file."""
    p = Path(path)
    src = str(p)
    try:
        text = p.read_text("utf-8-sig")  # a byte-order mark (Windows editors) is not content
    except FileNotFoundError:
        raise InputError("file not found", source=src) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read file: {exc}", source=src) from None
    suffix = p.suffix.lower()
    try:
        if suffix == ".toml":
            data: Any = tomllib.loads(text)
        elif suffix == ".json":
            data = json.loads(text)
        else:
            data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise InputError(f"malformed YAML: {where}{problem}", source=src) from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"malformed TOML: {exc}", source=src) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed JSON: {exc}", source=src) from None
    except RecursionError:
        raise InputError("nested too deeply to be an encounter or a log", source=src) from None
    if not isinstance(data, dict):
        raise InputError("the top level must be a mapping (key: value)", source=src)
    return data


def split_document(data: dict[str, Any], source: str) -> EncounterDoc:
    """Take out ``system``, ``script`` and ``control``; the rest is for the system."""
    body = dict(data)
    system = body.pop("system", None)
    if system is None or system == "":
        raise InputError("missing 'system' (maai, sengensyou or fantasy)", source=source, field="system")
    if not isinstance(system, str):
        raise InputError(f"must be a system name (maai, sengensyou or fantasy), not {system!r}",
                         source=source, field="system")
    raw_script = body.pop("script", None)
    if raw_script is None:
        raw_script = []
    if not isinstance(raw_script, list):  # also {}, "" and 0, which used to pass as "no script"
        raise InputError("must be a list of {action, dice}", source=source, field="script")
    script: list[ScriptStep] = []
    for i, step in enumerate(raw_script):
        where = f"script[{i}]"
        if isinstance(step, str):
            script.append(ScriptStep(step, []))
            continue
        if not isinstance(step, dict) or not isinstance(step.get("action"), str):
            raise InputError("each step needs a string 'action'", source=source, field=where)
        dice = step.get("dice", [])
        if not isinstance(dice, list) or not all(isinstance(d, int) and not isinstance(d, bool) for d in dice):
            raise InputError("'dice' must be a list of whole numbers", source=source, field=where + ".dice")
        unknown = set(step) - {"action", "dice", "note"}
        if unknown:
            raise InputError(f"unknown key(s) {sorted(unknown)}", source=source, field=where)
        script.append(ScriptStep(step["action"], list(dice)))
    raw_control = body.pop("control", None)
    control = parse_control(raw_control, source)
    return EncounterDoc(source, system, body, script, control,
                        raw_control if isinstance(raw_control, dict) else None)


def validation_error(exc: ValidationError, source: str) -> InputError:
    """Turn a pydantic error into an :class:`InputError` naming the field and problem."""
    first = exc.errors()[0]
    field = ".".join(str(p) for p in first.get("loc", ()))
    msg = first.get("msg", "invalid")
    extra = f" (and {exc.error_count() - 1} more problem(s))" if exc.error_count() > 1 else ""
    return InputError(f"{msg}{extra}", source=source, field=field)
