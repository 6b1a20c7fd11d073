"""Placeholder: the BCDice-compatible common commands (issue #2 replaces this module)."""

from __future__ import annotations

from ikusa.dice.result import RollResult
from ikusa.dice.source import DiceSource


def roll_command(command: str, dice: DiceSource) -> RollResult | None:
    """Not a dice command yet: BCDice's empty output."""
    return None
