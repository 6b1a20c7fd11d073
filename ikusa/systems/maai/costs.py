"""活力 costs: the cost floor and its exceptions (000 §3.3 活力費用の絶対下限: S-R30, S-R31),
心府 cost modifiers (S-R32, S-G12), improvised reactions (S-R40, S-G34), 分隊命令 (S-R22,
S-G14), 照準集中 (001 照準集中: S-R51, S-G08, S-G53), the GM's fumble extras (S-R10), and the
0-活力 [型] cap (S-R59, S-G40, S-G62).

>>> final_cost(1, [CostModifier("心府", -1, "S-R32")])
1
>>> [improvised_cost(c) for c in (1, 2, 3)]
[2, 3, 5]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

from ikusa.engine.errors import RuleViolation
from ikusa.engine.rounding import round_half_up
from ikusa.systems.maai.catalog import Catalog, Maneuver, Tag
from ikusa.systems.maai.options import or_default

if TYPE_CHECKING:
    from ikusa.systems.maai.options import MaaiOptions

#: S-R31 (000:L136): the only ways a maneuver may cost less than 1.
CostException = Literal[
    "reserved_trigger",  # 予約された防御技法の発動 (prepaid)
    "stance_release",  # 構えの解除 (free action)
    "passive_trait",  # 常時適用の[素養]
    "zero_vigor_kata",  # 「0活力」と明示された[型]
    "transferred_vigor",  # 学者の活力譲渡で受けた活力
    "puppet_action",  # 式神/傀儡が術者の活力で行う行動
]
COST_EXCEPTIONS: tuple[str, ...] = (
    "reserved_trigger", "stance_release", "passive_trait", "zero_vigor_kata", "transferred_vigor", "puppet_action",
)
SEC_FLOOR = "000 §3.3 活力費用の絶対下限"


@dataclass(frozen=True, slots=True)
class CostModifier:
    """A penalty (+) or bonus (−) to a maneuver's cost, with the rule it comes from."""

    label: str
    delta: int
    rule: str


@dataclass(frozen=True, slots=True)
class CostBreakdown:
    base: int
    modifiers: tuple[CostModifier, ...]
    raw: int
    final: int
    exception: str | None

    @property
    def floored(self) -> bool:
        return self.final > self.raw

    @property
    def text(self) -> str:
        """e.g. ``1 心府−1 = 0 → 下限 1``."""
        s = str(self.base) + "".join(f" {m.label}{m.delta:+d}".replace("-", "−") for m in self.modifiers)
        if self.modifiers:
            s += f" = {self.raw}"
        if self.floored:
            s += f" → 下限 {self.final}"
        elif self.exception and self.final != self.raw:
            s += f" → {self.final}"
        return s


def cost_breakdown(
    base: int,
    modifiers: Sequence[CostModifier] = (),
    exception: CostException | None = None,
    options: MaaiOptions | None = None,
) -> CostBreakdown:
    """S-R30 (000:L134): final = base + Σpenalties − Σbonuses, raised to the floor 1.

    S-R31 (000:L136): the floor does not apply under one of :data:`COST_EXCEPTIONS`;
    triggering a reserved defence and releasing a stance cost exactly 0; the others may
    reach 0 (never below).  Words like 無料/タダ/即時 are *not* exceptions (S-T53).
    整備 maneuvers during 小康 spend no 活力 at all (S-R36): they are not priced here."""
    if exception is not None and exception not in COST_EXCEPTIONS:
        raise RuleViolation("S-R31", SEC_FLOOR, f"{exception!r} is not one of the listed 0-活力 exceptions")
    raw = base + sum(m.delta for m in modifiers)
    if exception in ("reserved_trigger", "stance_release"):
        final = 0
    elif exception is not None:
        final = max(0, raw)
    else:
        final = max(or_default(options).costs.floor, raw)
    return CostBreakdown(base, tuple(modifiers), raw, final, exception)


def final_cost(
    base: int,
    modifiers: Sequence[CostModifier] = (),
    exception: CostException | None = None,
    options: MaaiOptions | None = None,
) -> int:
    """The cost after modifiers and the floor (see :func:`cost_breakdown`)."""
    return cost_breakdown(base, modifiers, exception, options).final


def improvised_cost(cost: int, options: MaaiOptions | None = None) -> int:
    """S-R40 (000:L215): an improvised reaction costs 1.5 × the cost, rounded half up
    (1 → 2, 2 → 3, 3 → 5).  S-G34: pass the final modified cost (after 心府/school modifiers
    and the floor)."""
    c = or_default(options).costs
    return max(c.floor, round_half_up(Fraction(cost * c.improvised_multiplier_num, c.improvised_multiplier_den)))


def reaction_cost(cost: int, reserved: bool, options: MaaiOptions | None = None) -> int:
    """S-R37/S-R40 (000:L209, L215, L217): a reserved defence triggers for 0 (prepaid); an
    unreserved one costs the improvised price.  S-T20: 受け流し reserved → 0, else 2."""
    return 0 if reserved else improvised_cost(cost, options)


def squad_command_cost(chi: int, options: MaaiOptions | None = None) -> int:
    """S-R22 (000:L74), S-G14: 分隊命令 costs 2, or 1 with 智 ≥ +2; negative 智 does not
    raise it.  S-T11: 智+2 → 1."""
    s = or_default(options).squad
    return s.command_cost_reduced if chi >= s.command_reduce_at_chi else s.command_cost


def shinpu_modifiers(
    maneuver: Maneuver,
    catalog: Catalog,
    *,
    in_shinpu: bool,
    feats: Sequence[str] = (),
    schools: Sequence[str] = (),
    options: MaaiOptions | None = None,
) -> list[CostModifier]:
    """S-R32 (000:L138), S-G12: cost modifiers of fighting in 心府.

    Short weapons −1 (blocked by the floor for 1-cost techniques), long weapons +1, a
    feat's 心府 melee bonus (修羅の印 −1, S-R68), a school's per-weapon delta (竹内流 槍 −1).
    Ranged weapons in 心府 are refused (S-G12 default ``shinpu.ranged = "forbidden"``) or
    cost +1."""
    if not in_shinpu or maneuver.kind not in ("attack", "counter", "defence"):
        return []
    o = or_default(options).shinpu
    mods: list[CostModifier] = []
    weapon = catalog.weapons.get(maneuver.weapon) if maneuver.weapon else None
    if catalog.is_ranged(maneuver):
        if o.ranged == "forbidden":
            raise RuleViolation(
                "S-G12", "000 §3.9 心府", f"{maneuver.name}: 弓・鉄砲 cannot be used in 心府 (S-R67, S-G12)"
            )
        mods.append(CostModifier("心府(遠隔)", 1, "S-G12"))
        return mods
    if catalog.is_short(maneuver):
        mods.append(CostModifier("心府", o.short_weapon_cost_delta, "S-R32"))
    elif weapon is not None and (weapon.long or weapon.name in o.long_weapons):
        mods.append(CostModifier("心府", o.long_weapon_cost_delta, "S-R32"))
    if maneuver.kind in ("attack", "counter"):
        for fid in feats:
            f = catalog.feat(fid)
            if f.shinpu_melee_cost_delta:
                mods.append(CostModifier(f.name, f.shinpu_melee_cost_delta, "S-R68"))
    for sid in schools:
        sc = catalog.school(sid)
        if maneuver.weapon and maneuver.weapon in sc.shinpu_cost_delta:
            mods.append(CostModifier(sc.name, sc.shinpu_cost_delta[maneuver.weapon], "S-R32"))
    return mods


# ---------------------------------------------------------------- 照準集中 (aim focus)

SEC_AIM = "001 照準集中"


@dataclass(frozen=True, slots=True)
class AimFocus:
    """The result of declaring 照準集中 N: extra 活力 ``n`` and the technique's new tags."""

    n: int
    extra_cost: int
    tags: tuple[Tag, ...]


def aim_focus_cap(gi: int, base_cost: int, breath_room: int | None = None, options: MaaiOptions | None = None) -> int:
    """S-G08: N ≤ max(0, 技).  With ``aim_focus.breath_limit_hard`` (S-G53, the examples'
    reading) also N ≤ breath_room − base_cost, where ``breath_room`` is the breath limit minus
    what the breath has already spent."""
    o = or_default(options).aim_focus
    cap = max(0, gi) if o.cap == "tech_mod" else 10
    if o.breath_limit_hard and breath_room is not None:
        cap = min(cap, max(0, breath_room - base_cost))
    return cap


def aim_focus(
    maneuver: Maneuver,
    n: int,
    gi: int,
    *,
    breath_room: int | None = None,
    options: MaaiOptions | None = None,
) -> AimFocus:
    """S-R51 (001:L252-265): spend N extra 活力 on a technique marked 照準集中 [貫通]/[直撃]
    許可 to add N to that tag ([直撃 N] granted, or [貫通 M] → [貫通 M+N]).  Declared at
    activation; the 活力 is spent whatever the result.  Exceeding the breath limit means an
    overload check (soft limit, S-G53) unless ``aim_focus.breath_limit_hard``."""
    if n < 0:
        raise RuleViolation("S-R51", SEC_AIM, f"照準集中 N must be 0 or more, not {n}")
    if n == 0:
        return AimFocus(0, 0, maneuver.tags)
    if maneuver.aim_focus is None:
        raise RuleViolation("S-R51", SEC_AIM, f"{maneuver.name} is not marked 照準集中 許可")
    cap = aim_focus_cap(gi, maneuver.cost, breath_room, options)
    if n > cap:
        why = f"技{gi:+d}" if cap == max(0, gi) else "the breath limit (S-G53 hard reading)"
        raise RuleViolation("S-G08", SEC_AIM, f"照準集中 {n} exceeds the cap {cap} set by {why}")
    kind = maneuver.aim_focus
    tags: list[Tag] = []
    merged = False
    for t in maneuver.tags:
        if t.kind == kind and not merged:
            tags.append(t if t.n is None else Tag(kind=kind, n=t.n + n))
            merged = True
        else:
            tags.append(t)
    if not merged:
        tags.append(Tag(kind=kind, n=n))
    return AimFocus(n, n, tuple(tags))


# ---------------------------------------------------------------- fumble extras, 0-活力 cap

FumbleExtra = Literal["weapon_drop", "stance_collapse", "slip"]


def fumble_extra_modifier(extra: FumbleExtra) -> CostModifier | None:
    """S-R10 (001:L340-344), S-T51: the GM's optional 失着 extras.  ``stance_collapse`` →
    the next action costs +1 活力; ``weapon_drop`` → picking the weapon up is a maneuver of
    1 活力 (:data:`PICK_UP_COST`, catalog ``common.pick_up_weapon``); ``slip`` → forced move,
    no cost change."""
    if extra == "stance_collapse":
        return CostModifier("構え崩壊", 1, "S-R10")
    return None


PICK_UP_COST = 1


def check_zero_vigor_use(
    used_total: int,
    used_by_effect: int,
    *,
    effect_limit: int | None = None,
    puppet: bool = False,
    options: MaaiOptions | None = None,
) -> None:
    """S-R59 (000 §3.7 L316-323), S-G40, S-G62: may one more 0-活力 [型] use happen this
    間合?  ``used_total`` counts all 0-活力 uses of the unit this 間合 (cap 2), ``used_by_effect``
    those of this effect (1 unless ``effect_limit`` says otherwise; 式神/傀儡 operation is
    exempt from the per-effect limit).  Raises :class:`RuleViolation` when not."""
    o = or_default(options).zero_cost
    if used_total >= o.cap:
        raise RuleViolation(
            "S-R59", "000 §3.7 0活力[型]の一間合2回上限",
            f"0活力 maneuvers are capped at {o.cap} per 間合 (already {used_total}); the count resets at 小康",
        )
    limit = effect_limit if effect_limit is not None else o.per_effect_default
    if not (puppet and o.puppets_exempt_per_effect) and used_by_effect >= limit:
        raise RuleViolation(
            "S-R59", "000 §3.7 間合1回自動付与",
            f"this 0活力 effect may be used {limit} time(s) per 間合 (S-G40)",
        )
