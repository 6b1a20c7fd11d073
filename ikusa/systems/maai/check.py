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
from typing import Any, ClassVar

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

    def __hash__(self) -> int:
        # Enum's own hash of the name, as a compiled method (Enum.__hash__ is Python-level code,
        # run on every dict or set lookup keyed by an outcome: OUTCOME_RANK, _SUCCEEDED …)
        return hash(self._name_)

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
    return MOD_MIN if modifier < MOD_MIN else MOD_MAX if modifier > MOD_MAX else modifier


#: the outcomes by their OUTCOME_RANK (業報 0 … 天命 5)
BY_RANK: tuple[Outcome, ...] = tuple(sorted(OUTCOME_RANK, key=OUTCOME_RANK.__getitem__))


def outcome_rank(a: int, b: int, m: int, target: int, crit_extension: bool) -> int:
    """OUTCOME_RANK of the roll ``a``, ``b`` with the clamped modifier ``m`` against ``target``
    (S-R08…S-R12; S-G29: a failing [10,10] is plain 失着, a succeeding [1,1] plain 会心), in
    plain integers: what :class:`Check` is made with, and the fate table (flow_base) too.

    >>> [BY_RANK[outcome_rank(*roll, 0, 11, False)].value for roll in ((10, 10), (6, 6), (8, 4), (1, 1))]
    ['天命', '会心', '成功', '業報']
    >>> BY_RANK[outcome_rank(8, 7, 0, 11, True)].value, BY_RANK[outcome_rank(10, 10, -10, 11, False)].value
    ('会心', '失着')
    """
    if a + b + m >= target:
        if a == b:
            return 5 if a == 10 else 4
        return 4 if crit_extension and (a - b == 1 or b - a == 1) else 3
    if a == b:
        return 0 if a == 1 else 1
    return 2


class Check:
    """One 2d10 check: ``dice`` as rolled (after any fate), the raw ``modifier`` (clamped
    when read), the ``target`` (TN or 防備).  ``crit_extension`` is 会心拡張 (S-R12):
    a success whose dice differ by exactly 1 is also 会心.  ``fated`` lists the fate
    interventions applied, as (die index, delta).  ``total`` (S-R01: 2d10 + clamped modifier),
    ``success`` (S-R01: total ≥ TN) and ``outcome`` (S-R09…S-R12; S-G29: a failing [10,10] is
    plain 失着, a succeeding [1,1] plain 会心) are worked out once, when it is made, and so is
    ``rank``, the outcome's :data:`OUTCOME_RANK`.

    An immutable value (==, hash and repr by its fields; copies and pickles by them): a plain
    class compiled to a native one (setup.py; issue #12: made once per roll and read several
    times on the hot path).  The flow shares one object per roll: nothing assigns its fields
    after it is made (compiled, they cannot be assigned at all).

    >>> Check((3, 4), 1, 9) == Check((3, 4), 1, 9), Check((3, 4), 1, 9)
    (True, Check(dice=(3, 4), modifier=1, target=9, crit_extension=False, fated=()))
    >>> import pickle; pickle.loads(pickle.dumps(Check((7, 7), 2, 17))).outcome.value
    '失着'
    """

    __slots__ = ("crit_extension", "dice", "fated", "modifier", "outcome", "rank", "success", "target", "total")
    #: the fields, in order: the arguments of the constructor, and repr
    _fields: ClassVar[tuple[str, ...]] = ("dice", "modifier", "target", "crit_extension", "fated")

    def __init__(self, dice: tuple[int, int], modifier: int, target: int,
                 crit_extension: bool = False, fated: tuple[tuple[int, int], ...] = ()) -> None:
        a, b = dice
        m = clamp_modifier(modifier)
        self.dice = dice
        self.modifier = modifier
        self.target = target
        self.crit_extension = crit_extension
        self.fated = fated
        self.total = a + b + m
        self.rank = rank = outcome_rank(a, b, m, target, crit_extension)
        self.success = rank >= 3  # the successes rank 3 (成功), 4 (会心) and 5 (天命)
        self.outcome = BY_RANK[rank]

    def args(self) -> tuple[Any, ...]:
        """The constructor's arguments (what ==, hash, copy and pickle go by)."""
        return (self.dice, self.modifier, self.target, self.crit_extension, self.fated)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Check) and self.args() == other.args()

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.args())

    def __reduce__(self) -> tuple[Any, ...]:  # copy / deepcopy / pickle: the constructor's arguments
        return (type(self), self.args())

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={v!r}" for f, v in zip(self._fields, self.args(), strict=True))
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
            if cand.rank > best.rank:
                best = cand
        return best


def fate_uses(luck: int) -> int:
    """S-R15 (000 §3.1 L52): uses per combat = 運 modifier, minimum 1.

    >>> [fate_uses(x) for x in (3, 1, 0, -1)]
    [3, 1, 1, 1]
    """
    return max(1, luck)
