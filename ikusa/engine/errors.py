"""Errors shared by every part of ikusa.

Every refusal names the rule it enforces: the ANALYSIS id (``S-R14``, ``G-G06`` …) and
the rules-text section (``000 §3.3 過負荷``).  A refused action changes nothing.
"""

from __future__ import annotations


class IkusaError(Exception):
    """Base class of every error ikusa raises on purpose (never a bug)."""


class RuleViolation(IkusaError):
    """An illegal action, refused with the rule it breaks.

    >>> str(RuleViolation("S-R16", "000 §3.1 運命介入", "a die showing 10 cannot be raised to 11"))
    'S-R16 (000 §3.1 運命介入): a die showing 10 cannot be raised to 11'
    """

    def __init__(self, rule: str, section: str, message: str) -> None:
        self.rule = rule
        self.section = section
        self.message = message
        super().__init__(f"{rule} ({section}): {message}" if section else f"{rule}: {message}")


class InputError(IkusaError):
    """Bad user input: a malformed command, file or field.

    ``source`` names the file (or ``<command>``), ``field`` the dotted path in it.
    """

    def __init__(self, message: str, *, source: str = "", field: str = "") -> None:
        self.source = source
        self.field = field
        self.message = message
        where = ":".join(p for p in (source, field) if p)
        super().__init__(f"{where}: {message}" if where else message)


class DiceError(IkusaError):
    """A dice source could not supply what was asked (scripted dice ran out, a typed value
    is outside the die's range, …)."""
