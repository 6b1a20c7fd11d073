"""Events: what applying a decision caused, each naming the rule that produced it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True, frozen=True)
class Event:
    """One thing that happened.

    ``kind`` is a short machine name (``"attack"``, ``"overload_check"``, ``"damage"``);
    ``rule`` is the ANALYSIS id(s) that governed it (``"S-R29"``); ``text`` is the
    narrated line in Japanese rule terms with every number shown; ``data`` holds the
    numbers for programs (JSON-serialisable values only).
    """

    kind: str
    rule: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "rule": self.rule, "text": self.text, "data": self.data}
