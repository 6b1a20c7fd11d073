"""The options the combat flow reads on its hot path, as plain values (issue #12).

:class:`~ikusa.systems.maai.options.MaaiOptions` is a frozen pydantic model: every
``opts.group.field`` read from compiled code is two generic attribute lookups through
pydantic's ``__getattr__`` hook.  Options never change during a battle (GM rulings do not
reassign them), so each encounter snapshots the ones read per attack, breath or count once
(:class:`~ikusa.systems.maai.flow_base.EncounterCaches`, ``state.rules``) into this native
class.  Each field is named after its option (``group_field``); a test of a fixed value is a
bool named after what it asks.  The options object stays the source of truth for everything
else (rules_link's functions, texts, rare paths).
"""

from __future__ import annotations

from ikusa.systems.maai.options import MaaiOptions

#: the default ``count.tie_order`` (S-R35/S-G49): count_ties' fast path
DEFAULT_TIE_ORDER = ("tech", "pc_side", "allied_npc", "enemy")


class RulesSnapshot:
    """One encounter's hot-path options, read once from ``opts`` (and the encounter's round cap)."""

    def __init__(self, opts: MaaiOptions, max_maai: int) -> None:
        #: (invented) the encounter's round cap: after this many 間合 the battle is a draw
        self.max_maai: int = max_maai
        fate = opts.fate
        #: S-G27: fate uses on one roll
        self.fate_max_uses_per_roll: int = fate.max_uses_per_roll
        #: S-G51: a target about to fall may move a die of the attack roll
        self.fate_lethal_exception: bool = fate.lethal_exception
        count = opts.count
        #: S-G21: a passing unit keeps its 活力
        self.count_pass_keeps_vigor: bool = count.pass_keeps_vigor
        #: S-R35/S-G49: ``count.tie_order`` is the default order
        self.count_default_tie_order: bool = tuple(count.tie_order) == DEFAULT_TIE_ORDER
        #: S-G49: ``count.same_side_ties == "encounter_order"`` (no tie question)
        self.count_ties_encounter_order: bool = count.same_side_ties == "encounter_order"
        surprise = opts.surprise
        #: S-R13/S-G17: 奇襲 bonus on the first attack roll
        self.surprise_bonus: int = surprise.bonus
        #: S-G17: ``surprise.enhanced_defenseless_timing == "on_declare"`` / ``"after_resolution"``
        self.surprise_defenceless_on_declare: bool = surprise.enhanced_defenseless_timing == "on_declare"
        self.surprise_defenceless_after: bool = surprise.enhanced_defenseless_timing == "after_resolution"
        counter = opts.counter
        #: S-G38 alt: ``counter.issen_triggers == "any_melee"`` (a counter also answers a miss)
        self.counter_issen_any_melee: bool = counter.issen_triggers == "any_melee"
        #: S-G38: counters against ranged attacks
        self.counter_vs_ranged: bool = counter.vs_ranged
        #: S-G39: ``counter.tanpaku_bonus_applies_to`` (``"defense_roll"`` or ``"defense_value"``)
        self.counter_tanpaku_bonus_applies_to: str = counter.tanpaku_bonus_applies_to
        doubles = opts.doubles
        #: S-G28: 失着 (→ 無防備) applies to attack / defence / counter checks (``doubles.fumble_checks``)
        self.doubles_fumble_attack: bool = "attack" in doubles.fumble_checks
        self.doubles_fumble_defense: bool = "defense" in doubles.fumble_checks
        self.doubles_fumble_counter: bool = "counter" in doubles.fumble_checks
        #: S-G28: 天命/業報 d100 tables on attack / counter checks (``doubles.table_checks``)
        self.doubles_table_attack: bool = "attack" in doubles.table_checks
        self.doubles_table_counter: bool = "counter" in doubles.table_checks
        #: S-R66/S-G46: the k-th melee attack from which 連撃疲労 applies
        self.fatigue_start_at: int = opts.fatigue.start_at
        #: S-R28: the official breath limit cap
        self.breath_official_cap: int = opts.breath.official_cap
        #: S-G52 alt: no breath beyond limit + N (None: no such bound)
        self.breath_max_over_limit: int | None = opts.breath.max_over_limit
        #: S-G33 alt: 活力 may go below 0
        self.vigor_allow_overspend: bool = opts.vigor.allow_overspend
        #: S-G20 alt: ``ranged.gun_reload == "maneuver"`` (reload in a breath)
        self.ranged_gun_reload_maneuver: bool = opts.ranged.gun_reload == "maneuver"
        #: S-G35: the same defence may be reserved twice
        self.reservations_allow_duplicates: bool = opts.reservations.allow_duplicates
        #: S-G14: squad formation 防備
        self.squad_formation_bonus: int = opts.squad.formation_bonus
        #: S-R58: releasing a stance costs this
        self.stances_release_cost: int = opts.stances.release_cost
        #: S-G07: ``tables.headless_mode == "gm"`` (the GM picks a d100 table's result)
        self.tables_headless_gm: bool = opts.tables.headless_mode == "gm"
        #: S-G07 alt: the 小康 environment/ambush table is rolled
        self.tables_ambush_encounter: bool = opts.tables.ambush_encounter
        #: S-G19: ``status.bleed != "none"`` (出血 applies)
        self.status_bleed: bool = opts.status.bleed != "none"
        #: S-G15: ``zones.pass_through_selection == "random"``
        self.zones_pass_through_random: bool = opts.zones.pass_through_selection == "random"
        #: S-G24: 式神/傀儡 fall with their caster
        self.puppets_fall_with_caster: bool = opts.puppets.fall_with_caster
        #: S-G32: a successful overload's narrowing carries to the next 間合
        self.overload_carry_over: bool = opts.overload.carry_over
        #: S-R29: the overload TN
        self.overload_tn: int = opts.overload.tn
        #: S-G60 alt: ``defenseless.blocks == "all_defenses"`` (無防備 blocks every defence)
        self.defenseless_blocks_all: bool = opts.defenseless.blocks == "all_defenses"
        #: S-G41: 無防備 voids the reservations held
        self.defenseless_voids_reservations: bool = opts.defenseless.voids_reservations
        #: S-R62: the survival TN
        self.death_tn: int = opts.death.tn
