"""防備 computation (000 §3.5 防御迂回タグ; 001 防御・貫通体系): S-R44…S-R48, S-R52, S-R64,
S-G05, S-G26, S-G42, S-G44.

Pipeline (S-G42, matching 001:L87):

1. grade base + armour/shield (armour class) + other bonuses (non-armour; only the best
   stance counts, S-R52);
2. [貫通 N] removes N (or 全体) of the armour part (floor: the grade base); [直撃 N] removes
   N (or 全体) of the non-armour part (floor: base + armour); both independently;
3. 無防備 −4 (S-R64) and each 防備 −N debuff (S-R48);
4. global floor 2.

[霊体] (S-R47, S-G05) replaces all of this by the spirit TN: 9 + 霊体防備 (+2 for a 入門/習得
退魔 defender), immune from 免許; 無防備 and 防備 −N do not change it (S-G26).

>>> b = compute_defence(10, armour=[DefenceBonus("重甲", 4, "armour")], tags=[Tag.parse("pierce 2")],
...                     defenceless=True)
>>> b.final, b.text
(8, '防備 14 → [貫通 2] 12 → 無防備 −4 → 8')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ikusa.systems.maai.catalog import Tag
from ikusa.systems.maai.options import or_default

if TYPE_CHECKING:
    from ikusa.systems.maai.options import MaaiOptions

BonusKind = Literal[
    # armour class (S-R46: physical protection)
    "armour", "shield", "natural", "armour_technique",
    # non-armour class (S-R46: technique, 呪術, faith, terrain)
    "stance", "barrier", "cover", "terrain", "evasion", "blessing", "formation", "other",
]
ARMOUR_KINDS = frozenset({"armour", "shield", "natural", "armour_technique"})

#: 退魔 tiers, lowest first (S-R47, S-G05, S-G10)
TAIMA_TIERS = ("入門", "習得", "免許", "名人", "聖人")


@dataclass(frozen=True, slots=True)
class DefenceBonus:
    """One component of 防備: ``label`` (軽甲, 不動の陣, 結界 …), ``value`` and ``kind``
    (armour class or not, S-R46)."""

    label: str
    value: int
    kind: BonusKind = "other"

    @property
    def is_armour(self) -> bool:
        return self.kind in ARMOUR_KINDS


@dataclass(frozen=True, slots=True)
class DefenceStep:
    """One step of the computation: ``delta`` applied, ``value`` after it, ``rule`` cited.
    ``phase`` is ``compose`` (building the total), ``tag``, ``penalty`` or ``floor``."""

    label: str
    delta: int
    value: int
    rule: str
    phase: Literal["compose", "tag", "penalty", "floor", "spirit"]


@dataclass(frozen=True, slots=True)
class DefenceBreakdown:
    """The final 防備 (or [霊体] TN) with every step, for narration."""

    base: int
    armour: int
    other: int
    steps: tuple[DefenceStep, ...]
    final: int
    spirit: bool = False
    immune: bool = False

    @property
    def composed(self) -> int:
        """防備 before tags and penalties (step 1)."""
        return self.base + self.armour + self.other

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(s.rule for s in self.steps))

    @property
    def text(self) -> str:
        """e.g. ``防備 14 → [貫通 2] 12 → 無防備 −4 → 8``; ``[霊体] 目標値 11``."""
        if self.spirit:
            parts = " + ".join(f"{s.label}{_signed(s.delta) if i else s.delta}" for i, s in enumerate(self.steps))
            return f"[霊体] 目標値 {self.final} ({parts})" + (" 免除" if self.immune else "")
        out = f"防備 {self.composed}"
        for s in self.steps:
            if s.phase == "tag":
                out += f" → {s.label} {s.value}"
            elif s.phase in ("penalty", "floor"):
                out += f" → {s.label} {_signed(s.delta)} → {s.value}"
        return out

    @property
    def composition(self) -> str:
        """e.g. ``基本10 + 重甲4 + 不動の陣2``."""
        comp = [s for s in self.steps if s.phase == "compose" and s.delta]
        return " + ".join(f"{s.label}{s.delta}" for s in comp)


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def _combine(tags: Sequence[Tag], kind: str) -> Tag | None:
    """Several [貫通]/[直撃] on one attack add up (e.g. base tag + 照準集中); 全体 wins."""
    found = [t for t in tags if t.kind == kind]
    if not found:
        return None
    if any(t.n is None for t in found):
        return Tag(kind=kind, n=None)
    return Tag(kind=kind, n=sum(t.n or 0 for t in found))


def compute_defence(
    base: int,
    armour: Sequence[DefenceBonus] = (),
    bonuses: Sequence[DefenceBonus] = (),
    tags: Sequence[Tag] = (),
    *,
    defenceless: bool = False,
    debuffs: Sequence[DefenceBonus | int] = (),
    taima_tier: str | None = None,
    spirit_defence: int = 0,
    options: MaaiOptions | None = None,
) -> DefenceBreakdown:
    """The target's 防備 against one attack with ``tags`` (S-R44…S-R48, S-G42).

    ``base`` is the grade base (8/9/10, or a lower stat-block value); ``armour`` the
    armour-class parts (armour, shield, natural armour, armour techniques); ``bonuses`` the
    non-armour parts (a :class:`DefenceBonus` in either list is classified by its ``kind``).
    ``debuffs`` are 防備 −N states (a positive N or a bonus with the value N).
    """
    o = or_default(options)
    parts = [*armour, *bonuses]
    if any(t.kind == "spirit" for t in tags):
        return _spirit_tn(taima_tier, spirit_defence, o)

    steps: list[DefenceStep] = [DefenceStep("基本", base, base, "S-R44", "compose")]
    value = base
    armour_total = 0
    pierceable = 0
    other_total = 0
    best_stance: DefenceBonus | None = None
    for p in parts:
        if p.kind == "stance":
            if best_stance is None or p.value > best_stance.value:
                best_stance = p
    for p in parts:
        if p.kind == "stance" and p is not best_stance:
            steps.append(DefenceStep(f"{p.label}(構えは一つ)", 0, value, "S-R52", "compose"))
            continue
        value += p.value
        if p.is_armour:
            armour_total += p.value
            if p.kind != "natural" or o.defense.pierce_affects_natural_armor:
                pierceable += p.value
        else:
            other_total += p.value
        steps.append(DefenceStep(p.label, p.value, value, "S-R46" if p.is_armour else "S-R44", "compose"))

    pierce = _combine(tags, "pierce")
    if pierce is not None:
        room = max(0, pierceable)
        cut = room if pierce.n is None else min(pierce.n, room)
        value -= cut
        steps.append(DefenceStep(str(pierce), -cut, value, "S-R45", "tag"))
    direct = _combine(tags, "direct")
    if direct is not None:
        room = max(0, other_total)
        cut = room if direct.n is None else min(direct.n, room)
        value -= cut
        steps.append(DefenceStep(str(direct), -cut, value, "S-R46", "tag"))

    if defenceless:
        value -= o.defense.defenseless_penalty
        steps.append(DefenceStep("無防備", -o.defense.defenseless_penalty, value, "S-R64", "penalty"))
    for d in debuffs:
        n, label = (d, "防備") if isinstance(d, int) else (d.value, d.label)
        n = abs(n)
        value -= n
        steps.append(DefenceStep(label if label.startswith("防備") else f"防備 {label}", -n, value, "S-R48", "penalty"))

    floor = o.defense.global_floor
    if value < floor:
        steps.append(DefenceStep("下限", floor - value, floor, "S-G42", "floor"))
        value = floor
    return DefenceBreakdown(base, armour_total, other_total, tuple(steps), value)


def taima_rank(tier: str | None) -> int:
    """0 for none, 1 入門 … 5 聖人 (S-G05)."""
    if tier is None or tier in ("", "なし"):
        return 0
    if tier not in TAIMA_TIERS:
        raise ValueError(f"unknown 退魔 tier {tier!r} ({', '.join(TAIMA_TIERS)})")
    return TAIMA_TIERS.index(tier) + 1


def _spirit_tn(tier: str | None, spirit_defence: int, o: MaaiOptions) -> DefenceBreakdown:
    rank = taima_rank(tier)
    value = o.spirit.base_tn
    steps = [DefenceStep("基準", value, value, "S-G05", "spirit")]
    if spirit_defence:
        value += spirit_defence
        steps.append(DefenceStep("霊体防備", spirit_defence, value, "S-R47", "spirit"))
    immune = rank >= taima_rank(o.spirit.immune_from_tier)
    if rank and not immune:
        value += o.spirit.novice_penalty
        steps.append(DefenceStep(f"退魔{tier}", o.spirit.novice_penalty, value, "S-G05", "spirit"))
    return DefenceBreakdown(0, 0, 0, tuple(steps), value, spirit=True, immune=immune)


def spirit_tn(tier: str | None = None, spirit_defence: int = 0, options: MaaiOptions | None = None) -> DefenceBreakdown:
    """S-R47/S-G05: the TN of a [霊体] attack against a defender with 退魔 ``tier`` and
    霊体防備 +``spirit_defence``; ``immune`` from 免許.  S-T41: none + 2 → 11."""
    return _spirit_tn(tier, spirit_defence, or_default(options))


def vs_noncorporeal(
    attacker_tier: str | None, options: MaaiOptions | None = None
) -> Literal["normal", "auto_miss", "+4"]:
    """S-G05: a physical attack on a 非実体 target by an attacker without 入門 退魔 is an
    automatic miss (option: the target gets 防備 +4); with 入門 or better, normal."""
    if taima_rank(attacker_tier) >= 1:
        return "normal"
    return "auto_miss" if or_default(options).spirit.noncorporeal_without_novice == "auto_miss" else "+4"


def stance_bonus(stances: Sequence[DefenceBonus]) -> int:
    """S-R52 (000 §2.7 L266-268): only one stance is maintained, so only one stance bonus
    counts (the best).  S-T29: two stances giving 防備 +2 each → +2."""
    return max((s.value for s in stances), default=0)
