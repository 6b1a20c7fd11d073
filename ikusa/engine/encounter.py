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

import difflib
import json
import tomllib
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from ikusa.engine.control import ControlSpec, parse_control
from ikusa.engine.errors import InputError
from ikusa.engine.int_limit import is_int_limit_error, too_long_integer


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
        if isinstance(exc, yaml.reader.ReaderError):  # NUL and other control characters (#13)
            line = text.count("\n", 0, exc.position) + 1
            where = f"line {line}, column {exc.position - text.rfind(chr(10), 0, exc.position)}: "
            problem = f"character #x{exc.character if isinstance(exc.character, int) else 0:04x} is not allowed"
        raise InputError(f"malformed YAML: {where}{' '.join(problem.split())}", source=src) from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"malformed TOML: {exc}", source=src) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed JSON: {exc}", source=src) from None
    except RecursionError:
        raise InputError("nested too deeply to be an encounter or a log", source=src) from None
    except ValueError as exc:  # an integer longer than Python converts (#13)
        if not is_int_limit_error(exc):
            raise
        kind = "toml" if suffix == ".toml" else "json" if suffix == ".json" else "yaml"
        raise too_long_integer(text, kind, src) from None
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


def validation_error(exc: ValidationError, source: str, model: type[BaseModel] | None = None) -> InputError:
    """Turn a pydantic error into an :class:`InputError` naming every problem (issue #8 §6):
    ``field`` is the first problem's dotted path; the message lists each problem with its
    path, and an unknown key is named as unknown with the close matches among the keys
    allowed there (``model``, or the model the error names)."""
    errors = exc.errors()
    first = errors[0]
    field = _loc(first)
    root = model or _model_named(exc.title)
    parts = []
    for i, err in enumerate(errors):
        msg = err.get("msg", "invalid")
        if err.get("type") == "extra_forbidden":
            msg = _unknown_key(err, root, msg)
        where = _loc(err)
        parts.append(msg if i == 0 else f"{where or '(top level)'}: {msg}")
    more = f" ({len(errors)} problems)" if len(errors) > 1 else ""
    return InputError("; ".join(parts) + more, source=source, field=field)


def _loc(err: Any) -> str:
    return ".".join(str(p) for p in err.get("loc", ()))


def _unknown_key(err: Any, root: type[BaseModel] | None, msg: str) -> str:
    loc = tuple(err.get("loc", ()))
    if not loc:
        return msg
    key = str(loc[-1])
    known = _keys_at(root, loc[:-1]) if root is not None else None
    if not known:
        return f"{msg}: unknown key {key!r}"
    close = difflib.get_close_matches(key, known, n=3, cutoff=0.5)
    hint = f" (did you mean {', '.join(close)}?)" if close else f" (known: {', '.join(sorted(known))})"
    return f"{msg}: unknown key {key!r}{hint}"


def _keys_at(root: type[BaseModel], path: tuple[Any, ...]) -> list[str] | None:
    """The field names (and aliases) of the model found at ``path`` inside ``root``."""
    tp: Any = root
    for part in path:
        tp = _step(tp, part)
        if tp is None:
            return None
    tp = _unwrap_model(tp)
    if tp is None:
        return None
    names: list[str] = []
    for name, info in tp.model_fields.items():
        names.append(name)
        if info.alias:
            names.append(info.alias)
    return names


def _unwrap_model(tp: Any) -> type[BaseModel] | None:
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return tp
    for arg in typing.get_args(tp):
        m = _unwrap_model(arg)
        if m is not None:
            return m
    return None


def _step(tp: Any, part: Any) -> Any:
    model = _unwrap_model(tp) if not typing.get_args(tp) or isinstance(part, str) else None
    if model is not None and isinstance(part, str) and part in model.model_fields:
        return model.model_fields[part].annotation
    if model is not None and isinstance(part, str):
        for info in model.model_fields.values():
            if info.alias == part:
                return info.annotation
    args = [a for a in typing.get_args(tp) if a is not type(None)]
    origin = typing.get_origin(tp)
    if origin in (list, tuple, set, frozenset) and isinstance(part, int) and args:
        return args[0]
    if origin is dict and len(args) == 2:
        return args[1]
    for a in args:  # a union / Annotated: the first alternative that goes on
        got = _step(a, part)
        if got is not None:
            return got
    return None


def _model_named(title: str) -> type[BaseModel] | None:
    """The one pydantic model class called ``title`` (the error's title), if unique."""
    found: list[type[BaseModel]] = []
    todo: list[type[BaseModel]] = [BaseModel]
    seen: set[type[BaseModel]] = set()
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub in seen:
                continue
            seen.add(sub)
            todo.append(sub)
            if sub.__name__ == title and sub.__module__.startswith(("ikusa.", "tests.")):
                found.append(sub)
    return found[0] if len(found) == 1 else None
