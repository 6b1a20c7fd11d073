"""The single place where the combat flow calls the static maai rules.

The static rule functions belong to the maai-rules modules (options.py, grades.py,
defence.py, costs.py, breath.py, fatigue.py, damage.py, survival.py).  The flow modules never
compute a rule themselves: they call the names below, the rules modules' own functions
re-exported (plus two thin adapters).
"""

from __future__ import annotations

from ikusa.systems.maai.breath import breath_limit as _breath_limit
from ikusa.systems.maai.breath import overload_check, overload_excess
from ikusa.systems.maai.check import Outcome
from ikusa.systems.maai.costs import check_zero_vigor_use, final_cost, fumble_extra_modifier, improvised_cost
from ikusa.systems.maai.damage import Damage, apply_wounds, emergency_evasion
from ikusa.systems.maai.damage import hit_damage as _hit_damage
from ikusa.systems.maai.defence import DefenceBonus, compute_defence
from ikusa.systems.maai.fatigue import fatigue_penalty
from ikusa.systems.maai.grades import Grade, armour_vigor_penalty, base_defence, base_wounds, max_vigor
from ikusa.systems.maai.options import CheckKind, MaaiOptions
from ikusa.systems.maai.survival import survival_check

__all__ = [
    "DefenceBonus", "Grade", "apply_wounds", "armour_vigor_penalty", "base_defence", "base_wounds", "breath_limit",
    "check_zero_vigor_use", "compute_defence", "emergency_evasion", "fatigue_penalty", "final_cost",
    "fumble_extra_modifier", "hit_damage", "improvised_cost", "max_vigor", "overload_check", "overload_excess",
    "skill_bonus", "survival_check",
]


def breath_limit(extensions: dict[str, int], narrowed: bool, opts: MaaiOptions) -> int:
    """S-R27/S-R28/S-G32 (breath.breath_limit): the current limit of a breath."""
    return _breath_limit(extensions, narrowed, opts).value


def hit_damage(outcome: Outcome, damage: int = 1, crit_damage: int = 2, behind: int = 0, crit_behind: int = 0,
               kind: CheckKind = "attack", options: MaaiOptions | None = None) -> Damage:
    """S-R41/S-R43/S-R09 (damage.hit_damage); the flow keeps the results per encounter."""
    return _hit_damage(outcome, damage, crit_damage, behind, crit_behind, kind, options)


# ---------------------------------------------------------------------------- skills
def skill_bonus(tier: str | int | None, opts: MaaiOptions) -> int:
    """S-R04 / S-G10: proficiency bonus of a tier (an int is the bonus itself); no skill →
    the untrained value; 聖人 counts as 名人 here (its automatic success is not modelled)."""
    table = opts.skills.tier_bonus
    if tier is None:
        return table["未修得"]
    if isinstance(tier, int):
        return tier
    if tier == "聖人":
        return table["名人"]
    return table[tier]
