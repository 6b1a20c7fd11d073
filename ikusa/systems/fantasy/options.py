"""Ruleset options of the fantasy system (002): one field per gap default (F-G01…F-G17)
and per host item the engine had to decide (F-H01…F-H12).

Every default is the one ANALYSIS Part 2 ships; fields marked *(invented)* have no basis
in the text beyond plausibility and exist so that a GM can change them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

#: What 002 leaves to the host or the GM with no numbers, and the default the engine ships.
#: Printed by ``ikusa rules fantasy unimplemented`` (every other gap is an option below).
NOT_IMPLEMENTED: tuple[tuple[str, str], ...] = (
    ("F-R06", "other location restrictions are the GM's (002 gives three examples): GM rulings and effects; "
              "battlefields.yaml holds the examples (narrow room, corridor, cliff ledge, open ground)"),
    ("F-R17", "'水深、水の暗さによっては暗闇と同様のペナルティ': nothing automatic; the GM gives 暗闇/視界不良 "
              "(cause: water) in the encounter or by a condition ruling"),
    ("F-G17", "fall damage is host data 002 does not give: none is applied; options.fall_removes decides "
              "whether the fallen character leaves the battle"),
    ("F-H08", "lines of fire beyond the cliff's (F-R09) are not in 002: options.line_of_fire 'open' (default) "
              "or 'screened' (invented: the back row behind a held front needs 射線の確保)"),
    ("F-H09", "the size of an opportunity attack by headcount is host data: each able enemy in the engagement "
              "area makes one melee attack (invented)"),
    ("F-H11", "「呼吸を整える」 has no effect in 002 beyond F-R18: options.breathe_fatigue_dice 0 (default: "
              "refused, naming F-H11); ≥ 1 = the invented host default (the turn, ND fatigue recovered)"),
    ("F-H05", "weapon ranges, ammunition and spell reach are host data: WeaponSpec.range_m/ammo and "
              "SpellSpec.range_m in the encounter (unset ammo/reach = not counted)"),
)


class FantasyOptions(BaseModel):
    """The ruleset knobs.  An encounter may override any of them under ``options:``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # -- host check model (F-H01, F-H02) ------------------------------------------------
    dice_count: int = Field(2, ge=1, le=6, description="F-H02: base check dice, 2D6 (TN 12 scale).")
    die_sides: int = Field(6, ge=2, le=20, description="F-G15/F-H02: '1D' is a d6 (dice.D = 6).")
    auto_failure: Literal["all_ones", "none"] = Field(
        "all_ones", description="F-G04: 自動失敗 = every base die shows 1 (1,1 on 2D6); 'none' disables it.")
    auto_success: Literal["all_max", "none"] = Field(
        "all_max", description="F-G04: 自動成功 = every base die shows its maximum (6,6 on 2D6).")
    success_at_tn: bool = Field(
        True, description="F-G05: a check succeeds when 達成値 ≥ 目標値 (ties succeed).")
    evasion_tie: Literal["defender", "attacker"] = Field(
        "defender", description="F-H04 (invented): 回避 succeeds when its 達成値 ≥ the hit 達成値.")

    # -- surprise (F-G01…F-G03) --------------------------------------------------------------
    surprise_tie: Literal["observer", "hider"] = Field(
        "observer", description="F-G02: a tie between detection and stealth 達成値 favours the observer.")
    surprise_until_first_turn: bool = Field(
        True, description="F-G01: the surprise penalty (回避・ST −2, no opportunity attacks) lasts until the "
        "character's first turn begins, also in round 2; False = it ends with round 1.")
    surprise_round: Literal[False] = Field(
        False, description="F-G03: no separate surprise round; every non-surprised character acts in round 1 "
        "(the only model implemented); the surprised only choose their place in the formation (F-R04).")
    aware_if_any_detected: bool = Field(
        True, description="F-G02 (invented): an observer who detects at least one hiding unit is not surprised.")

    # -- conditions (F-G06…F-G12) ------------------------------------------------------------
    paralysis_allow_mental: Literal[False] = Field(
        False, description="F-G06: a paralysed character takes no action at all (status.paralysis.allow_mental; "
        "the host has no purely mental actions, so this is the only model).")
    sleep_wake_by_ally: bool = Field(
        True, description="F-G07 (invented): an adjacent ally may spend one action to wake a sleeper.")
    stand_cost: int = Field(1, ge=0, le=4, description="F-G08: 「立ち上がる」 costs one action (prone.stand_cost).")
    vision_model: Literal["per_perceiver"] = Field(
        "per_perceiver", description="F-G09: 暗闇/視界不良 belong to the perceiver (vision.model).")
    area_spell_penalty_target: Literal["magic_strength"] = Field(
        "magic_strength", description="F-G10: 視界不良's area-spell penalty modifies 魔法強度.")
    stacking: Literal["additive_grouped"] = Field(
        "additive_grouped",
        description="F-G11: different conditions add; 暗闇/視界不良 take the worse; 水中 replaces 水場; "
        "the same condition twice keeps the longer duration (status.stacking).")
    stun_no_actions: Literal[True] = Field(
        True, description="F-G12: 朦朧 = no action on its own turn; only reactive evasion/ST at −2; "
        "an ally in the same unit may lead it by the hand to the back row with its own 移動 (lead:<ally>).")

    # -- action economy (F-G13, F-H07) -------------------------------------------------------
    actions_per_turn: int = Field(2, ge=1, le=6, description="F-H07 (invented): actions per turn.")
    cost_move: int = Field(1, ge=0, description="F-G13 (invented host data): 移動 (change row) needs 1 action.")
    cost_line_of_fire: int = Field(
        1, ge=0, description="F-G13 (invented host data): 射線の確保 needs 1 action (×2 in 水場/水中, F-R16/F-R17); "
        "offered only while line_of_fire is 'screened' and a target is screened.")
    cost_cover: int = Field(1, ge=0, description="F-G13 (invented host data): 遮蔽を取る needs 1 action.")
    cost_run: int = Field(
        2, ge=0, description="F-G13 (invented host data): 全力移動 needs 2 actions (×2 in 水場/水中): a front-row "
        "character runs straight to its unit's other front (fore ↔ rear, where the battlefield has two fronts, "
        "F-R08), drawing opportunity attacks as a withdrawal does; an ordinary 移動 must pass the back row.")
    line_of_fire: Literal["open", "screened"] = Field(
        "open", description="F-H08/F-R09 射線: 'open' = only the cliff's rule blocks lines of fire (F-R09: back "
        "row → enemy back row); 'screened' (invented) = a ranged attack or single-target spell at an enemy in "
        "the back row is also blocked while that unit holds its front, until the shooter takes 射線の確保 "
        "(cost_line_of_fire; it holds until the shooter moves). On the cliff 射線の確保 does not help (F-R09).")
    breathe_fatigue_dice: int = Field(
        0, ge=0, le=6, description="F-H11/F-R18 (invented host default) 「呼吸を整える」: 0 = not an action (002 "
        "gives it no effect). N ≥ 1 = the whole turn (actions_per_turn actions) recovers ND fatigue (疲労) and as "
        "much HP lost to it; never underwater (F-R18), and only once the character is out of the water, "
        "since drowning fatigue cannot be recovered before (水から出て休憩しない限り回復不可).")
    cost_attack: int = Field(2, ge=1, description="F-H05 (invented): an attack or ≪足払い≫ uses 2 actions.")
    cost_cast: int = Field(2, ge=1, description="F-H06 (invented): casting a spell uses 2 actions.")
    cost_wake: int = Field(1, ge=0, description="F-G07 (invented): waking an adjacent sleeper uses 1 action.")
    move_distance: int = Field(
        10, ge=1, description="F-G13 (invented): one 移動 covers 10 m (F-T16; 水中 ½).  Shown in the move "
        "options only: positions are rows/fronts, so the engine applies no distance from it.")

    # -- water (F-G14, F-G15) ----------------------------------------------------------------
    falloff_step_m: int = Field(5, ge=1, description="F-G14: thrown falloff per full 5 m of distance, floored at 0.")
    free_rounds_stat: Literal["body"] = Field(
        "body", description="F-G15: rounds without air before drowning fatigue = 肉体値 (underwater.free_rounds).")

    # -- formation (F-G16, F-G17, F-H08, F-H09) ------------------------------------------------
    width_per_fighter: float = Field(
        1.5, gt=0, description="F-G16: a melee fighter needs 1.5 m; front cap = floor(width / 1.5), min 1.")
    pincer_bonus: int = Field(1, description="F-R08/F-G16: attacks against a pincered unit +1 (melee and ranged).")
    front_min_valid: int = Field(
        1, ge=1, description="F-H08 (invented): a front is held while ≥ 1 valid (not 朦朧/麻痺/睡眠) member stands.")
    fall_removes: bool = Field(
        True, description="F-G17: a character who falls off the cliff leaves the battle; False = the fall is "
        "only narrated (the GM rules on it) and the character stays, 伏せ.")

    # -- termination ----------------------------------------------------------------------------
    round_cap: int = Field(
        30, ge=1, le=1000,
        description="(invented) a battle still undecided after this many rounds ends as a draw (winner None).")
