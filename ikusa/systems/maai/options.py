"""Ruleset options of maai: every gap default (S-G##) and tunable rule number as a named,
documented option (ANALYSIS S.C "Config keys").

``MaaiOptions()`` is the project's documented default ruleset.  The model is frozen; derive a
variant with ``opts.model_copy(update=...)`` or build one from a mapping with
:func:`options_from_dict` (errors name the source and the dotted field).

>>> o = MaaiOptions()
>>> o.fate.max_uses_per_roll, o.fate.lethal_exception, o.breath.base_limit, o.zero_cost.cap
(1, True, 5, 2)
>>> o.wounds.by_grade["練"], o.defense.grade_base["卒"], o.spirit.base_tn
(2, 9, 9)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

#: kinds of 2d10 check the engine distinguishes (S-G28)
CheckKind = Literal[
    "attack", "counter", "defense", "overload", "breakthrough", "shinpu_exit", "survival", "fear", "generic"
]


class _Group(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


#: every unit grade (S-R44/S-G03); grade-keyed option tables must cover them all
GRADES = ("雑", "卒", "練", "将", "主", "PC")
#: outcomes the engine applies from a d100 table (S-G07; fumble.py)
TABLE_OUTCOMES = ("weapon_drop", "stance_collapse", "stance_collapse_slip", "slip", "friendly_fire",
                  "weapon_broken", "narrative", "none")


#: ability names an option may give (moves.ABILITY_KEYS): 六能力 in Japanese or romaji
ABILITY_NAMES = ("勇", "技", "體", "体", "智", "美", "運", "yu", "gi", "tai", "chi", "bi", "un")
#: 退魔 tiers (defence.TAIMA_TIERS)
TAIMA_TIER_NAMES = ("入門", "習得", "免許", "名人", "聖人")


def _one_of(value: str, allowed: tuple[str, ...], what: str) -> str:
    """An option naming an ability or a tier must name one the engine knows (#13: '勇x' was
    accepted and then ignored, an unknown 退魔 tier crashed mid-battle)."""
    if value not in allowed:
        raise ValueError(f"unknown {what} {value!r}; one of {', '.join(allowed)}")
    return value


def _covers(table: dict[str, int], keys: tuple[str, ...], what: str) -> dict[str, int]:
    """A keyed option table (by grade, armour weight) must name every key the engine looks up."""
    missing = [k for k in keys if k not in table]
    if missing:
        raise ValueError(f"no value for {', '.join(missing)} (the {what} table needs all of {', '.join(keys)})")
    return table


def _bands(bands: tuple[tuple[int, str], ...]) -> tuple[tuple[int, str], ...]:
    """S-G07: a d100 table is at least one (upper bound, outcome) band, bounds rising within 1…100,
    each outcome one the engine applies."""
    if not bands:
        raise ValueError("a d100 table needs at least one (upper bound, outcome) band")
    last = 0
    for upper, outcome in bands:
        if not last < upper <= 100:
            raise ValueError(f"band upper bounds must rise within 1…100; {upper} after {last}")
        if outcome not in TABLE_OUTCOMES:
            raise ValueError(f"unknown outcome {outcome!r}; known: {', '.join(TABLE_OUTCOMES)}")
        last = upper
    return bands


class CheckOptions(_Group):
    tn_ladder: dict[str, int] = Field(
        default_factory=lambda: {
            "容易": 5, "簡単": 7, "平易": 9, "標準": 11, "困難": 13, "至難": 15, "極難": 17, "超人的": 19,
        },
        description="S-G01: 目標値基準表 (labels invented, numbers from 000:L28; standard 11); for GM-set TNs "
        "(reference; fixed: the flow sets no free TN, other values are refused).",
    )
    standard_tn: int = Field(
        11, description="S-R05/S-G01: the standard TN (reference; fixed: other values are refused).")
    warn_even_tn: bool = Field(
        True, description="S-G01: warn (but allow) when a GM sets an even TN (the dice bot always notes it; "
        "fixed: False is refused)."
    )


class FateOptions(_Group):
    max_uses_per_roll: int = Field(1, ge=1, description="S-G27: at most this many fate uses on one roll.")
    lethal_exception: bool = Field(
        True, description="S-G51: a target about to drop to 0 戦力 may spend its own fate on the attack roll."
    )
    npcs: Literal["if_stat_listed", "all", "none"] = Field(
        "if_stat_listed", description="S-G27: which NPCs have fate uses."
    )
    d100_tables: bool = Field(
        False,
        description="S-G27: fate applies to 2d10 checks only, not d100 tables (fixed: True is refused).",
    )


class DoublesOptions(_Group):
    crit_checks: tuple[CheckKind, ...] = Field(
        ("attack", "counter"), description="S-G28: checks on which 会心 has a mechanical effect."
    )
    fumble_checks: tuple[CheckKind, ...] = Field(
        ("attack", "counter", "defense", "overload", "breakthrough", "shinpu_exit"),
        description="S-G28: checks on which 失着 (→ 無防備) applies.",
    )
    table_checks: tuple[CheckKind, ...] = Field(
        ("attack", "counter"), description="S-G28: checks on which 天命/業報 d100 tables are rolled."
    )


class SkillOptions(_Group):
    tier_bonus: dict[str, int] = Field(
        default_factory=lambda: {"未修得": -2, "入門": 0, "習得": 1, "免許": 2, "名人": 3},
        description="S-G10: proficiency tier → bonus (聖人 = automatic success, S-G23).",
    )
    saint_auto_success_scope: Literal["all", "non_opposed"] = Field(
        "all", description="S-G23: where 聖人 automatic success applies."
    )
    untrained_applies: Literal["related_skill_only", "never"] = Field(
        "related_skill_only", description="S-G30: when the untrained penalty applies."
    )


class WoundsOptions(_Group):
    by_grade: dict[str, int] = Field(
        default_factory=lambda: {"雑": 1, "卒": 1, "練": 2, "将": 3, "主": 3, "PC": 3},
        description="S-G03/S-G56: base 戦力 by grade (練 2).",
    )

    @field_validator("by_grade")
    @classmethod
    def _all_grades(cls, v: dict[str, int]) -> dict[str, int]:
        return _covers(v, GRADES, "grade")
    add_tai_grades: tuple[str, ...] = Field(
        ("主", "PC"), description="S-R60/S-G03: grades whose 戦力 is by_grade + 體 (3 + 體)."
    )


class DefenseOptions(_Group):
    grade_base: dict[str, int] = Field(
        default_factory=lambda: {"雑": 8, "卒": 9, "練": 10, "将": 10, "主": 10, "PC": 10},
        description="S-R44/S-G55: grade base 防備 (雑8 卒9 練+ 10).",
    )
    armor_bonus: dict[str, int] = Field(
        default_factory=lambda: {"なし": 0, "軽甲": 2, "重甲": 4, "重装甲": 6},
        description="S-G04: flat armour additions for every grade (reference only, fixed: each armour's "
        "bonus comes from the catalog; other values are refused).",
    )
    shield_bonus: int = Field(
        1, description="S-G04/S-R44: shield +1 (counts as armour; reference only, fixed: the catalog's "
        "shield bonus is used; other values are refused)."
    )
    armor_vigor_penalty: dict[str, int] = Field(
        default_factory=lambda: {"なし": 0, "軽甲": 0, "重甲": 1, "重装甲": 2},
        description="S-R26/S-G04: max 活力 penalty by armour weight.",
    )

    @field_validator("grade_base")
    @classmethod
    def _all_grades(cls, v: dict[str, int]) -> dict[str, int]:
        return _covers(v, GRADES, "grade")

    @field_validator("armor_vigor_penalty")
    @classmethod
    def _all_weights(cls, v: dict[str, int]) -> dict[str, int]:
        return _covers(v, ("なし", "軽甲", "重甲", "重装甲"), "armour weight")
    heavy_offset: Literal["clamp", "literal"] = Field(
        "clamp", description="S-G31: 體 offset = clamp(體, 0, penalty); 'literal' lets negative 體 add penalty."
    )
    defenseless_penalty: int = Field(4, description="S-R64: 無防備 防備 −4.")
    global_floor: int = Field(2, description="S-G42/S-R48: final 防備 never below this.")
    pierce_affects_natural_armor: bool = Field(True, description="S-G44: [貫通] applies to 自然甲冑.")
    max_per_attack: int = Field(
        1, description="S-G35: defensive techniques applicable to one incoming attack (fixed: the flow offers "
        "one; other values are refused)."
    )


class SpiritOptions(_Group):
    base_tn: int = Field(9, description="S-G05: [霊体] TN for a defender without 退魔 (+ 霊体防備).")
    novice_penalty: int = Field(2, description="S-G05: 入門/習得 退魔 raises the [霊体] TN by this.")
    immune_from_tier: str = Field("免許", description="S-G05: 退魔 tier from which [霊体] attacks fail.")

    @field_validator("immune_from_tier")
    @classmethod
    def _tier(cls, v: str) -> str:
        return _one_of(v, TAIMA_TIER_NAMES, "退魔 tier")
    noncorporeal_without_novice: Literal["auto_miss", "defense_bonus:+4"] = Field(
        "auto_miss", description="S-G05: physical attacks vs 非実体 targets (a unit with the feat 非実体) by "
        "attackers without 退魔 入門: not allowed (refused naming S-G05), or against 防備 +4; [霊体] attacks "
        "are normal."
    )
    ignores_defense_debuffs: bool = Field(
        True, description="S-G26: 無防備 and 防備 −N do not change the [霊体] TN (fixed: the [霊体] TN "
        "never reads 防備; False is refused)."
    )


class EquipmentOptions(_Group):
    grade_rank: tuple[tuple[str, ...], ...] = Field(
        (("補給", "一般"), ("名品",), ("神機",)),
        description="S-G06: equipment grade ladder, lowest first; names on one rung are equal.",
    )
    natural_armor_grade: str = Field(
        "一般", description="S-G06: grade of 自然甲冑 unless stated (fixed: the catalog's "
        "armour grade is used; other values are refused)."
    )


class RepairOptions(_Group):
    field_restores: Literal["all"] = Field("all", description="S-G09: 応急補修 restores all [破壊] loss.")
    field_uses_per_armor: int = Field(1, description="S-R50/S-G09: 応急補修 per armour until a smithy repair.")


class BreakOptions(_Group):
    requires_hit: bool = Field(True, description="S-G45: [破壊] damages equipment only on a hit (fixed: the "
                               "flow breaks nothing on a miss; False is refused).")
    order: tuple[Literal["shield", "armor"], ...] = Field(
        ("shield", "armor"), description="S-G45: which item takes the [破壊] reduction first."
    )


class TableOptions(_Group):
    headless_mode: Literal["placeholder", "gm"] = Field(
        "placeholder", description="S-G07: d100 tables: placeholder bands (headless) or ask the GM."
    )
    gouhou: tuple[tuple[int, str], ...] = Field(
        ((40, "weapon_drop"), (70, "stance_collapse_slip"), (90, "friendly_fire"), (100, "weapon_broken")),
        description="S-G07: 致命的失敗表 placeholder, (upper bound of d100 band, outcome); bands invented.",
    )
    tenmei: tuple[tuple[int, str], ...] = Field(
        ((100, "narrative"),), description="S-G07: 決定的瞬間表 placeholder (no effect beyond 会心)."
    )
    ambush_encounter: bool = Field(
        False,
        description="S-R36/S-G07: at each 小康 the GM is asked for an environment event (妖魔乱入 d100 on the "
        "missing 遭遇表, 火災・霧・崩壊; narrated only, no mechanical effect); off by default = nothing happens.",
    )

    @field_validator("gouhou", "tenmei")
    @classmethod
    def _valid_bands(cls, v: tuple[tuple[int, str], ...]) -> tuple[tuple[int, str], ...]:
        return _bands(v)

    def lookup(self, table: Literal["gouhou", "tenmei"], d100: int) -> str:
        """S-G07 placeholder mode: the outcome key for a d100 roll (1…100) on 業報
        (致命的失敗表) or 天命 (決定的瞬間表).

        >>> TableOptions().lookup("gouhou", 40), TableOptions().lookup("gouhou", 41)
        ('weapon_drop', 'stance_collapse_slip')
        """
        if not 1 <= d100 <= 100:
            raise ValueError(f"a d100 roll is 1…100, not {d100}")
        bands = self.gouhou if table == "gouhou" else self.tenmei
        for upper, outcome in bands:
            if d100 <= upper:
                return outcome
        return bands[-1][1]


class AimFocusOptions(_Group):
    cap: Literal["tech_mod", "none"] = Field("tech_mod", description="S-G08: N ≤ max(0, 技).")
    breath_limit_hard: bool = Field(
        False, description="S-G53: True reproduces the examples (N also ≤ limit − base); default soft."
    )


class BreathOptions(_Group):
    base_limit: int = Field(5, ge=0, description="S-R27: base breath limit 5 活力.")
    official_cap: int = Field(7, ge=0, description="S-R28: official balance cap (7).")
    absolute_cap: int = Field(10, ge=0, description="S-R28: absolute cap 10; excess discarded.")
    enforce_official_cap: bool = Field(
        False,
        description="S-R28: True caps the limit at official_cap unless a source is marked exceptional "
        "(降臨・怪異物・威名・scenario); default only reports it.",
    )
    max_over_limit: int | None = Field(
        None, description="S-G52: None = any excess allowed (overload); alt 5 rejects breaths > limit + 5."
    )


class OverloadOptions(_Group):
    tn: int = Field(11, description="S-R29: 2d10 + 體 − excess ≥ 11.")
    success_next_limit_mode: Literal["absolute", "relative"] = Field(
        "absolute", description="S-G32: 'absolute' → next limit min(limit, value); 'relative' → limit + value."
    )
    success_next_limit_value: int = Field(3, description="S-G32: 3 (absolute) or −2 (relative).")
    carry_over: bool = Field(True, description="S-G32: the narrowing carries to the next 間合's first breath.")


class CostOptions(_Group):
    floor: int = Field(1, description="S-R30: every maneuver costs at least 1 活力.")
    improvised_multiplier_num: int = Field(3, description="S-R40: improvised = base × 3/2, half up.")
    improvised_multiplier_den: int = Field(2, ge=1, description="S-R40: denominator of the improvised multiplier.")
    improvised_base: Literal["final_cost", "base_cost"] = Field(
        "final_cost", description="S-G34: 1.5× applies to the final modified cost ('base_cost': the base cost)."
    )


class VigorOptions(_Group):
    base_max: int = Field(10, ge=0, description="S-R24: max 活力 = 10 + 技.")
    allow_overspend: bool = Field(
        False, description="S-G33: nothing may cost more than current 活力; True lets a maneuver or improvised "
        "reaction cost more, 活力 going below 0 (the unit acts no more this 間合)."
    )
    reactions_count_toward_breath: bool = Field(
        False, description="S-G33: reactions are outside breaths (fixed: True is refused)."
    )


class ZeroCostOptions(_Group):
    cap: int = Field(2, ge=0, description="S-R59/S-G40: 0-活力 maneuvers per 間合, all sources together.")
    per_effect_default: int = Field(1, ge=0, description="S-R59/S-G40: each distinct 0-活力 effect once per 間合.")
    puppets_exempt_per_effect: bool = Field(
        True, description="S-G62: 式神/傀儡 operation exempt from the per-effect 1 (still in the cap)."
    )


class PuppetOptions(_Group):
    fall_with_caster: bool = Field(
        True,
        description="S-G24/S-G25 (invented): a 式神/傀儡 whose caster is 戦闘不能 can no longer act and leaves the "
        "battle (no survival roll); false keeps it on the field as a target.",
    )


class FatigueOptions(_Group):
    start_at: int = Field(4, description="S-R66/S-G46: the k-th melee attack (k ≥ 4) takes −(k−2).")
    mitigation_mode: Literal["always_in_shinpu", "floor_blocked_only"] = Field(
        "always_in_shinpu", description="S-G46: when short-weapon mitigation applies."
    )
    short_weapons: tuple[str, ...] = Field(
        ("短刀", "タント", "懐剣", "マキリ", "体術", "素手", "小太刀", "忍者刀"),
        description="S-R67: short weapons (棒・金剛杵 are not); reference list, fixed: the engine "
        "reads each weapon's catalog `short` flag; other values are refused.",
    )


class ShinpuOptions(_Group):
    enter_cost: int = Field(1, ge=0, description="S-G12: 踏み込み costs 1 活力 (replaces the catalog cost).")
    exit_cost: int = Field(1, ge=0, description="S-G12: 離脱 costs 1 活力 (replaces the catalog cost).")
    exit_ability: str = Field("技", description="S-G12: 離脱 check ability.")

    @field_validator("exit_ability")
    @classmethod
    def _ability(cls, v: str) -> str:
        return _one_of(v, ABILITY_NAMES, "ability")
    exit_tn: int = Field(11, description="S-G12: 離脱 check TN.")
    short_weapon_cost_delta: int = Field(-1, description="S-R32: short weapons −1 in 心府 (floored).")
    long_weapon_cost_delta: int = Field(1, description="S-R32/S-G12: long weapons +1 in 心府.")
    long_weapons: tuple[str, ...] = Field(
        ("槍", "長柄", "斬馬刀", "大弓"), description="S-G12: weapons with the 心府 penalty."
    )
    ranged: Literal["forbidden", "+1cost"] = Field("forbidden", description="S-G12: 弓/鉄砲 in 心府.")


class BreakthroughOptions(_Group):
    tn: int = Field(11, description="S-G13: 突破 TN.")
    tn_per_extra_blocker: int = Field(2, description="S-G13: +TN per extra blocking unit.")


class SquadOptions(_Group):
    cohesion_start: int = Field(3, description="S-G14: starting 結束力.")
    rout_at: int = Field(0, description="S-G14: the squad routs at this 結束力.")
    command_cost: int = Field(2, description="S-R22: 分隊命令 base cost 2.")
    command_cost_reduced: int = Field(1, description="S-R22: cost with high 智.")
    command_reduce_at_chi: int = Field(2, description="S-R22/S-G14: 智 ≥ this gives the reduced cost.")
    formation_bonus: int = Field(1, description="S-G14: squad formation 防備 (non-armour).")


class ZoneOptions(_Group):
    move_cost: int = Field(1, description="S-G15: move to an adjacent zone.")
    pass_through_selection: Literal["attacker", "random"] = Field(
        "attacker", description="S-G15: who picks 'the enemy behind' (attacker: the first listed; random: a die)."
    )


class StanceOptions(_Group):
    declare_cost: int = Field(1, description="S-G16: declaring a stance costs 1 unless its text says otherwise.")
    release_cost: int = Field(
        0, ge=0, description="S-R58: stance release is free (0 活力); another value makes it a paid maneuver."
    )
    max_maintained: int = Field(
        1, description="S-R58: one [構え] at a time (fixed: other values are refused)."
    )
    guard_counter_protects: Literal["self", "zone_allies"] = Field(
        "zone_allies",
        description="S-G16/S-G61 (invented scope): whose melee attackers the 護衛態勢 auto-counter answers: "
        "the holder's own, or also those of allies in the holder's zone.",
    )


class SurpriseOptions(_Group):
    bonus: int = Field(2, description="S-R13/S-G17: 奇襲 +2 on the first attack roll.")
    enhanced_defenseless_timing: Literal["on_declare", "after_resolution"] = Field(
        "on_declare", description="S-G17: when the 強化奇襲 target becomes 無防備."
    )


class FearOptions(_Group):
    tn: int = Field(
        11, description="S-G18: fear resistance TN of 2d10 + 勇, rolled for a fear source in the catalog "
        "(a feat with effect fear_aura, a maneuver with effect fear: maai/fear.py) or when a GM ruling calls "
        "for it (condition 恐怖>SOURCE); failure: no attacks on SOURCE."
    )
    aura_trigger: Literal["each_maai", "first_maai"] = Field(
        "each_maai", description="S-G18 (invented): an enemy of a fear_aura unit rolls as its first breath of "
        "each 間合 begins, or only in the first 間合 it faces that source."
    )
    failure_breaths: int = Field(
        1, ge=1, le=10, description="S-G18 (invented): a failed fear check forbids attacks on the source for "
        "this many of the unit's breaths (a check rolled as a breath begins counts it)."
    )
    defense_penalty: int = Field(
        0, ge=0, le=10, description="S-G18/S-G19/S-R48 (invented, 001:L131 names 恐怖 a 防備 −N state): a "
        "failed fear check also gives 防備 −N while it lasts (floor 2, S-G42); 0 = none."
    )


class StatusOptions(_Group):
    bleed: Literal["lose_1_per_round", "none"] = Field(
        "lose_1_per_round", description="S-G19: 出血 loses 1 戦力 each 間合 until bound (1 活力)."
    )
    serious_wound_flag_only: bool = Field(
        True, description="S-G19: 重傷 is only flagged (fixed: False is refused)."
    )
    poison_defense: int = Field(
        1, ge=0, le=10, description="S-G19/S-R48 (invented N): the named effect 毒 is 防備 −N until removed.")
    curse_defense: int = Field(
        1, ge=0, le=10, description="S-G19/S-G43 (001:L141 呪い虫寄生 毎間合防備 −1): the named effect 呪い is "
        "防備 −N until removed, −1 more each 間合 with debuff.per_round_cumulative.")
    bind_defense: int = Field(
        1, ge=0, le=10, description="S-G19/S-R48 (invented N): the named effect 束縛 is 防備 −N …")
    bind_maai: int = Field(
        1, ge=1, le=100, description="S-G19/S-R48 (invented, 一定時間): … for this many 間合 (1 = to the end of "
        "this 間合).")


class RangedOptions(_Group):
    default_ability: str = Field("勇", description="S-G20: ranged attack ability.")

    @field_validator("default_ability")
    @classmethod
    def _ability(cls, v: str) -> str:
        return _one_of(v, ABILITY_NAMES, "ability")
    gun_reload: Literal["lull_only", "maneuver"] = Field(
        "lull_only",
        description="S-G20: 鉄砲 reload only as a 整備 in 小康 (a fired gun cannot fire again until reloaded); "
        "'maneuver' (invented) also allows reloading in a breath at the cost floor, lifting the 1-shot-per-間合 limit.",
    )


class CountOptions(_Group):
    pass_keeps_vigor: bool = Field(True, description="S-G21: a passing unit keeps 活力 for reactions.")
    tie_order: tuple[Literal["tech", "pc_side", "allied_npc", "enemy"], ...] = Field(
        ("tech", "pc_side", "allied_npc", "enemy"),
        description="S-R35/S-G49: count tie-breakers in order: tech = higher 技; pc_side = PCs of the first side; "
        "allied_npc = NPCs of the first side; enemy = the other sides (in listed order).",
    )
    same_side_ties: Literal["choose", "encounter_order"] = Field(
        "choose",
        description="S-G49: units still tied (one side, equal 技): the controller chooses who acts (a count_tie "
        "decision; an AI picks with its seeded rng); encounter_order = the listed order.",
    )


class ReservationOptions(_Group):
    allow_duplicates: bool = Field(True, description="S-G35: the same defense may be reserved twice.")


class CounterOptions(_Group):
    issen_triggers: Literal["hit_or_nullified", "any_melee"] = Field(
        "hit_or_nullified", description="S-G38/S-G63: 一閃 trigger."
    )
    vs_ranged: bool = Field(False, description="S-G38: counters against ranged attacks.")
    tanpaku_bonus_applies_to: Literal["defense_roll", "defense_value"] = Field(
        "defense_roll",
        description="S-G39: 一刀短拍 '防備 +2' target: the defence roll, or the 防備 the attack must reach.",
    )


class DefenselessOptions(_Group):
    blocks: Literal["all_defenses", "evasion_counter_only"] = Field(
        "all_defenses", description="S-G60: defenses a 無防備 unit cannot use."
    )
    voids_reservations: bool = Field(True, description="S-G41: reservations held are voided.")


class DebuffOptions(_Group):
    per_round_cumulative: bool = Field(
        False, description="S-G43: '毎間合 防備 −1' (呪い, an effect with condition 毎間合) is constant; True "
        "makes it −1 more as each 間合 begins (floor 2, S-G42)."
    )


class RoundingOptions(_Group):
    negative: Literal["away_from_zero"] = Field("away_from_zero", description="S-G48: negative halves.")


class DeathOptions(_Group):
    tn: int = Field(11, description="S-R62: survival 2d10 + max(體, 運) ≥ 11.")
    roll_for: tuple[str, ...] = Field(("PC", "主", "将", "boss"), description="S-G25: who rolls survival.")
    npc_death: Literal["auto", "gm"] = Field(
        "auto", description="S-G25/S-G57: other NPCs at 0 are out (fixed: 'gm' is refused)."
    )
    fate_uses_reset: Literal["after_survival"] = Field("after_survival", description="S-G25: fate uses reset after "
                                                       "the survival roll (the only value).")


class ProgressionOptions(_Group):
    ability_step: int = Field(
        1, description="S-G22: +1 to one ability per even 段 (character growth, not combat; fixed: other values "
        "are refused)."
    )
    pc_ability_cap: int = Field(
        3, description="S-R03/S-G22: PC ability cap (growth, not combat; fixed: other values are refused).")


class MaaiOptions(BaseModel):
    """The whole maai ruleset (frozen).  Group names follow ANALYSIS S.C keys
    (``break`` is spelled ``break_``)."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    check: CheckOptions = Field(default_factory=CheckOptions)
    fate: FateOptions = Field(default_factory=FateOptions)
    doubles: DoublesOptions = Field(default_factory=DoublesOptions)
    skills: SkillOptions = Field(default_factory=SkillOptions)
    wounds: WoundsOptions = Field(default_factory=WoundsOptions)
    defense: DefenseOptions = Field(default_factory=DefenseOptions)
    spirit: SpiritOptions = Field(default_factory=SpiritOptions)
    equipment: EquipmentOptions = Field(default_factory=EquipmentOptions)
    repair: RepairOptions = Field(default_factory=RepairOptions)
    break_: BreakOptions = Field(default_factory=BreakOptions, alias="break")
    tables: TableOptions = Field(default_factory=TableOptions)
    aim_focus: AimFocusOptions = Field(default_factory=AimFocusOptions)
    breath: BreathOptions = Field(default_factory=BreathOptions)
    overload: OverloadOptions = Field(default_factory=OverloadOptions)
    costs: CostOptions = Field(default_factory=CostOptions)
    vigor: VigorOptions = Field(default_factory=VigorOptions)
    zero_cost: ZeroCostOptions = Field(default_factory=ZeroCostOptions)
    puppets: PuppetOptions = Field(default_factory=PuppetOptions)
    fatigue: FatigueOptions = Field(default_factory=FatigueOptions)
    shinpu: ShinpuOptions = Field(default_factory=ShinpuOptions)
    breakthrough: BreakthroughOptions = Field(default_factory=BreakthroughOptions)
    squad: SquadOptions = Field(default_factory=SquadOptions)
    zones: ZoneOptions = Field(default_factory=ZoneOptions)
    stances: StanceOptions = Field(default_factory=StanceOptions)
    surprise: SurpriseOptions = Field(default_factory=SurpriseOptions)
    fear: FearOptions = Field(default_factory=FearOptions)
    status: StatusOptions = Field(default_factory=StatusOptions)
    ranged: RangedOptions = Field(default_factory=RangedOptions)
    count: CountOptions = Field(default_factory=CountOptions)
    reservations: ReservationOptions = Field(default_factory=ReservationOptions)
    counter: CounterOptions = Field(default_factory=CounterOptions)
    defenseless: DefenselessOptions = Field(default_factory=DefenselessOptions)
    debuff: DebuffOptions = Field(default_factory=DebuffOptions)
    rounding: RoundingOptions = Field(default_factory=RoundingOptions)
    death: DeathOptions = Field(default_factory=DeathOptions)
    progression: ProgressionOptions = Field(default_factory=ProgressionOptions)


#: the documented default ruleset
DEFAULT_OPTIONS = MaaiOptions()


def or_default(options: MaaiOptions | None) -> MaaiOptions:
    """``options``, or the documented defaults when a rule function is called without any."""
    return DEFAULT_OPTIONS if options is None else options


def options_from_dict(data: Mapping[str, Any] | None, source: str = "<options>") -> MaaiOptions:
    """Build options from a (partial, nested) mapping, e.g. an encounter's ``options:`` key.
    Unknown keys and wrong types raise :class:`~ikusa.engine.errors.InputError` naming
    ``source`` and the dotted field."""
    from ikusa.engine.encounter import validation_error

    if not data:
        return DEFAULT_OPTIONS
    try:
        parsed = MaaiOptions.model_validate(dict(data))
    except ValidationError as exc:
        raise validation_error(exc, source) from None
    from ikusa.systems.maai.unapplied import refuse_unapplied

    refuse_unapplied(data, parsed, DEFAULT_OPTIONS, source)  # #13: no option accepted and then ignored
    return parsed
