"""The dice tray: every die a command draws goes through here.

It enforces the limits of :mod:`ikusa.dice.bcdice.limits` *before* asking the source,
checks what the source returns, and records each die as ``(value, sides)`` in the order
BCDice would consume it (the ``rands`` of BCDice's test data).
"""

from __future__ import annotations

from ikusa.dice.bcdice.limits import MAX_DICE, MAX_SIDES
from ikusa.dice.source import DiceSource, Die
from ikusa.engine.errors import DiceError


class DiceTray:
    """Draws dice from ``source`` for one command evaluation, at most ``max_dice``."""

    def __init__(self, source: DiceSource, max_dice: int = MAX_DICE) -> None:
        self.source = source
        self.max_dice = max_dice
        self.drawn: list[Die] = []

    def roll(self, sides: int, count: int = 1, purpose: str = "") -> list[int]:
        """``count`` dice of ``sides`` faces, in order."""
        check_sides(sides)
        if count < 0:
            raise DiceError(f"cannot roll a negative number of dice ({count})")
        if len(self.drawn) + count > self.max_dice:
            raise DiceError(
                f"too many dice: at most {self.max_dice} dice in one roll "
                f"(already drew {len(self.drawn)}, asked for {count} more)"
            )
        if count == 0:
            return []
        values = list(self.source.roll(sides, count, purpose))
        if len(values) != count:
            raise DiceError(f"dice source gave {len(values)} value(s) for {count}d{sides}")
        for v in values:
            if not isinstance(v, int) or not 1 <= v <= sides:
                raise DiceError(f"die value {v!r} is outside 1..{sides} of a d{sides}")
        self.drawn.extend((v, sides) for v in values)
        return values

    def roll_once(self, sides: int, purpose: str = "") -> int:
        return self.roll(sides, 1, purpose)[0]


def check_sides(sides: int) -> None:
    """A die has 1..MAX_SIDES faces."""
    if sides < 1 or sides > MAX_SIDES:
        raise DiceError(f"a die must have 1..{MAX_SIDES} sides, not {sides}")
