"""BCDice's comparison operators and number formatting (``Normalize``/``Format``)."""

from __future__ import annotations

import operator
from collections.abc import Callable

#: full-width separator BCDice puts between the steps of a result
SEP = " ＞ "

_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "!=": operator.ne,
    "<": operator.lt,
    ">": operator.gt,
    "==": operator.eq,
}


def normalize_cmp(text: str) -> str | None:
    """BCDice's ``Normalize.comparison_operator``: a run of ``<>!=`` to one operator, or
    ``None`` when it names none (``"!"``).

    >>> [normalize_cmp(t) for t in ("=>", "=<", "<>", "==", "=", "><", "!")]
    ['>=', '<=', '!=', '==', '==', '<', None]
    """
    if "<=" in text or "=<" in text:
        return "<="
    if ">=" in text or "=>" in text:
        return ">="
    if "<>" in text or "!=" in text or "=!" in text:
        return "!="
    if "<" in text:
        return "<"
    if ">" in text:
        return ">"
    if "=" in text:
        return "=="
    return None


def cmp_text(op: str | None) -> str:
    """How BCDice prints an operator: ``!=`` as ``<>``, ``==`` as ``=``."""
    if op is None:
        return ""
    return {"!=": "<>", "==": "="}.get(op, op)


def compare(lhs: int, op: str, rhs: int) -> bool:
    return _COMPARE[op](lhs, rhs)


def modifier_text(n: int) -> str:
    """BCDice's ``Format.modifier``: ``+3``, ``-2``, or nothing for 0."""
    if n > 0:
        return f"+{n}"
    if n < 0:
        return str(n)
    return ""
