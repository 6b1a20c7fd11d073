"""Events: what applying a decision caused, each naming the rule that produced it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Event:
    """One thing that happened.

    ``kind`` is a short machine name (``"attack"``, ``"overload_check"``, ``"damage"``);
    ``rule`` is the ANALYSIS id(s) that governed it (``"S-R29"``); ``text`` is the
    narrated line in Japanese rule terms with every number shown; ``data`` holds the
    numbers for programs (JSON-serialisable values only).

    ``Event(kind, rule, text, data)`` takes the text ready made; :meth:`lazy` takes a
    formatter and the values to format instead, and the text is built on first access
    (issue #12: an AI running many battles never reads it).  The formatter must depend on
    those values only (never on objects that change later), so the text is the same
    whenever it is read.  An event is a value: its fields are not meant to change.
    """

    __slots__ = ("_args", "_fmt", "_text", "data", "kind", "rule")

    def __init__(self, kind: str, rule: str, text: str, data: dict[str, Any] | None = None) -> None:
        self.kind = kind
        self.rule = rule
        self._text: str | None = text
        self._fmt: Callable[..., str] | None = None
        self._args: tuple[Any, ...] = ()
        self.data: dict[str, Any] = {} if data is None else data

    @classmethod
    def lazy(cls, kind: str, rule: str, fmt: Callable[..., str], args: tuple[Any, ...],
             data: dict[str, Any] | None = None) -> Event:
        """An event whose text is ``fmt(*args)``, formatted when first read."""
        e = Event(kind, rule, "", data)  # not cls(…): compiled, a direct native construction
        e._text = None
        e._fmt = fmt
        e._args = args
        return e

    @property
    def text(self) -> str:
        t = self._text
        if t is None:
            assert self._fmt is not None
            t = self._text = self._fmt(*self._args)
            self._fmt = None
            self._args = ()
        return t

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "rule": self.rule, "text": self.text, "data": self.data}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.kind, self.rule, self.text, self.data) == (other.kind, other.rule, other.text, other.data)

    __hash__ = None  # type: ignore[assignment]  # holds a dict, like the frozen dataclass it was

    def __repr__(self) -> str:
        return f"Event(kind={self.kind!r}, rule={self.rule!r}, text={self.text!r}, data={self.data!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle / copy / deepcopy carry the formatted text, never the formatter
        return (Event, (self.kind, self.rule, self.text, self.data))
