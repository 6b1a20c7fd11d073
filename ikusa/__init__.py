"""ikusa (戦): rules engine, BCDice-compatible dice bot, GM combat tracker and balance lab
for three tabletop-RPG combat systems: ``maai`` (texts 000+001), ``sengensyou`` (003) and
``fantasy`` (002).

The typed public API:

* :func:`ikusa.roll` — run one dice-bot command (BCDice syntax) and get a
  :class:`~ikusa.dice.result.RollResult`.
* :func:`ikusa.odds` — exact odds of a check command.

The names are imported on first use (``import ikusa`` alone stays cheap for the command
line's start-up, issue #12).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ikusa.api import odds, roll
    from ikusa.dice.result import RollResult
    from ikusa.engine.errors import DiceError, IkusaError, InputError, RuleViolation

__all__ = ["DiceError", "IkusaError", "InputError", "RollResult", "RuleViolation", "odds", "roll"]
__version__ = "0.1.0"

#: public name -> the module that defines it
_LAZY = {
    "roll": "ikusa.api", "odds": "ikusa.api", "RollResult": "ikusa.dice.result",
    "DiceError": "ikusa.engine.errors", "IkusaError": "ikusa.engine.errors",
    "InputError": "ikusa.engine.errors", "RuleViolation": "ikusa.engine.errors",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ikusa' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups are plain module attributes
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])
