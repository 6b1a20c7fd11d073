"""一呼吸 (breath) limits and 過負荷 (overload): 000 §3.3 (S-R27…S-R29, S-G32, S-G33, S-G52).

>>> breath_limit([BreathExtension("速戦速決の鎧", 1)]).value
6
>>> r = overload_check((6, 6), tai=1, excess=1)
>>> r.success, r.check.total, r.next_limit, r.crit_effect
(True, 12, 3, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ikusa.engine.errors import RuleViolation
from ikusa.systems.maai.check import Check
from ikusa.systems.maai.options import or_default

if TYPE_CHECKING:
    from ikusa.systems.maai.options import MaaiOptions

SEC_BREATH = "000 §3.3 一呼吸"
SEC_OVERLOAD = "000 §3.3 過負荷"


@dataclass(frozen=True, slots=True)
class BreathExtension:
    """A breath-limit extension from a named source (速戦速決の鎧 +1 …).  ``exceptional``
    marks 降臨・怪異物・威名・scenario effects, the only ones allowed past 7 (S-R28)."""

    name: str
    amount: int
    exceptional: bool = False


@dataclass(frozen=True, slots=True)
class BreathLimit:
    value: int
    raw: int
    counted: tuple[BreathExtension, ...]
    ignored: tuple[BreathExtension, ...]
    beyond_official: bool
    narrowed: bool

    @property
    def text(self) -> str:
        parts = [f"基本{self.raw - sum(e.amount for e in self.counted)}"]
        parts += [f"{e.name}+{e.amount}" for e in self.counted]
        s = f"一呼吸限界 {' + '.join(parts)}"
        if self.raw != self.value or self.narrowed:
            s += f" → {self.value}"
        return s


def breath_limit(
    extensions: Sequence[BreathExtension] | Mapping[str, int] = (),
    # object, not bool | int | None (which mypy simplifies to int | None: compiled, mypyc would
    # pass a False in as the int 0, and 0 counts as narrowed)
    narrowed: object = False,
    options: MaaiOptions | None = None,
) -> BreathLimit:
    """S-R27/S-R28 (000:L109-114): base 5; extensions from different sources stack, the same
    name does not (the largest counts); absolute cap 10 (excess discarded); the official cap 7
    is reported (``beyond_official``) and enforced only with ``breath.enforce_official_cap``
    unless a source is exceptional.  ``narrowed``: the breath right after a successful
    overload (S-R29, S-G32) — absolute mode min(limit, 3), relative mode limit − 2 (any
    value other than ``False``/``None`` counts as narrowed).  ``extensions`` may also be a
    mapping name → amount."""
    o = or_default(options)
    if isinstance(extensions, Mapping):
        extensions = [BreathExtension(k, v) for k, v in extensions.items()]
    is_narrowed = narrowed is not None and narrowed is not False
    best: dict[str, BreathExtension] = {}
    ignored: list[BreathExtension] = []
    for e in extensions:
        prev = best.get(e.name)
        if prev is None or e.amount > prev.amount:
            if prev is not None:
                ignored.append(prev)
            best[e.name] = e
        else:
            ignored.append(e)
    counted = tuple(best.values())
    raw = o.breath.base_limit + sum(e.amount for e in counted)
    value = min(raw, o.breath.absolute_cap)
    exceptional = any(e.exceptional for e in counted)
    beyond = value > o.breath.official_cap and not exceptional
    if beyond and o.breath.enforce_official_cap:
        value = o.breath.official_cap
    if is_narrowed:
        value = narrow(value, o)
    return BreathLimit(value, raw, counted, tuple(ignored), beyond, is_narrowed)


def narrow(limit: int, options: MaaiOptions | None = None) -> int:
    """S-G32: the limit of the breath after a successful overload."""
    ov = or_default(options).overload
    if ov.success_next_limit_mode == "absolute":
        return min(limit, ov.success_next_limit_value)
    return max(1, limit + ov.success_next_limit_value)


def overload_excess(spent: int, limit: int) -> int:
    """S-R29 (000:L122): the 活力 spent in one breath beyond the current limit."""
    return max(0, spent - limit)


def check_breath_spend(spent: int, limit: int, vigor: int, options: MaaiOptions | None = None) -> int:
    """Validate a breath costing ``spent`` for a unit with ``vigor`` left and return the
    overload excess.  S-G52: the limit is soft (exceeding it means an overload check);
    S-G33: nothing may cost more than current 活力; option ``breath.max_over_limit``
    rejects breaths beyond limit + N."""
    o = or_default(options)
    if spent > vigor and not o.vigor.allow_overspend:
        raise RuleViolation("S-G33", SEC_BREATH, f"this breath costs {spent} 活力 but only {vigor} remain")
    cap = o.breath.max_over_limit
    if cap is not None and spent > limit + cap:
        raise RuleViolation(
            "S-G52", SEC_BREATH, f"this breath costs {spent} 活力: more than limit {limit} + {cap} (ruleset option)"
        )
    return overload_excess(spent, limit)


@dataclass(frozen=True, slots=True)
class OverloadResult:
    """S-R29: the maneuvers are always performed.  Success → the next breath's limit is
    ``next_limit``; failure → all remaining 活力 this 間合 is lost and the unit is 無防備."""

    check: Check
    excess: int
    success: bool
    next_limit: int | None
    vigor_lost: bool
    defenceless: bool
    crit_effect: bool = False

    @property
    def text(self) -> str:
        a, b = self.check.dice
        m = self.check.applied_modifier
        res = "成功" if self.success else "失敗"
        tail = f" → 次の一呼吸 限界{self.next_limit}" if self.success else " → 残り活力消失・無防備"
        return f"過負荷判定 2D10[{a},{b}]{m:+d}={self.check.total} ≥ {self.check.target} {res}{tail}"


def overload_check(
    dice: tuple[int, int], tai: int, excess: int, limit: int | None = None, options: MaaiOptions | None = None
) -> OverloadResult:
    """S-R29 (000:L124-128): ``2d10 + 體 − excess ≥ 11``.  Doubles carry no 会心 effect
    (S-G28: 会心 only on attack/counter checks, S-T15); a failure is the same whether or not
    it is a 失着 (both make the unit 無防備).  ``limit`` is the current limit, for the
    narrowing (S-G32)."""
    o = or_default(options)
    if excess <= 0:
        raise RuleViolation("S-R29", SEC_OVERLOAD, "no overload: the breath did not exceed its limit")
    c = Check(dice, tai - excess, o.overload.tn)
    crit = "overload" in o.doubles.crit_checks and c.outcome.critical
    if c.success:
        current = limit if limit is not None else o.breath.base_limit
        return OverloadResult(c, excess, True, narrow(current, o), False, False, crit)
    return OverloadResult(c, excess, False, None, True, True, False)
