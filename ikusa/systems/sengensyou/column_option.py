"""Options kept in columns: the shots at one target with 1, 2, … DP, the evasions against one
attack with 1, 2, … dice.  The options of a column differ only in their cost (and odds), so
their labels share everything else.

Issue #12: a :class:`ColumnOption` is one object.  ``Option.lazy`` needs a closure per option
(a ``functools.partial`` and its argument tuple) to make the label later; here the column's
``(formatter, shared values)`` pair is made once and every option of the column points at it.
The kept columns (``SengensyouState.grow_memo``) hold thousands of options, and the garbage
collector walks every object they hold: a third of the objects means far fewer and cheaper
full collections (a random party battle spent about a fifth of its time in them).

Nothing a reader sees changes: the label is ``fmt(*shared, cost, odds)``, made when first read
(``tests/systems/sengensyou/test_option_identity.py`` compares every option).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ikusa.engine.protocol import Option

#: a column's label maker and the values its options share: label = fmt(*shared, cost, odds)
Column = tuple[Callable[..., str], tuple[Any, ...]]


class ColumnOption(Option):
    """An :class:`Option` whose label is made on first read from its column's shared values and
    its own ``cost`` and ``odds`` (build it with :func:`column_option`)."""

    __slots__ = ("_col",)

    _col: Column

    @property
    def label(self) -> str:
        t = self._label
        if t is None:
            fmt, shared = self._col
            t = self._label = fmt(*shared, self.cost, self.odds)
        return t


# Option's own __new__ (object.__new__ in pure Python): object.__new__ refuses a subclass of the
# compiled Option (mypyc, setup.py)
_new = Option.__new__


def column_option(key: str, col: Column, cost: int | None, odds: float | None,
                  data: dict[str, Any]) -> ColumnOption:
    """The option ``key`` of column ``col`` (its label: ``col[0](*col[1], cost, odds)``)."""
    o: ColumnOption = _new(ColumnOption)
    o.key = key
    o._label = None
    o._make = None
    o.cost = cost
    o.odds = odds
    o.data = data
    o._col = col
    return o
