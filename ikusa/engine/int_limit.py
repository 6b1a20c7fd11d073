"""Integers too long for Python's ``int`` parser (issue #13, found by fuzzing).

Python refuses to convert a decimal string of more than ``sys.get_int_max_str_digits()``
digits (4,300 by default) and raises ``ValueError`` from deep inside the YAML, TOML or JSON
parser.  :func:`too_long_integer` turns that into one :class:`InputError` naming the file,
the field (``units[0].vigor``) when it can be found, and the line and column.
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from typing import Any

from ikusa.engine.errors import InputError

_MARK = "__ikusa_too_long_integer__"


def digit_limit() -> int:
    """The longest integer Python converts (0 = no limit)."""
    get = getattr(sys, "get_int_max_str_digits", None)
    return int(get()) if callable(get) else 0


def is_int_limit_error(exc: BaseException) -> bool:
    """Whether ``exc`` is Python's 'Exceeds the limit (N digits)' conversion error."""
    return isinstance(exc, ValueError) and "Exceeds the limit" in str(exc)


def _find_path(data: Any, path: str = "") -> str | None:
    if isinstance(data, str):
        return path if data == _MARK else None
    if isinstance(data, dict):
        for k, v in data.items():
            found = _find_path(v, f"{path}.{k}" if path else str(k))
            if found is not None:
                return found
    if isinstance(data, list):
        for i, v in enumerate(data):
            found = _find_path(v, f"{path}[{i}]")
            if found is not None:
                return found
    return None


def _parse(text: str, kind: str) -> Any:
    if kind == "toml":
        return tomllib.loads(text)
    if kind == "json":
        return json.loads(text)
    import yaml  # only for a document that failed: ikusa roll never loads yaml (issue #12)

    return yaml.safe_load(text)


def too_long_integer(text: str, kind: str, source: str) -> InputError:
    """The one-line error for a document (``kind`` = yaml, toml or json) holding an integer
    longer than Python converts: the first such number's line and column, and its field."""
    limit = digit_limit() or 4300
    long_run = re.compile("[0-9][0-9_]{" + str(limit) + ",}")
    m = long_run.search(text)
    where = ""
    field: str | None = None
    digits = 0
    if m is not None:
        line = text.count("\n", 0, m.start()) + 1
        col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
        where = f"line {line}, column {col}: " if "\n" in text.strip() else f"column {col}: "
        digits = sum(c.isdigit() for c in m.group())
        try:
            field = _find_path(_parse(long_run.sub(json.dumps(_MARK), text), kind))
        except Exception:  # the marked text may not parse (a number inside a string): line/column only
            field = None
    size = f"{digits:,} digits" if digits else "too many digits"
    return InputError(f"{where}an integer of {size} (at most {limit:,} are read); no rule needs such a number",
                      source=source, field=field or "")
