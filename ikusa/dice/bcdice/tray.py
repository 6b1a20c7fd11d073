"""The dice tray: every die a command draws goes through here.

It applies BCDice's randomizer limits (:mod:`ikusa.dice.bcdice.limits`) *before* asking
the source, checks what the source returns, and records each die as ``(value, sides)`` in
the order BCDice would consume it (the ``rands`` of BCDice's test data).  The 10,000-dice
budget of one command lives in a :class:`Budget` shared by every tray of that command
(a repeat's repetitions draw from one budget, as BCDice's shared randomizer).
"""

from __future__ import annotations

from ikusa.dice.bcdice.limits import MAX_RANDS, MAX_SIDES, MAX_TIMES
from ikusa.dice.source import DiceSource, Die
from ikusa.engine.errors import DiceError


class Budget:
    """A dice source that counts what it hands out and refuses more than ``limit``."""

    def __init__(self, inner: DiceSource, limit: int = MAX_RANDS) -> None:
        self.inner = inner
        self.limit = limit
        self.used = 0
        #: repetitions run so far (:mod:`ikusa.dice.bcdice.repeat`)
        self.evaluations = 0

    def reserve(self, count: int) -> None:
        if self.used + count > self.limit:
            raise DiceError(f"too many dice: at most {self.limit} dice in one command "
                            f"(already drew {self.used}, asked for {count} more)")

    def roll(self, sides: int, count: int = 1, purpose: str = "", roller: str = "") -> list[int]:
        self.reserve(count)
        values = list(self.inner.roll(sides, count, purpose))
        self.used += len(values)
        return values


def budget(source: DiceSource) -> Budget:
    """``source`` itself when it already is a :class:`Budget`, else a new one around it."""
    return source if isinstance(source, Budget) else Budget(source)


class DiceTray:
    """Draws dice from ``source`` for one command evaluation."""

    def __init__(self, source: DiceSource) -> None:
        self.source = budget(source)
        self.drawn: list[Die] = []

    def roll(self, sides: int, count: int = 1, purpose: str = "", roller: str = "") -> list[int]:
        """``count`` dice of ``sides`` faces, in order (BCDice's ``roll_barabara``): no die
        at all for a count outside 1..200, a 0 for each die of sides outside 1..10,000."""
        self.source.reserve(count)
        if count <= 0 or count > MAX_TIMES:
            return []
        if not 1 <= sides <= MAX_SIDES:
            return [0] * count
        values = self.source.roll(sides, count, purpose)
        if len(values) != count:
            raise DiceError(f"dice source gave {len(values)} value(s) for {count}d{sides}")
        for v in values:
            if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= sides:
                raise DiceError(f"die value {v!r} is outside 1..{sides} of a d{sides}")
        self.drawn.extend((v, sides) for v in values)
        return values

    def roll_once(self, sides: int, purpose: str = "") -> int:
        """One die (BCDice's ``roll_once``): 0 for sides outside 1..10,000."""
        self.source.reserve(1)
        if not 1 <= sides <= MAX_SIDES:
            return 0
        return self.roll(sides, 1, purpose)[0]
