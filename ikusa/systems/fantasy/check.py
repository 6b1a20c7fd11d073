"""The host check that 002 assumes (F.C, F-H01/F-H02): 達成値 = 判定値 + 2D6 (+ modifiers),
success when 達成値 ≥ TN (F-G05), with 自動成功/自動失敗 on the natural roll (F-G04).

002 never defines the host's dice or its automatic results, so these are the project's
defaults, each a named option in :class:`CheckOptions`:

* F-H02: the check dice are 2D6 (``dice = 2``, d6 per 002's "1D" convention).
* F-G04: 自動失敗 = natural 2 ([1,1]); 自動成功 = natural 12 ([6,6]) *(invented by symmetry)*.
  An automatic result overrides the comparison (a 麻痺 target is hit "unless automatic
  failure", F-R10, which only makes sense if 自動失敗 beats any total).
* F-G05: success on 達成値 ≥ TN (``tie = "success"``).

Modifiers are (label, value) pairs so a narrated check lists its sources, for example
``伏せ −2`` and ``暗闇 −4`` (F-R12, F-R13).

>>> c = FantasyCheck((3, 4), base=5, modifiers=(Modifier("伏せ", -2),), target=12)
>>> c.total, c.result.value
(10, '失敗')
>>> FantasyCheck((6, 6), base=0, target=20).result.value
'自動成功'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class CheckResult(StrEnum):
    SUCCESS = "成功"
    FAILURE = "失敗"
    AUTO_SUCCESS = "自動成功"  # F-G04
    AUTO_FAILURE = "自動失敗"  # F-G04

    @property
    def succeeded(self) -> bool:
        return self in (CheckResult.SUCCESS, CheckResult.AUTO_SUCCESS)


class CheckOptions(BaseModel):
    """Gap defaults of the host check (F-G04, F-G05, F-H02)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: F-G04: natural total that is 自動失敗 (None: no automatic failure)
    auto_failure_at: int | None = Field(default=2)
    #: F-G04 (invented by symmetry): natural total that is 自動成功 (None: none)
    auto_success_at: int | None = Field(default=12)
    #: F-G05: a tie with the TN succeeds
    tie: Literal["success", "failure"] = "success"


DEFAULT_OPTIONS = CheckOptions()


@dataclass(frozen=True, slots=True)
class Modifier:
    """One named modifier of a check (a condition, terrain, the pincer bonus …)."""

    label: str
    value: int

    def text(self) -> str:
        return f"{self.label}{self.value:+d}" if self.label else f"{self.value:+d}"


@dataclass(frozen=True, slots=True)
class FantasyCheck:
    """One 2D6 check (F-H01): ``dice`` as rolled, ``base`` = 判定値, named ``modifiers``,
    ``target`` = TN."""

    dice: tuple[int, ...]
    base: int
    target: int
    modifiers: tuple[Modifier, ...] = field(default=())
    options: CheckOptions = DEFAULT_OPTIONS

    @property
    def natural(self) -> int:
        return sum(self.dice)

    @property
    def modifier_total(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def total(self) -> int:
        """達成値 = 判定値 + dice + modifiers (F-H01)."""
        return self.base + self.natural + self.modifier_total

    @property
    def result(self) -> CheckResult:
        """F-G04 automatic results first, then 達成値 against TN (F-G05)."""
        return check_result(self.natural, self.total, self.target, self.options)

    @property
    def success(self) -> bool:
        return self.result.succeeded


def check_result(natural: int, total: int, target: int, options: CheckOptions = DEFAULT_OPTIONS) -> CheckResult:
    """The result of a check from its natural 2D6 and its 達成値 (for odds tables)."""
    if options.auto_failure_at is not None and natural == options.auto_failure_at:
        return CheckResult.AUTO_FAILURE
    if options.auto_success_at is not None and natural == options.auto_success_at:
        return CheckResult.AUTO_SUCCESS
    if total > target or (total == target and options.tie == "success"):
        return CheckResult.SUCCESS
    return CheckResult.FAILURE
