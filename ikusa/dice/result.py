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
