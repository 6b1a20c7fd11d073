"""The maai 2d10 check (000 §3.1, 001 §会心): total, the four branches of doubles
(会心/失着/天命/業報) and fate intervention.

Pure functions on immutable values; shared by the dice bot, the odds and the combat engine.

>>> c = Check((7, 7), modifier=2, target=11)
>>> c.total, c.outcome.value
(16, '会心')
>>> Check((7, 7), modifier=2, target=17).outcome.value
'失着'
"""

from __future__ import annotations

from enum import StrEnum
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ikusa.engine.errors import RuleViolation

MOD_MIN, MOD_MAX = -10, 10


class Outcome(StrEnum):
    """The result of a check (S-R08…S-R11)."""

    SUCCESS = "成功"
    FAILURE = "失敗"
    CRITICAL = "会心"  # doubles + success (S-R09)
    FUMBLE = "失着"  # doubles + failure (S-R10)
    TENMEI = "天命"  # [10,10] + success (S-R11)
    GOUHOU = "業報"  # [1,1] + failure (S-R11)

    @property
    def succeeded(self) -> bool:
        return self in _SUCCEEDED

    @property
    def critical(self) -> bool:
        """会心 in the wide sense: 天命 is also a critical success."""
        return self in _CRITICAL

    @property
    def fumbled(self) -> bool:
        """失着 in the wide sense: 業報 is also a fumble."""
        return self in _FUMBLED


_SUCCEEDED = frozenset((Outcome.SUCCESS, Outcome.CRITICAL, Outcome.TENMEI))
_CRITICAL = frozenset((Outcome.CRITICAL, Outcome.TENMEI))
_FUMBLED = frozenset((Outcome.FUMBLE, Outcome.GOUHOU))
_TENMEI, _CRIT, _SUCCESS = Outcome.TENMEI, Outcome.CRITICAL, Outcome.SUCCESS
_FAILURE, _FUMBLE, _GOUHOU = Outcome.FAILURE, Outcome.FUMBLE, Outcome.GOUHOU
_new = tuple.__new__


#: best → worst, the order fate intervention optimises in (issue #2, S-G27)
OUTCOME_RANK: dict[Outcome, int] = {
    Outcome.TENMEI: 5,
    Outcome.CRITICAL: 4,
    Outcome.SUCCESS: 3,
    Outcome.FAILURE: 2,
    Outcome.FUMBLE: 1,
    Outcome.GOUHOU: 0,
}


def clamp_modifier(modifier: int) -> int:
    """S-R07 (000 §3.1 L32): the summed final modifier is clamped to −10…+10.

    >>> clamp_modifier(12), clamp_modifier(-13), clamp_modifier(3)
    (10, -10, 3)
    """
    return max(MOD_MIN, min(MOD_MAX, modifier))


class Check(tuple[Any, ...]):
    """One 2d10 check: ``dice`` as rolled (after any fate), the raw ``modifier`` (clamped
    when read), the ``target`` (TN or 防備).  ``crit_extension`` is 会心拡張 (S-R12):
    a success whose dice differ by exactly 1 is also 会心.  ``fated`` lists the fate
    interventions applied, as (die index, delta).  ``total`` (S-R01: 2d10 + clamped modifier),
    ``success`` (S-R01: total ≥ TN) and ``outcome`` (S-R09…S-R12; S-G29: a failing [10,10] is
    plain 失着, a succeeding [1,1] plain 会心) are worked out once, when it is made.

    An immutable value (==, hash and repr by its fields, as the frozen dataclass it was): a
    tuple of its fields and the derived numbers, read through C-level getters (issue #12: made
    once per roll and read several times on the hot path), and no ``dataclasses`` import into a
    cold ``ikusa odds`` process (target 5).

    >>> Check((3, 4), 1, 9) == Check((3, 4), 1, 9), Check((3, 4), 1, 9)
    (True, Check(dice=(3, 4), modifier=1, target=9, crit_extension=False, fated=()))
    >>> Check((3, 4), 1, 9).target = 2
    Traceback (most recent call last):
    ...
    AttributeError: property 'target' of 'Check' object has no setter
    """

    __slots__ = ()
    #: the fields, in order: the arguments of the constructor, and repr
    _fields: tuple[str, ...] = ("dice", "modifier", "target", "crit_extension", "fated")

    if TYPE_CHECKING:
        @property
        def dice(self) -> tuple[int, int]: ...
        @property
        def modifier(self) -> int: ...
        @property
        def target(self) -> int: ...
        @property
        def crit_extension(self) -> bool: ...
        @property
        def fated(self) -> tuple[tuple[int, int], ...]: ...
        @property
        def total(self) -> int: ...
        @property
        def success(self) -> bool: ...
        @property
        def outcome(self) -> Outcome: ...
    else:
        dice = property(itemgetter(0))
        modifier = property(itemgetter(1))
        target = property(itemgetter(2))
        crit_extension = property(itemgetter(3))
        fated = property(itemgetter(4))
        total = property(itemgetter(5))
        success = property(itemgetter(6))
        outcome = property(itemgetter(7))

    def __new__(cls, dice: tuple[int, int], modifier: int, target: int,
                crit_extension: bool = False, fated: tuple[tuple[int, int], ...] = ()) -> Check:
        a, b = dice
        total = a + b + (MOD_MIN if modifier < MOD_MIN else MOD_MAX if modifier > MOD_MAX else modifier)
        if total >= target:
            if a == b:
                out = _TENMEI if a == 10 else _CRIT
            elif crit_extension and (a - b == 1 or b - a == 1):
                out = _CRIT
            else:
                out = _SUCCESS
            return _new(cls, (dice, modifier, target, crit_extension, fated, total, True, out))
        if a == b:
            out = _GOUHOU if a == 1 else _FUMBLE
        else:
            out = _FAILURE
        return _new(cls, (dice, modifier, target, crit_extension, fated, total, False, out))

    def __getnewargs__(self) -> tuple[Any, ...]:  # copy / deepcopy / pickle: the constructor's arguments
        return self[:5]

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{type(self).__name__}({inner})"

    @property
    def applied_modifier(self) -> int:
        return clamp_modifier(self.modifier)

    @property
    def natural(self) -> int:
        return self.dice[0] + self.dice[1]

    @property
    def doubles(self) -> bool:
        """S-R08: both dice equal."""
        return self.dice[0] == self.dice[1]

    def with_fate(self, index: int, delta: int) -> Check:
        """S-R14/S-R16 (000 §3.1 運命介入): move die ``index`` (0 or 1) by ``delta`` (±1),
        staying within 1…10.  Raises :class:`RuleViolation` otherwise."""
        if index not in (0, 1):
            raise RuleViolation("S-R14", "000 §3.1 運命介入", f"die index must be 0 or 1, not {index}")
        if delta not in (-1, 1):
            raise RuleViolation("S-R14", "000 §3.1 運命介入", f"fate moves one die by ±1, not {delta:+d}")
        new = self.dice[index] + delta
        if not 1 <= new <= 10:
            raise RuleViolation(
                "S-R16", "000 §3.1 運命介入",
                f"a die showing {self.dice[index]} cannot become {new}: it must stay within 1…10",
            )
        dice = (new, self.dice[1]) if index == 0 else (self.dice[0], new)
        return Check(dice, self.modifier, self.target, self.crit_extension, (*self.fated, (index, delta)))

    def fate_choices(self) -> list[tuple[int, int]]:
        """Every legal single intervention (index, delta)."""
        return [(i, d) for i in (0, 1) for d in (-1, 1) if 1 <= self.dice[i] + d <= 10]

    def best_fate(self) -> Check:
        """The check after the one intervention that improves the outcome most, in the order
        天命 > 会心 > 成功 > 失敗 > 失着 > 業報; itself when none improves it (then no use
        is spent)."""
        best = self
        for i, d in self.fate_choices():
            cand = self.with_fate(i, d)
            if OUTCOME_RANK[cand.outcome] > OUTCOME_RANK[best.outcome]:
                best = cand
        return best


def fate_uses(luck: int) -> int:
    """S-R15 (000 §3.1 L52): uses per combat = 運 modifier, minimum 1.

    >>> [fate_uses(x) for x in (3, 1, 0, -1)]
    [3, 1, 1, 1]
    """
    return max(1, luck)
