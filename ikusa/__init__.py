"""ikusa (戦): rules engine, BCDice-compatible dice bot, GM combat tracker and balance lab
for three tabletop-RPG combat systems: ``maai`` (texts 000+001), ``sengensyou`` (003) and
``fantasy`` (002).

The typed public API:

* :func:`ikusa.roll` — run one dice-bot command (BCDice syntax) and get a
  :class:`~ikusa.dice.result.RollResult`.
* :func:`ikusa.odds` — exact odds of a check command.
"""

from __future__ import annotations

from ikusa.api import odds, roll
from ikusa.dice.result import RollResult
from ikusa.engine.errors import DiceError, IkusaError, InputError, RuleViolation

__all__ = ["DiceError", "IkusaError", "InputError", "RollResult", "RuleViolation", "odds", "roll"]
__version__ = "0.1.0"
