"""The result of one dice-bot command, BCDice-shaped: text plus flags plus the dice."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ikusa.dice.source import Die


@dataclass(slots=True)
class RollResult:
    """What a command produced.

    ``text`` is BCDice's output text (``(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功``); the flags are
    BCDice's ``success?``/``failure?``/``critical?``/``fumble?``/``secret?``; ``dice``
    lists every die drawn, in order, as ``(value, sides)``.  ``extra`` carries
    system-specific structured data (for example the maai 2d10 faces, the fate state).
    """

    text: str
    success: bool = False
    failure: bool = False
    critical: bool = False
    fumble: bool = False
    secret: bool = False
    dice: list[Die] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` shape of ``ikusa roll``."""
        return {
            "text": self.text,
            "success": self.success,
            "failure": self.failure,
            "critical": self.critical,
            "fumble": self.fumble,
            "secret": self.secret,
            "dice": [[v, s] for v, s in self.dice],
        }

    def copy(self) -> RollResult:
        """An equal result sharing nothing mutable with this one (``dice`` and the lists and
        dicts inside ``extra`` are copied; other values in ``extra`` are shared, so keep
        them immutable).

        >>> a = RollResult("t", dice=[(3, 6)], extra={"w": ["x"]})
        >>> b = a.copy()
        >>> b == a, b.extra["w"] is a.extra["w"]
        (True, False)
        """
        return RollResult(self.text, self.success, self.failure, self.critical, self.fumble, self.secret,
                          list(self.dice), _copy_plain(self.extra) if self.extra else {})


def _copy_plain(value: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in value.items():
        t = type(v)
        out[k] = _copy_plain(v) if t is dict else _copy_list(v) if t is list else v
    return out


def _copy_list(value: list[Any]) -> list[Any]:
    return [_copy_plain(v) if type(v) is dict else _copy_list(v) if type(v) is list else v for v in value]


def is_plain(value: object) -> bool:
    """Whether ``value`` is JSON-like data :meth:`RollResult.copy` copies safely: dicts,
    lists and tuples of str, int, float, bool and None (``extra`` of every shipped command)."""
    if type(value) is dict:
        return all(isinstance(k, str) and is_plain(v) for k, v in value.items())
    if type(value) is list:
        return all(is_plain(v) for v in value)
    return _immutable(value)


def _immutable(value: object) -> bool:
    if value is None or isinstance(value, str | int | float):
        return True
    return isinstance(value, tuple) and all(_immutable(v) for v in value)
