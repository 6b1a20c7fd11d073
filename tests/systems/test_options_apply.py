"""#13: no option is accepted and then ignored.

Every option of every system (enumerated from its options model, so a new option is covered
the day it is added) is either

* **refused** at any value but its default (a one-value ``Literal``, a bound, or
  :data:`ikusa.systems.maai.unapplied.UNAPPLIED`): loading an encounter with another value is
  an :class:`InputError` naming ``options.<key>``; or
* **witnessed**: :data:`WITNESS` names an encounter, a seed and another value with which the
  battle run by the greedy AI differs from the default's: its decisions (keys, costs, odds,
  labels) or its events.

:data:`NO_WITNESS_YET` lists what is neither yet; the test keeps that list honest (an entry
that is refused or witnessed must leave it)."""

from __future__ import annotations

import copy
import typing
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from ikusa.dice.source import RandomSource
from ikusa.engine.encounter import read_document, split_document
from ikusa.engine.errors import InputError
from ikusa.engine.runner import Loaded, ai_rng, policy_for, resolve_system, run_script
from ikusa.systems.fantasy.options import FantasyOptions
from ikusa.systems.maai.options import MaaiOptions
from ikusa.systems.sengensyou.options import SengensyouOptions

ROOT = Path(__file__).resolve().parents[2]
MODELS: dict[str, type[BaseModel]] = {"maai": MaaiOptions, "sengensyou": SengensyouOptions,
                                      "fantasy": FantasyOptions}
#: the example each system's refusals are checked with
REFUSAL_EXAMPLE = {"maai": "examples/maai/duel.yaml", "sengensyou": "examples/sengensyou/spellcard_duel.yaml",
                   "fantasy": "examples/fantasy/corridor_ambush.yaml"}
MAX_DECISIONS = 1500
#: the maai witness encounters of #13 (each comments what it exercises)
MW = "tests/systems/maai/data/"

#: (system, dotted option) → (other value, encounter, seed): the battle differs from the default's
WITNESS: dict[tuple[str, str], tuple[Any, str, int]] = {
    ('maai', 'fate.max_uses_per_roll'): (2, 'tests/systems/data/maai_witness.yaml', 1),
    ('maai', 'fate.lethal_exception'): (False, 'examples/maai/squad_battle.yaml', 1),
    ('maai', 'fate.npcs'): ('none', 'examples/maai/duel.yaml', 2),
    ('maai', 'doubles.crit_checks'): ([], 'examples/maai/count_example.yaml', 1),
    ('maai', 'doubles.fumble_checks'): ([], 'tests/systems/data/maai_witness.yaml', 1),
    ('maai', 'doubles.table_checks'): ([], 'tests/systems/data/maai_witness.yaml', 1),
    ('maai', 'skills.tier_bonus'): ({'未修得': -1, '入門': 1, '習得': 2, '免許': 3, '名人': 4}, 'examples/maai/count_example.yaml', 1),  # noqa: E501
    ('maai', 'skills.untrained_applies'): ('never', 'examples/maai/gaps.yaml', 2),
    ('maai', 'wounds.by_grade'): ({'雑': 2, '卒': 2, '練': 3, '将': 4, '主': 4, 'PC': 4}, 'examples/maai/count_example.yaml', 1),  # noqa: E501
    ('maai', 'wounds.add_tai_grades'): (['主'], 'examples/maai/duel.yaml', 1),
    ('maai', 'defense.grade_base'): ({'雑': 9, '卒': 10, '練': 11, '将': 11, '主': 11, 'PC': 11}, 'examples/maai/count_example.yaml', 1),  # noqa: E501
    ('maai', 'defense.armor_vigor_penalty'): ({'なし': 1, '軽甲': 1, '重甲': 2, '重装甲': 3}, 'examples/maai/duel.yaml', 1),  # noqa: E501
    ('maai', 'defense.heavy_offset'): ('literal', 'tests/systems/data/maai_witness.yaml', 1),
    ('maai', 'defense.defenseless_penalty'): (5, 'examples/maai/count_example.yaml', 1),
    ('maai', 'defense.global_floor'): (20, 'tests/systems/data/maai_witness.yaml', 1),
    ('maai', 'defense.pierce_affects_natural_armor'): (False, 'tests/systems/data/maai_witness.yaml', 1),
    ('maai', 'spirit.base_tn'): (10, 'tests/systems/data/maai_witness.yaml', 1),
    ('maai', 'tables.headless_mode'): ('gm', 'tests/systems/data/maai_witness.yaml', 1),
    ('maai', 'tables.ambush_encounter'): (True, 'tests/systems/data/maai_witness.yaml', 1),
    ('maai', 'breath.base_limit'): (6, 'examples/maai/count_example.yaml', 1),
    ('maai', 'breath.absolute_cap'): (0, 'tests/systems/data/maai_witness.yaml', 1),
    ('maai', 'breath.max_over_limit'): (True, 'tests/systems/data/maai_witness.yaml', 1),
    ('maai', 'costs.floor'): (2, 'examples/maai/duel.yaml', 1),
    ('maai', 'costs.improvised_multiplier_num'): (4, 'examples/maai/duel.yaml', 1),
    ('maai', 'costs.improvised_multiplier_den'): (3, 'examples/maai/count_example.yaml', 1),
    ('maai', 'vigor.base_max'): (11, 'examples/maai/count_example.yaml', 1),
    ('maai', 'vigor.allow_overspend'): (True, 'examples/maai/count_example.yaml', 1),
    ('maai', 'zero_cost.cap'): (3, 'examples/maai/gaps.yaml', 1),
    ('maai', 'zero_cost.per_effect_default'): (0, 'examples/maai/gaps.yaml', 1),
    ('maai', 'zero_cost.puppets_exempt_per_effect'): (False, 'examples/maai/gaps.yaml', 1),
    ('maai', 'fatigue.start_at'): (5, 'examples/maai/squad_battle.yaml', 1),
    ('maai', 'shinpu.enter_cost'): (2, 'tests/systems/data/maai_witness.yaml', 1),
    ('maai', 'squad.cohesion_start'): (4, 'examples/maai/squad_battle.yaml', 1),
    ('maai', 'zones.move_cost'): (2, 'examples/maai/gaps.yaml', 1),
    ('maai', 'stances.guard_counter_protects'): ('self', 'examples/maai/gaps.yaml', 2),
    ('maai', 'surprise.enhanced_defenseless_timing'): ('after_resolution', 'examples/maai/count_example.yaml', 1),
    ('maai', 'count.pass_keeps_vigor'): (False, 'examples/maai/count_example.yaml', 2),
    ('maai', 'count.tie_order'): ([], 'examples/maai/count_example.yaml', 1),
    ('maai', 'count.same_side_ties'): ('encounter_order', 'examples/maai/gaps.yaml', 1),
    ('maai', 'death.tn'): (12, 'examples/maai/count_example.yaml', 1),
    ('maai', 'death.roll_for'): ([], 'examples/maai/count_example.yaml', 1),
    ('maai', 'fear.tn'): (12, MW + 'fear.yaml', 1),
    ('maai', 'fear.aura_trigger'): ('first_maai', MW + 'fear.yaml', 1),
    ('maai', 'fear.failure_breaths'): (2, MW + 'fear.yaml', 2),
    ('maai', 'fear.defense_penalty'): (1, MW + 'fear.yaml', 2),
    ('maai', 'shinpu.exit_cost'): (2, MW + 'witness_shinpu.yaml', 1),
    ('maai', 'shinpu.exit_tn'): (12, MW + 'witness_shinpu.yaml', 1),
    ('maai', 'shinpu.short_weapon_cost_delta'): (1, MW + 'witness_shinpu.yaml', 1),
    ('maai', 'shinpu.long_weapon_cost_delta'): (2, MW + 'witness_shinpu.yaml', 1),
    ('maai', 'shinpu.long_weapons'): (['槍', '長柄', '斬馬刀', '大弓', '長巻'], MW + 'witness_shinpu.yaml', 1),
    ('maai', 'shinpu.ranged'): ('+1cost', MW + 'witness_shinpu.yaml', 1),
    ('maai', 'breakthrough.tn'): (12, MW + 'witness_shinpu.yaml', 1),
    ('maai', 'breakthrough.tn_per_extra_blocker'): (3, MW + 'witness_shinpu.yaml', 1),
    ('maai', 'costs.improvised_base'): ('base_cost', MW + 'witness_shinpu.yaml', 1),
    ('maai', 'fatigue.mitigation_mode'): ('floor_blocked_only', MW + 'witness_fatigue.yaml', 1),
    ('maai', 'tables.gouhou'): ([[100, 'weapon_drop']], 'tests/systems/data/maai_witness.yaml', 1),
    ('maai', 'stances.declare_cost'): (2, 'examples/maai/duel.yaml', 1),
    ('maai', 'stances.release_cost'): (1, 'examples/maai/gaps.yaml', 1),
    ('maai', 'ranged.gun_reload'): ('maneuver', 'tests/systems/data/maai_witness.yaml', 1),
    ('maai', 'squad.rout_at'): (2, MW + 'witness_squad.yaml', 1),
    ('maai', 'squad.command_cost'): (3, MW + 'witness_squad.yaml', 2),
    ('maai', 'squad.command_cost_reduced'): (2, MW + 'witness_squad.yaml', 1),
    ('maai', 'squad.command_reduce_at_chi'): (3, MW + 'witness_squad.yaml', 1),
    ('maai', 'squad.formation_bonus'): (2, MW + 'witness_squad.yaml', 1),
    ('maai', 'skills.saint_auto_success_scope'): ('non_opposed', MW + 'witness_combat.yaml', 1),
    ('maai', 'surprise.bonus'): (3, MW + 'witness_combat.yaml', 1),
    ('maai', 'status.bleed'): ('none', MW + 'witness_combat.yaml', 1),
    ('maai', 'reservations.allow_duplicates'): (False, MW + 'witness_combat.yaml', 1),
    ('maai', 'counter.tanpaku_bonus_applies_to'): ('defense_value', MW + 'witness_combat.yaml', 1),
    ('maai', 'defenseless.blocks'): ('evasion_counter_only', MW + 'witness_combat.yaml', 1),
    ('maai', 'defenseless.voids_reservations'): (False, MW + 'witness_combat.yaml', 1),
    ('maai', 'aim_focus.cap'): ('none', MW + 'witness_combat.yaml', 1),
    ('maai', 'counter.issen_triggers'): ('any_melee', MW + 'witness_counter.yaml', 1),
    ('maai', 'zones.pass_through_selection'): ('random', MW + 'witness_counter.yaml', 1),
    ('maai', 'counter.vs_ranged'): (True, MW + 'witness_ranged_counter.yaml', 1),
    ('maai', 'aim_focus.breath_limit_hard'): (True, MW + 'witness_ranged_counter.yaml', 1),
    ('maai', 'break.order'): (['armor', 'shield'], MW + 'witness_break.yaml', 1),
    ('maai', 'equipment.grade_rank'): ([['補給'], ['一般'], ['名品'], ['神機']], MW + 'witness_break.yaml', 1),
    ('maai', 'repair.field_uses_per_armor'): (0, MW + 'witness_break.yaml', 1),
    ('maai', 'spirit.novice_penalty'): (3, MW + 'witness_break.yaml', 1),
    ('maai', 'overload.tn'): (13, MW + 'witness_breath.yaml', 1),
    ('maai', 'overload.success_next_limit_mode'): ('relative', MW + 'witness_breath.yaml', 1),
    ('maai', 'overload.success_next_limit_value'): (4, MW + 'witness_breath.yaml', 1),
    ('maai', 'overload.carry_over'): (False, MW + 'witness_breath.yaml', 1),
    ('maai', 'breath.official_cap'): (8, MW + 'witness_breath.yaml', 1),
    ('maai', 'breath.enforce_official_cap'): (True, MW + 'witness_breath.yaml', 1),
    ('maai', 'puppets.fall_with_caster'): (False, MW + 'witness_puppet.yaml', 1),
    ('maai', 'status.poison_defense'): (2, MW + 'witness_conditions.yaml', 1),
    ('maai', 'status.curse_defense'): (2, MW + 'witness_conditions.yaml', 1),
    ('maai', 'status.bind_defense'): (2, MW + 'witness_conditions.yaml', 1),
    ('maai', 'status.bind_maai'): (2, MW + 'witness_conditions.yaml', 1),
    ('maai', 'debuff.per_round_cumulative'): (True, MW + 'witness_conditions.yaml', 1),
    ('maai', 'spirit.noncorporeal_without_novice'): ('defense_bonus:+4', MW + 'noncorporeal.yaml', 1),
    ('sengensyou', 'dp_max_base'): (11, 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'dp_recovery_divisor'): (4, 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'dp_recovery_min'): (5, 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'dp_cap_recovery'): (False, 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'dp_start'): ('recovery', 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'wait_recovery_bonus'): (3, 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'ask_declarations'): (False, 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'barrage_base_damage'): (1, 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'defence_tie'): ('attacker', 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'guard_reduction_per_lv'): (3, 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'focus_bonus'): (6, 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'homing_boost_repeatable'): (True, 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'melee_approach_base'): (16, 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'hp_base'): (11, 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'hp_factor'): (5, 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'reiryoku_factor'): (0, 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'other_max_dice'): (4, 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'simplified'): (True, 'tests/systems/data/sengensyou_witness.yaml', 1),
    ('sengensyou', 'surprise_outside_penalty'): (0, 'tests/systems/data/sengensyou_witness.yaml', 1),
    ('sengensyou', 'surprise_unaware_penalty'): (6, 'tests/systems/data/sengensyou_witness.yaml', 1),
    ('sengensyou', 'surprise_max_dice'): (4, 'tests/systems/data/sengensyou_witness.yaml', 1),
    ('sengensyou', 'gm_turn_prompt'): (True, 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'max_turns'): (1, 'examples/sengensyou/party_battle.yaml', 1),
    ('sengensyou', 'require_attack_skill'): (False, 'tests/systems/data/sengensyou_witness_gaps.yaml', 1),
    ('sengensyou', 'sc_recovery'): ('lv_or_3', 'tests/systems/data/sengensyou_witness_gaps.yaml', 1),
    ('sengensyou', 'resist_max_dice'): (2, 'tests/systems/data/sengensyou_witness_gaps.yaml', 1),
    ('sengensyou', 'fixed_roll_rounding'): ('ceil', 'tests/systems/data/sengensyou_witness_gaps.yaml', 1),
    ('sengensyou', 'surprise_far_tn'): (16, 'tests/systems/data/sengensyou_witness_gaps.yaml', 1),
    ('sengensyou', 'hidden_revealed_after_attack'): (False, 'tests/systems/data/sengensyou_witness_gaps.yaml', 1),
    ('sengensyou', 'escape_track'): (False, 'tests/systems/data/sengensyou_witness_escape.yaml', 1),
    ('sengensyou', 'escape_track_target'): (4, 'tests/systems/data/sengensyou_witness_escape.yaml', 1),
    ('sengensyou', 'escape_track_floor'): (0, 'tests/systems/data/sengensyou_witness_escape.yaml', 1),
    ('fantasy', 'dice_count'): (3, 'examples/fantasy/cliff_ledge.yaml', 1),
    ('fantasy', 'die_sides'): (7, 'examples/fantasy/cliff_ledge.yaml', 1),
    ('fantasy', 'auto_failure'): ('none', 'examples/fantasy/cliff_ledge.yaml', 1),
    ('fantasy', 'auto_success'): ('none', 'examples/fantasy/cliff_ledge.yaml', 2),
    ('fantasy', 'success_at_tn'): (False, 'examples/fantasy/cliff_ledge.yaml', 2),
    ('fantasy', 'evasion_tie'): ('attacker', 'examples/fantasy/cliff_ledge.yaml', 2),
    ('fantasy', 'surprise_tie'): ('hider', 'examples/fantasy/corridor_ambush.yaml', 1),
    ('fantasy', 'surprise_until_first_turn'): (False, 'examples/fantasy/corridor_ambush.yaml', 1),
    ('fantasy', 'aware_if_any_detected'): (False, 'examples/fantasy/corridor_ambush.yaml', 2),
    ('fantasy', 'stand_cost'): (2, 'examples/fantasy/cliff_ledge.yaml', 2),
    ('fantasy', 'actions_per_turn'): (3, 'examples/fantasy/cliff_ledge.yaml', 1),
    ('fantasy', 'cost_move'): (2, 'examples/fantasy/cliff_ledge.yaml', 2),
    ('fantasy', 'cost_cover'): (2, 'examples/fantasy/cliff_ledge.yaml', 1),
    ('fantasy', 'cost_attack'): (3, 'examples/fantasy/cliff_ledge.yaml', 1),
    ('fantasy', 'cost_cast'): (3, 'examples/fantasy/cliff_ledge.yaml', 1),
    ('fantasy', 'falloff_step_m'): (8, 'examples/fantasy/water_fight.yaml', 1),
    ('fantasy', 'width_per_fighter'): (0.75, 'examples/fantasy/cliff_ledge.yaml', 1),
    ('fantasy', 'front_min_valid'): (4, 'examples/fantasy/corridor_ambush.yaml', 1),
    ('fantasy', 'fall_removes'): (False, 'examples/fantasy/cliff_ledge.yaml', 1),
    ('fantasy', 'round_cap'): (1, 'examples/fantasy/cliff_ledge.yaml', 1),
    ('fantasy', 'sleep_wake_by_ally'): (False, 'tests/systems/data/fantasy_witness.yaml', 4),
    ('fantasy', 'cost_wake'): (2, 'tests/systems/data/fantasy_witness.yaml', 4),
    ('fantasy', 'pincer_bonus'): (2, 'tests/systems/data/fantasy_witness.yaml', 1),
    ('fantasy', 'move_distance'): (11, 'examples/fantasy/cliff_ledge.yaml', 1),
    ('fantasy', 'cost_run'): (3, 'examples/fantasy/corridor_ambush.yaml', 1),
    ('fantasy', 'line_of_fire'): ('open', 'tests/systems/data/fantasy_witness_lines.yaml', 1),
    ('fantasy', 'cost_line_of_fire'): (2, 'tests/systems/data/fantasy_witness_lines.yaml', 1),
    ('fantasy', 'breathe_fatigue_dice'): (1, 'tests/systems/data/fantasy_witness_breath.yaml', 1),
}

#: applied options with no witness battle yet: none since #13 (an option added later without one goes here)
NO_WITNESS_YET: set[tuple[str, str]] = {
}


def leaves(model: BaseModel, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any, Any]]:
    out: list[tuple[tuple[str, ...], Any, Any]] = []
    for name, f in type(model).model_fields.items():
        v = getattr(model, name)
        key = f.alias or name
        if isinstance(v, BaseModel):
            out.extend(leaves(v, (*prefix, key)))
        else:
            out.append(((*prefix, key), v, f.annotation))
    return out


def alternates(v: Any, ann: Any) -> list[Any]:
    """Values other than the default ``v`` to try (a junk string for a one-value Literal)."""
    if isinstance(v, bool):
        return [not v]
    if isinstance(v, int):
        return [v + 1, v - 1, 0]
    if isinstance(v, float):
        return [v * 2]
    if isinstance(v, str):
        return [a for a in typing.get_args(ann) if isinstance(a, str) and a != v] or [v + "_other"]
    if isinstance(v, dict):
        return [{k: (x + 1 if isinstance(x, int) else x) for k, x in v.items()}]
    if isinstance(v, tuple):
        return [list(v[:-1])] if v else [["attack"]]
    if v is None:
        return [3]
    return ["_other"]


ALL = [(sid, ".".join(path), v, ann) for sid, m in MODELS.items() for path, v, ann in leaves(m())]


def _with_option(doc: dict[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(doc)
    node = data.setdefault("options", {}) or {}
    data["options"] = node
    *head, last = dotted.split(".")
    for k in head:
        node = node.setdefault(k, {})
    node[last] = value
    return data


def _load(data: dict[str, Any], src: str) -> Loaded:
    doc = split_document(copy.deepcopy(data), src)
    mod = resolve_system(doc)
    return Loaded(doc, mod, mod.encounter_from_dict(doc.body, src))


def refused(sid: str, dotted: str, v: Any, ann: Any) -> bool:
    src = str(ROOT / REFUSAL_EXAMPLE[sid])
    base = read_document(src)
    for alt in alternates(v, ann):
        try:
            _load(_with_option(base, dotted, alt), src)
        except InputError as exc:
            if exc.field.startswith("options"):
                continue  # refused, naming the option
            # accepted, but the encounter needs more for it (simplified → a leader): not refused
        return False
    return True


def battle(data: dict[str, Any], src: str, seed: int) -> str:
    """Decisions (actor, kind, each option's key/cost/odds/label) and events of a greedy battle."""
    loaded = _load(data, src)
    combat = loaded.new_combat()
    dice = RandomSource(seed)
    rng = ai_rng(seed)
    policy = policy_for(loaded.module, "greedy")
    run_script(combat, loaded, dice)
    seen: list[object] = []
    for _ in range(MAX_DECISIONS):
        d = combat.pending()
        if d is None:
            break
        seen.append((d.actor, d.kind, [(o.key, o.cost, o.odds, o.label) for o in d.options]))
        combat.push(policy.choose(combat.state, d, rng), dice)
    seen.extend((e.kind, e.rule, e.text) for e in combat.events)
    return repr(seen)


@cache
def default_battle(path: str, seed: int) -> str:
    return battle(read_document(ROOT / path), str(ROOT / path), seed)


@pytest.mark.parametrize(("sid", "dotted", "v", "ann"), ALL, ids=[f"{s}:{d}" for s, d, _, _ in ALL])
def test_every_option_is_refused_or_witnessed(sid: str, dotted: str, v: Any, ann: Any) -> None:
    is_refused = refused(sid, dotted, v, ann)
    key = (sid, dotted)
    if is_refused:
        assert key not in WITNESS and key not in NO_WITNESS_YET, f"{key} is refused: drop it from the lists"
    else:
        assert key in WITNESS or key in NO_WITNESS_YET, (
            f"options.{dotted} ({sid}) is accepted at other values but nothing shows it changes anything: "
            "add a witness or refuse other values")
        assert not (key in WITNESS and key in NO_WITNESS_YET)


@pytest.mark.parametrize("key", sorted(WITNESS), ids=[f"{s}:{d}" for s, d in sorted(WITNESS)])
def test_witness_changes_the_battle(key: tuple[str, str]) -> None:
    _sid, dotted = key
    alt, path, seed = WITNESS[key]
    src = str(ROOT / path)
    changed = battle(_with_option(read_document(src), dotted, alt), src, seed)
    assert changed != default_battle(path, seed), f"options.{dotted}={alt!r} changed nothing in {path} seed {seed}"


def test_unapplied_maai_option_is_refused_naming_it() -> None:
    from ikusa.engine.runner import load_encounter

    src = ROOT / REFUSAL_EXAMPLE["maai"]
    data = _with_option(read_document(src), "fate.d100_tables", True)
    with pytest.raises(InputError) as err:
        _load(data, str(src))
    assert err.value.field == "options.fate.d100_tables" and "S-G27" in str(err.value)
    load_encounter(src)  # the default still loads
