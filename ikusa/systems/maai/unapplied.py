"""maai options the engine does not apply (issue #13: no option is accepted and then ignored).

Each is kept as a documented option with its default (the ANALYSIS reading), but any other
value is refused when an encounter or ``--set`` gives it, naming the option and why: a
setting that silently did nothing was worse than a refusal.  When a later change applies one
(fear, status conditions and 防備 debuffs are the effect mechanism's, #8), it removes its entry
here and a witness proves the option changes something (tests/systems/test_options_apply.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ikusa.engine.errors import InputError

#: (group, key) → why only the default is accepted
UNAPPLIED: dict[tuple[str, str], str] = {
    ("check", "tn_ladder"): "S-G01: GM-set TNs; the combat flow sets no free TN and the dice bot takes the TN "
    "from the command",
    ("check", "standard_tn"): "S-R05/S-G01: the combat flow's TNs are the options of each check (overload.tn, "
    "death.tn …); the dice bot takes the TN from the command",
    ("check", "warn_even_tn"): "S-G01: the dice bot always notes an even TN (extra.warnings)",
    ("fate", "d100_tables"): "S-G27: fate applies to 2d10 checks only; the d100 tables have no fate step",
    ("defense", "armor_bonus"): "S-G04: each armour's 防備 comes from the catalog (docs/maai-catalog.md); edit "
    "the armour there or under homebrew:",
    ("defense", "shield_bonus"): "S-G04/S-R44: the shield's bonus comes from the catalog; edit it there",
    ("defense", "max_per_attack"): "S-G35: the flow offers one defensive technique per incoming attack",
    ("break", "requires_hit"): "S-G45: the flow applies [破壊] only to a hit (a miss or a nullified hit breaks "
    "nothing)",
    ("spirit", "ignores_defense_debuffs"): "S-G26: the [霊体] TN never reads 防備, so 無防備 and 防備 −N "
    "never change it",
    ("equipment", "natural_armor_grade"): "S-G06: 自然甲冑's grade is its catalog entry's",
    ("vigor", "reactions_count_toward_breath"): "S-G33: reactions are outside breaths",
    ("fatigue", "short_weapons"): "S-R67: a weapon is short by its catalog `short` flag (docs/maai-catalog.md)",
    ("stances", "max_maintained"): "S-R58: one [構え] at a time",
    ("status", "serious_wound_flag_only"): "S-G19: 重傷 is only flagged",
    ("death", "npc_death"): "S-G25/S-G57: other NPCs at 0 戦力 are out at once (no GM decision yet)",
    ("progression", "ability_step"): "S-G22: character growth happens between sessions, not in a combat",
    ("progression", "pc_ability_cap"): "S-R03/S-G22: character growth happens between sessions, not in a combat",
}


def refuse_unapplied(raw: Mapping[str, Any], parsed: Any, defaults: Any, source: str) -> None:
    """Refuse a value of an option in :data:`UNAPPLIED` other than its default (the error's
    field is ``group.key``); ``raw`` is the mapping given, ``parsed`` the options built from it."""
    for (group, key), why in UNAPPLIED.items():
        given = raw.get(group)
        if not isinstance(given, Mapping) or key not in given:
            continue
        attr = "break_" if group == "break" else group  # the model's spelling of the keyword
        default = getattr(getattr(defaults, attr), key)
        if getattr(getattr(parsed, attr), key) != default:
            raise InputError(f"the engine does not apply other values ({why}); only the default {default!r} is "
                             "accepted", source=source, field=f"{group}.{key}")
