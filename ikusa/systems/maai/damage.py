"""Damage in 戦力 (000 §3.5, §3.6, §3.8; 001 戦力・会心): S-R41, S-R43, S-R54, S-R60.

No damage dice: the hit roll is the damage roll.  Hit → 1 戦力 (or the technique's value),
会心 → 2 (special crits: 斬馬刀/野太刀 3, 鉄砲 2 + 1 to the enemy behind).

>>> from ikusa.systems.maai.check import Outcome
>>> hit_damage(Outcome.CRITICAL).target, hit_damage(Outcome.SUCCESS).target, hit_damage(Outcome.FUMBLE).target
(2, 1, 0)
>>> emergency_evasion(3), emergency_evasion(1)
(2, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ikusa.systems.maai.catalog import Catalog, Maneuver
from ikusa.systems.maai.check import Outcome
from ikusa.systems.maai.options import or_default

if TYPE_CHECKING:
    from ikusa.systems.maai.options import CheckKind, MaaiOptions


@dataclass(frozen=True, slots=True)
class Damage:
    """戦力 dealt by one attack: to the ``target``, to the enemy ``behind`` (pass-through,
    S-G15/S-G65), whether it was a 会心 that counted, and the rule."""

    target: int
    behind: int = 0
    critical: bool = False
    rule: str = "S-R41"


def hit_damage(
    outcome: Outcome,
    damage: int = 1,
    crit_damage: int = 2,
    behind: int = 0,
    crit_behind: int = 0,
    kind: CheckKind = "attack",
    options: MaaiOptions | None = None,
) -> Damage:
    """S-R41 (000:L229-236): failure → 0; success → ``damage``; 会心/天命 → ``crit_damage``
    (only on check kinds in ``doubles.crit_checks``, S-G28)."""
    if not outcome.succeeded:
        return Damage(0)
    crit = outcome.critical and kind in or_default(options).doubles.crit_checks
    if crit:
        rule = "S-R43" if crit_damage != 2 or crit_behind else "S-R09"
        return Damage(crit_damage, max(crit_behind, behind), True, rule)
    return Damage(damage, behind, False, "S-R41")


def attack_damage(
    outcome: Outcome,
    maneuver: Maneuver,
    catalog: Catalog,
    kind: CheckKind = "attack",
    options: MaaiOptions | None = None,
) -> Damage:
    """S-R41/S-R43: damage of ``maneuver`` for ``outcome``, with the maneuver's and weapon's
    special values (S-T40: 斬馬刀 会心 3; 鉄砲 会心 2 + 1 behind; 貫通射 2 + 1 behind)."""
    return hit_damage(
        outcome,
        maneuver.damage,
        catalog.crit_damage(maneuver),
        maneuver.behind_damage,
        catalog.crit_behind_damage(maneuver),
        kind,
        options,
    )


def emergency_evasion(damage: int) -> int:
    """S-R54 (000:L280-282): a failed 緊急回避 still reduces the damage by 1, minimum 1
    (S-T30: 3 → 2, 1 → 1).  No damage stays no damage."""
    if damage <= 0:
        return 0
    return max(1, damage - 1)


@dataclass(frozen=True, slots=True)
class WoundsChange:
    before: int
    after: int
    incapacitated: bool

    @property
    def text(self) -> str:
        return f"戦力 {self.before}→{self.after}" + (" 戦闘不能" if self.incapacitated else "")


def apply_wounds(current: int, damage: int) -> WoundsChange:
    """S-R60 (000:L335-338): 戦力 drops by ``damage`` (never below 0); 0 → 戦闘不能."""
    after = max(0, current - max(0, damage))
    return WoundsChange(current, after, after == 0)


def hits_to_incapacitate(wounds: int, per_hit: int) -> int:
    """How many hits of ``per_hit`` 戦力 take ``wounds`` to 0 (S-T34: 4 with 1s, 2 with 会心)."""
    return -(-wounds // per_hit)
