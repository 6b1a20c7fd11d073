"""Ruleset options for 千幻抄 (003): one field per G-G gap default (ANALYSIS G.B, G.D).

Every default is the one ANALYSIS documents; fields marked *(invented)* have no textual
basis and are the project's choice until a rules text says otherwise.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

#: Rules of 003 (and G-G defaults) the engine does not apply, with the reason.  There is no
#: option for them: an option the engine ignored would be a silent lie.  Printed by
#: ``ikusa rules sengensyou unimplemented``.
NOT_IMPLEMENTED: tuple[tuple[str, str], ...] = (
    ("G-R02", "whether other actions can be taken at the same time is the GM's call (003:L40): no engine "
              "rule; default: one attack action per turn plus free movement (G-G05). A check without DP is the "
              "GM ruling {op: condition, name: DP不要判定} (sengensyou/status.py)"),
    ("G-G02", "'战斗系魔法在施法告一段落时…' has no mechanical effect (untranslatable, ANALYSIS G-G02)"),
    ("G-R25", "ability-based surprise and 妖力 camouflage change only what characters know (who used an "
              "ability), not numbers; default (invented): every character sees every use, resistance works "
              "normally (003:L215), nothing else is tracked"),
    ("G-R26", "unvigilant characters sharing an initiative value: default (invented): the engine orders "
              "everyone strictly (G-G04 ties), so no two act at once; surprise lasts the ambushing side's "
              "turn 1 (options surprise_*)"),
    ("G-G36", "elements (属性): 003 gives them no effect (L262-263, L298); default: a tag with no effect "
              "(not tracked)"),
    ("G-R12", "spending graze 'at any time': offered at the moments it matters (霊力 on the own action, "
              "damage boosts after the damage roll, resistance after the roll, 霊撃 against a 弾幕)"),
)


class SengensyouOptions(BaseModel):
    """The named options of the 千幻抄 combat engine (``options:`` in an encounter)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # -- DP (G-G03, G-G35) --------------------------------------------------------------
    dp_max_base: int = Field(10, ge=0, description="G-G03: DP最大値 = this + 身体 + 耐久 + 意志 (CN wiki, G.D).")
    dp_recovery_divisor: int = Field(3, ge=1, description="G-G03: DP回復数 = ceil((知性+感覚)/this).")
    dp_recovery_min: int = Field(2, ge=0, description="G-G03: DP回復数 is at least this.")
    dp_cap_recovery: bool = Field(True, description="G-G03: recovery (turn start, SC) never exceeds DP最大値.")
    dp_start: Literal["full", "recovery"] = Field(
        "full", description="G-G35 / G-R23: DP at combat start. 'full': DP最大値 (or a character's recorded "
        "'dp', kept as is); 'recovery': the DP left after the tense lead-in (a character's 'dp', 0 when not "
        "given) + DP回復数, capped at DP最大値.")
    wait_recovery_bonus: int = Field(2, description="G-R06 (003:L62): 待機 adds this to next turn's recovery.")
    # -- initiative and actions (G-G04, G-G05) -------------------------------------------
    initiative: Literal["declared_dp"] = Field(
        "declared_dp", description="G-G04: each declares DP after recovery; descending; ties 感覚 then PCs "
        "(invented tie-break). The only value.")
    ask_declarations: bool = Field(
        True, description="G-G04: ask each character for its DP declaration (a lower number delays); "
        "false = everyone declares its current DP automatically.")
    attack_actions_per_turn: int = Field(
        1, ge=1, le=1, description="G-G05: one attack action per turn (plus free movement and any number of "
        "defences). Only 1 is supported.")
    # -- attack conditions (G-G01) ------------------------------------------------------
    require_attack_skill: bool = Field(
        True, description="G-G01 condition b: 〈弾幕〉/〈ショット〉/〈ホーミング〉 Lv ≥ 1 to use that attack.")
    # -- 弾幕 (G-G06, G-G07) --------------------------------------------------------------
    barrage_dp_reduction: Literal["source_lv"] = Field(
        "source_lv", description="G-G06 (invented): DP減少数 = the bullet source Lv (min 1). The only "
        "value.")
    barrage_base_damage: int = Field(0, description="G-G06 (invented): 基本ダメージ; fixed damage = Lv + this.")
    # -- defence (G-G09, G-G16) ---------------------------------------------------------
    defence_tie: Literal["defender", "attacker"] = Field(
        "defender", description="G-G09: a defence succeeds when its 達成値 ≥ the attack's (ties to defender).")
    guard_reduction_per_lv: int = Field(2, ge=0, description="G-G16: failed guard reduces damage by this × weapon Lv.")
    focus_bonus: int = Field(5, description="G-R07: 防御専念 bonus to evasion, guard and resistance.")
    # -- homing (G-G12) -----------------------------------------------------------------
    homing_boost_repeatable: bool = Field(
        False, description="G-G12: +10 per extra 2 DP at most once per target; true = repeatable (the engine "
        "then offers up to two boosts per target).")
    # -- melee (G-G15) ------------------------------------------------------------------
    melee_approach_base: int = Field(15, description="G-G15: approach TN = this + 身体 + max(〈回避〉,〈弾幕〉).")
    # -- HP / 霊力 (G-G23) ----------------------------------------------------------------
    hp_base: int = Field(10, ge=1, description="G-G23: HP = this + 耐久 × hp_factor (CN wiki, G.D).")
    hp_factor: int = Field(4, ge=0, description="G-G23: HP係数 (4 at creation).")
    reiryoku_factor: int = Field(4, ge=0, description="G-G23: 霊力 = 意志 × this.")
    # -- spell cards (G-G24) ------------------------------------------------------------
    sc_recovery: Literal["max_lv_3", "lv_or_3"] = Field(
        "max_lv_3", description="G-G24: SC DP recovery = max(Lv, 3); alt: Lv if the card has an ability, else 3.")
    # -- resistance (G-G21) -------------------------------------------------------------
    resist_max_dice: int = Field(3, ge=1, description="G-G21/G-G33: resistance checks use at most this many dice.")
    other_max_dice: int = Field(3, ge=1, description="G-R02/G-G33: 'other' actions and spells use at most 3D.")
    # -- escape (G-G27) -----------------------------------------------------------------
    escape_track: bool = Field(
        False, description="G-R09: optional running score (+1 escaper win, −1 pursuer win). Either way the "
        "escaper rolls 知性+〈飛行〉 against the single best pursuer (G-G27) and a tie is the pursuer's "
        "(invented).")
    escape_track_target: int = Field(3, ge=1, description="G-G27 (invented): the running score needed to escape.")
    escape_track_floor: int = Field(-3, description="G-G27 (invented): the running score never goes below this.")
    # -- GM section (G-G29, G-G30, G-G32) -------------------------------------------------
    simplified: bool = Field(
        False, description="G-R30: simplified order around an NPC leader (G-G32 ties: PCs first; a leader "
        "who is down is replaced by the highest NPC DP, invented). Rows are then called 接敵機動/回避機動: "
        "回避機動 neither makes nor receives ショット/近接攻撃; the engine keeps the other row rules for them "
        "(回避機動 ≤ 接敵機動, no guarding others, 防御専念 only in 回避機動), its own reading.")
    npc_fixed_dice: bool | None = Field(
        None, description="G-R29: NPC check dice read as 3.5 per die (no roll; damage dice are still "
        "rolled); unset = on exactly when 'simplified' is on (the GM section's online shortcuts, G-R29/G-R30).")
    fixed_roll_rounding: Literal["floor", "ceil"] = Field(
        "floor", description="G-G30: rounding of dice × 3.5 (floor by default).")
    surprise_far_tn: int = Field(15, description="G-G29 (invented): GM TN for hits from 100 m or more.")
    surprise_outside_penalty: int = Field(
        5, description="G-G29 (invented): penalty to the vigilant defender's 感覚 check beyond 30 m. The check "
        "is diceless 感覚+〈感知〉 (G-R03) against the attacker's 身体+〈隠密〉 (engine's reading); a win "
        "allows evasion with at most surprise_max_dice dice.")
    surprise_unaware_penalty: int = Field(5, description="G-R24 (003:L211): evasion −5 when vigilant but unaware.")
    surprise_max_dice: int = Field(3, ge=1, description="G-R24/G-G29: the hard 3D cap of surprise cases.")
    hidden_revealed_after_attack: bool = Field(
        True, description="G-R27 (invented detail): a hidden character is revealed once it has attacked.")
    @property
    def fixed_npc_dice(self) -> bool:
        """G-R29: whether NPC checks use fixed values."""
        return self.simplified if self.npc_fixed_dice is None else self.npc_fixed_dice

    # -- scene (invented) -----------------------------------------------------------------
    gm_turn_prompt: bool = Field(
        False, description="G-R12 (invented timing): the GM is asked at each turn start whether to end the "
        "scene (graze is lost then).")
    max_turns: int = Field(30, ge=1, description="(invented) every battle ends: after this many turns the GM "
                           "ends the scene with no winner.")
