"""Equipment grades, [破壊] and repair (001 [破壊], 等級マッチング, 修理・回復): S-R49, S-R50,
S-G06, S-G09, S-G45.

[破壊] makes the armour reduction of the [貫通 N] written with it permanent (until repair) —
only if the executing equipment's grade ≥ the target equipment's grade; otherwise only the
[貫通 N] of this attack applies.  Grades: 補給 = 一般 < 名品 < 神機 (S-G06).

>>> break_applies("名品", "一般"), break_applies("補給", "名品"), break_applies("神機", "名品")
(True, False, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from ikusa.engine.errors import InputError, RuleViolation
from ikusa.systems.maai.catalog import Armour, Tag
from ikusa.systems.maai.options import or_default

if TYPE_CHECKING:
    from ikusa.systems.maai.options import MaaiOptions

SEC_REPAIR = "001 修理・回復"


def grade_rank(grade: str, options: MaaiOptions | None = None) -> int:
    """S-G06: 1 = 補給/一般, 2 = 名品, 3 = 神機 (the ladder is the option
    ``equipment.grade_rank``, extensible)."""
    for i, rung in enumerate(or_default(options).equipment.grade_rank, start=1):
        if grade in rung:
            return i
    names = " < ".join("=".join(r) for r in or_default(options).equipment.grade_rank)
    raise InputError(f"unknown equipment grade {grade!r} ({names})", field="grade")


def break_applies(attacker_grade: str, target_grade: str, options: MaaiOptions | None = None) -> bool:
    """S-R49 (001:L199-206): [破壊] works only when executing grade ≥ target grade."""
    return grade_rank(attacker_grade, options) >= grade_rank(target_grade, options)


@dataclass(frozen=True, slots=True)
class ArmourState:
    """One worn armour/shield piece: its catalog ``bonus``, equipment ``grade``, permanent
    [破壊] ``damage`` and the 応急補修 uses since the last smithy repair (S-R50)."""

    id: str
    name: str
    bonus: int
    grade: str = "一般"
    slot: Literal["armor", "shield"] = "armor"
    natural: bool = False
    damage: int = 0
    field_repairs: int = 0

    @classmethod
    def from_catalog(cls, armour: Armour) -> ArmourState:
        return cls(armour.id, armour.name, armour.bonus, armour.grade, armour.slot, armour.natural)

    @property
    def current(self) -> int:
        """The armour's present 防備 addition after permanent damage."""
        return max(0, self.bonus - self.damage)

    def field_repair(self, options: MaaiOptions | None = None) -> ArmourState:
        """S-R50 (001:L217), S-G09: 応急補修 restores all [破壊] loss, once per armour until a
        camp/smithy repair.  The second time is refused (S-T46)."""
        limit = or_default(options).repair.field_uses_per_armor
        if self.field_repairs >= limit:
            raise RuleViolation(
                "S-R50", SEC_REPAIR,
                f"{self.name} has already had 応急補修: from the second damage on it needs "
                "a camp or smithy (野営・鍛冶場)",
            )
        return replace(self, damage=0, field_repairs=self.field_repairs + 1)

    def smithy_repair(self) -> ArmourState:
        """S-G09: a camp/smithy repair restores fully and resets the 応急補修 allowance."""
        return replace(self, damage=0, field_repairs=0)


@dataclass(frozen=True, slots=True)
class BreakResult:
    """What an attack with [貫通 N] + [破壊] did to the target's equipment.  ``pieces`` is
    the new equipment; ``losses`` (piece id → points lost permanently); ``immune`` the ids of
    pieces whose grade protected them."""

    pieces: tuple[ArmourState, ...]
    losses: dict[str, int]
    immune: tuple[str, ...]

    @property
    def total_loss(self) -> int:
        return sum(self.losses.values())

    @property
    def text(self) -> str:
        parts = [f"{p.name} −{self.losses[p.id]}(修理まで)" for p in self.pieces if self.losses.get(p.id)]
        parts += [f"{p.name} [破壊]免疫" for p in self.pieces if p.id in self.immune]
        return "[破壊] " + (", ".join(parts) if parts else "効果なし")


def resolve_break(
    tags: Sequence[Tag],
    attacker_grade: str,
    pieces: Sequence[ArmourState],
    *,
    hit: bool = True,
    options: MaaiOptions | None = None,
) -> BreakResult:
    """S-R49 (001:L181-213), S-G45: apply the permanent part of [破壊].

    The [貫通 N] points (全体 = all) are taken from the shield first, then the armour
    (``break.order``); each piece keeps its loss only if ``attacker_grade`` ≥ its grade.
    Nothing happens on a miss (``break.requires_hit``), or without both [破壊] and [貫通].
    The [貫通 N] of *this* attack is applied by :func:`~ikusa.systems.maai.defence.compute_defence`
    in any case."""
    o = or_default(options)
    unchanged = BreakResult(tuple(pieces), {}, ())
    pierce = next((t for t in tags if t.kind == "pierce"), None)
    if pierce is None or not any(t.kind == "break" for t in tags):
        return unchanged
    if not hit and o.break_.requires_hit:
        return unchanged
    left = None if pierce.n is None else pierce.n
    order = {kind: i for i, kind in enumerate(o.break_.order)}
    ranked = sorted(range(len(pieces)), key=lambda i: order.get(pieces[i].slot, len(order)))
    new = list(pieces)
    losses: dict[str, int] = {}
    immune: list[str] = []
    for i in ranked:
        p = pieces[i]
        if p.natural and not o.defense.pierce_affects_natural_armor:
            continue
        take = p.current if left is None else min(left, p.current)
        if left is not None:
            left -= take
        if not break_applies(attacker_grade, p.grade, options):
            immune.append(p.id)
        elif take:
            new[i] = replace(p, damage=p.damage + take)
            losses[p.id] = take
    return BreakResult(tuple(new), losses, tuple(immune))
