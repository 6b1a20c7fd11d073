"""Bullet sources and the 003 damage table (G-R13..G-R18, G-G01, G-G06, G-G19, G-G20).

A *variant* is one way to use a source for one attack type: which 特性値 and skill the
check uses, the check bonus, the damage dice count and the fixed damage.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from ikusa.systems.sengensyou.catalog import AttackKind, Bullet
from ikusa.systems.sengensyou.character import Fighter

ATTACK_SKILL = {"barrage": "弾幕", "shot": "ショット", "homing": "ホーミング"}

# The reference table's costs and fixed numbers (G-R16, G-R20; 003:L317-L320, L272-L289).
#: 弾幕: DP消費1 (003:L317)
BARRAGE_DP = 1
#: ホーミング: DP消費「対象数×2」 (003:L319)
HOMING_DP_PER_TARGET = 2
#: ホーミング: 判定値 + 10 is the fixed 達成値 (003:L272-L286)
HOMING_FIXED_BONUS = 10
#: ホーミング: 目標一体ごとに2DP追加消費で達成値+10 (003:L319)
HOMING_BOOST_DP = 2
HOMING_BOOST_BONUS = 10
#: combat checks roll at least this many dice (G-R03, G-G10); 近接攻撃 pays it twice
MIN_COMBAT_DICE = 1


def homing_cost(boosts: list[int] | tuple[int, ...]) -> int:
    """G-R20: 2 DP per target plus 2 DP per +10 boost."""
    return HOMING_DP_PER_TARGET * len(boosts) + HOMING_BOOST_DP * sum(boosts)
ATTACK_JA = {"barrage": "弾幕", "shot": "ショット", "homing": "ホーミング", "melee": "近接攻撃"}


@mypyc_attr(allow_interpreted_subclasses=True)  # copied via cls.__new__ (deepcopy, pickle): see setup.py
@dataclass(frozen=True, slots=True)
class Variant:
    """One usable (source, attack type) pair with its numbers."""

    key: str  # option-key segment: the bullet id, or "gun-w" (judged with 〈【射撃武器】〉)
    bullet: Bullet
    kind: AttackKind
    stat: str
    check_skill: str
    check_bonus: int
    level: int
    damage_dice: int
    fixed_damage: int  # the fixed part beyond the 特性値

    def check_base(self, f: Fighter) -> int:
        """判定値 (shot) or fixed 達成値 before per-target boosts (homing: +10, G-R16)."""
        extra = HOMING_FIXED_BONUS if self.kind == "homing" else 0
        return f.stat(self.stat) + f.skill(self.check_skill) + self.check_bonus + extra

    def damage_text(self) -> str:
        fixed = f"+{self.fixed_damage}" if self.fixed_damage else ""
        return f"{self.damage_dice}D+{self.stat}{fixed}"


def source_level(f: Fighter, b: Bullet) -> int:
    """The Lv behind a source: [能力]Lv / [妖力]Lv / [鍛錬]Lv (G-R15, G-R18)."""
    return f.ability(b.level_name) if b.level_kind == "ability" else f.feat(b.level_name)


def has_source(f: Fighter, b: Bullet) -> bool:
    """G-G01 condition a: the character has what the source requires."""
    r = b.requires
    return (all(f.ability(a) > 0 for a in r.abilities) and all(f.feat(x) > 0 for x in r.feats)
            and all(f.skill(s) > 0 for s in r.skills) and source_level(f, b) > 0)


def _stat_for(f: Fighter, b: Bullet) -> tuple[str, int]:
    """特性値 and check bonus: the better of the allowed stats ([属性使い] 知性 or 感覚); for
    [妖弾化] combined with a skill, that skill's 特性値 and +1 (G-R15, G-G19)."""
    if b.combined_bonus and f.spec.youdan_skill is not None:
        stat = f.cat.terms.skill_stats.get(f.spec.youdan_skill, "知性")
        return stat, b.combined_bonus
    if b.combined_bonus:
        return "知性", 0
    best = max(b.stats, key=lambda s: (f.stat(s), -b.stats.index(s)))
    return best, 0


def variants(f: Fighter, kind: AttackKind, *, need_skill: bool = True) -> list[Variant]:
    """Every usable variant of attack ``kind`` for ``f`` (G-G01 conditions a and b)."""
    if need_skill and f.skill(ATTACK_SKILL[kind]) < 1:
        return []
    out: list[Variant] = []
    for b in f.cat.bullets.values():
        if kind not in b.attacks or not has_source(f, b):
            continue
        if kind == "homing" and b.homing_needs_item and b.homing_needs_item not in f.spec.items:
            continue  # G-R04: weapons home only with [業物]
        if kind == "shot" and any(f.skill(s) < 1 for s in b.shot_needs_skills):
            continue  # G-R15 (003:L269): a shooting weapon's shot needs both skills
        lv = source_level(f, b)
        stat, bonus = _stat_for(f, b)
        fixed = f.skill(b.fixed_damage_skill) if b.fixed_damage_skill else 0
        if kind == "homing":
            out.append(Variant(b.id, b, kind, stat, "ホーミング", bonus, lv, round_up_half(lv), 0))
        elif kind == "barrage":
            out.append(Variant(b.id, b, kind, stat, "弾幕", bonus, lv, 0, 0))
        else:
            out.append(Variant(b.id, b, kind, stat, "ショット", bonus, lv, lv, fixed))
            if b.weapon_skill:  # G-G20: judged with 〈【射撃武器】〉 → +Lv fixed damage
                out.append(Variant(b.id + "-w", b, kind, stat, b.weapon_skill, bonus, lv, lv,
                                   fixed + f.skill(b.weapon_skill)))
    return out


def state_variants(st: Any, f: Fighter, kind: AttackKind) -> list[Variant]:
    """:func:`variants` of ``f`` in the battle ``st`` (its ``require_attack_skill``), worked
    out once per fighter, kind and spec and kept on the state (``st.variant_memo``; issue
    #12): they depend only on the character sheet and its catalogue.  Read-only list."""
    need = st.opt.require_attack_skill
    key = (f.id, kind, need)
    memo: dict[tuple[str, str, bool], tuple[object, object, list[Variant]]] = st.variant_memo
    got = memo.get(key)
    if got is None or got[0] is not f.spec or got[1] is not f.cat:
        got = memo[key] = (f.spec, f.cat, variants(f, kind, need_skill=need))
    return got[2]


def round_up_half(n: int) -> int:
    """切り上げ of n/2 (homing dice G-G14, homing target cap G-R16): exact integer ceiling."""
    return -(-n // 2)


def homing_target_cap(f: Fighter) -> int:
    """G-R16 / G-G13: at most ceil(〈ホーミング〉/2) targets."""
    return round_up_half(f.skill("ホーミング"))


def barrage_numbers(v: Variant, base_damage: int) -> tuple[int, int]:
    """G-G06 (invented default): DP減少数 = source Lv (min 1); fixed damage = Lv + 基本ダメージ."""
    return max(1, v.level), v.level + base_damage


def melee_numbers(f: Fighter) -> tuple[int, int, int]:
    """G-R17: check 身体+〈【近接武器】〉; damage ([鍛錬]Lv)D + 身体 + 〈【近接武器】〉Lv.
    Returns (判定値, damage dice, fixed damage)."""
    return (f.stat("身体") + f.skill("近接武器"), f.feat("鍛錬"), f.stat("身体") + f.skill("近接武器"))


def can_melee(f: Fighter) -> bool:
    """G-G01: melee needs a melee weapon skill and [鍛錬]."""
    return f.skill("近接武器") > 0 and f.feat("鍛錬") > 0
