"""The single place where the combat flow calls the static maai rules.

The static rule functions (grades, 防備 with tags, costs, breath limit, overload, fatigue,
damage, survival) belong to the ``maai-rules`` modules (options.py, grades.py, defence.py,
costs.py, breath.py, fatigue.py, damage.py, survival.py).  The flow modules never compute a
rule themselves: they call the functions below.  Each function marked ``BRIDGE`` is an
interim body used until the rules module that owns the rule is merged; it is then replaced
by a direct call (there must never be two implementations of one rule).
"""

from __future__ import annotations

from dataclasses import dataclass

from ikusa.engine.rounding import round_half_up

# ---------------------------------------------------------------------------- grades
#: S-G03 / S-R60: 戦力 by grade ("3+體" for 主 and PC).  BRIDGE → grades.base_wounds
_WOUNDS = {"雑": 1, "卒": 1, "練": 2, "将": 3}
#: S-R44: grade base 防備.  BRIDGE → grades.base_defence
_BASE_DEF = {"雑": 8, "卒": 9}
GRADES = ("雑", "卒", "練", "将", "主", "PC")


def base_wounds(grade: str, tai: int) -> int:
    """S-R60 / S-G03 (000 §3.8, 001): 戦力 by grade; 主 and PC have 3 + 體.  BRIDGE."""
    return _WOUNDS[grade] if grade in _WOUNDS else 3 + tai


def base_defence(grade: str) -> int:
    """S-R44 (000 §3.5): grade base 防備 雑 8, 卒 9, 練/将/主/PC 10.  BRIDGE."""
    return _BASE_DEF.get(grade, 10)


# ---------------------------------------------------------------------------- armour
#: S-G04: armour additions and 活力 penalties.  BRIDGE → equipment.py
ARMOUR_BONUS = {"軽甲": 2, "重甲": 4, "重装甲": 6, "盾": 1}
_ARMOUR_VIGOR = {"重甲": 1, "重装甲": 2}


def armour_vigor_penalty(armour: list[str], tai: int) -> int:
    """S-R26 / S-G31 (000 §3.3): heavy-armour 活力 penalty offset by clamp(體, 0, penalty).
    BRIDGE."""
    pen = sum(_ARMOUR_VIGOR.get(a, 0) for a in armour)
    return pen - max(0, min(tai, pen))


def max_vigor(gi: int, penalty: int) -> int:
    """S-R24 (000 §3.3): max 活力 = 10 + 技 − armour penalty.  BRIDGE."""
    return max(0, 10 + gi - penalty)


# ---------------------------------------------------------------------------- 防備
@dataclass(slots=True)
class DefenceParts:
    """防備 parts before tags (S-R44)."""

    base: int
    armour: int
    other: int


def defence_value(parts: DefenceParts, pierce: int, direct: int, defenceless: bool, debuff: int,
                  floor: int = 2) -> int:
    """S-R44…S-R48 / S-G42 (000 §3.5, 001): base + armour + other, then [貫通 N] on the armour
    part (floor base), [直撃 N] on the other part (floor base + armour), then 無防備 −4 and
    防備 −N, global floor 2.  ``pierce``/``direct`` −1 means 全体.  BRIDGE → defence.py."""
    armour = parts.armour if pierce == 0 else (0 if pierce < 0 else max(0, parts.armour - pierce))
    other = parts.other if direct == 0 else (0 if direct < 0 else max(0, parts.other - direct))
    value = parts.base + armour + other
    if defenceless:
        value -= 4
    value -= debuff
    return max(floor, value)


# ---------------------------------------------------------------------------- costs
def final_cost(base: int, modifiers: int = 0, zero_allowed: bool = False) -> int:
    """S-R30/S-R31 (000 §3.3 コスト下限): base + modifiers, floor 1 unless an exception
    allows 0.  BRIDGE → costs.py."""
    return max(0 if zero_allowed else 1, base + modifiers)


def improvised_cost(cost: int) -> int:
    """S-R40 / S-G34 (000 §3.4): improvised reaction = max(1, round_half_up(1.5 × cost)).
    BRIDGE → costs.improvised_cost."""
    return max(1, round_half_up(cost * 3 / 2))


# ---------------------------------------------------------------------------- breath
BASE_LIMIT = 5
ABSOLUTE_CAP = 10
OVERLOAD_TN = 11


def breath_limit(extensions: dict[str, int], narrowed: int | None) -> int:
    """S-R27/S-R28 (000 §3.3): 5 + extensions (one per distinct source), capped at 10;
    after a successful overload the next breath's limit is min(limit, 3) (S-G32).  BRIDGE."""
    lim = min(ABSOLUTE_CAP, BASE_LIMIT + sum(extensions.values()))
    return min(lim, narrowed) if narrowed is not None else lim


def overload_modifier(tai: int, excess: int) -> int:
    """S-R29 (000 §3.3): overload check 2d10 + 體 − excess ≥ 11.  BRIDGE."""
    return tai - excess


# ---------------------------------------------------------------------------- fatigue
def fatigue_penalty(attack_index: int, mitigated: bool) -> int:
    """S-R66/S-R67 (000 §3.9): the k-th melee attack of a breath (k ≥ 4) takes −(k−2),
    one step milder (−(k−3)) for short weapons in 心府.  BRIDGE → fatigue.py."""
    if attack_index < 4:
        return 0
    return -(attack_index - 3) if mitigated else -(attack_index - 2)


# ---------------------------------------------------------------------------- skills
#: S-G10 proficiency tiers.  BRIDGE → grades.py / options
TIER_BONUS = {"untrained": -2, "未修得": -2, "入門": 0, "習得": 1, "免許": 2, "名人": 3, "聖人": 3}
SAINT = "聖人"


def skill_bonus(tier: str | int | None) -> int:
    """S-R04 / S-G10: proficiency bonus of a tier (an int is taken as the bonus)."""
    if tier is None:
        return TIER_BONUS["untrained"]
    if isinstance(tier, int):
        return tier
    return TIER_BONUS[tier]


# ---------------------------------------------------------------------------- survival
SURVIVAL_TN = 11


def survival_modifier(tai: int, un: int) -> int:
    """S-R62 (000 §3.8): survival roll 2d10 + max(體, 運) ≥ 11.  BRIDGE → survival.py."""
    return max(tai, un)
