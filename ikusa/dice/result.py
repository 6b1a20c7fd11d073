"""The result of one dice-bot command, BCDice-shaped: text plus flags plus the dice."""

from __future__ import annotations

from typing import Any

from ikusa.dice.source import Die


class RollResult:
    """What a command produced.

    ``text`` is BCDice's output text (``(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功``); the flags are
    BCDice's ``success?``/``failure?``/``critical?``/``fumble?``/``secret?``; ``dice``
    lists every die drawn, in order, as ``(value, sides)``.  ``extra`` carries
    system-specific structured data (for example the maai 2d10 faces, the fate state).

    A plain slots class with a dataclass's constructor, ``==`` and ``repr``, not a dataclass:
    ``dataclasses`` imports ``inspect``, about 8 ms of every ``ikusa roll`` start-up (issue #12).
    """

    __slots__ = ("critical", "dice", "extra", "failure", "fumble", "secret", "success", "text")
    __hash__ = None  # type: ignore[assignment]  # mutable, like a non-frozen dataclass

    def __init__(self, text: str, success: bool = False, failure: bool = False, critical: bool = False,
                 fumble: bool = False, secret: bool = False, dice: list[Die] | None = None,
                 extra: dict[str, Any] | None = None) -> None:
        self.text = text
        self.success = success
        self.failure = failure
        self.critical = critical
        self.fumble = fumble
        self.secret = secret
        self.dice = [] if dice is None else dice
        self.extra = {} if extra is None else extra

    def _fields(self) -> tuple[object, ...]:
        return (self.text, self.success, self.failure, self.critical, self.fumble, self.secret, self.dice,
                self.extra)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RollResult):
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        return (f"RollResult(text={self.text!r}, success={self.success!r}, failure={self.failure!r}, "
                f"critical={self.critical!r}, fumble={self.fumble!r}, secret={self.secret!r}, "
                f"dice={self.dice!r}, extra={self.extra!r})")

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
