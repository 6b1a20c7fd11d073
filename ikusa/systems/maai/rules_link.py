"""The single place where the combat flow calls the static maai rules.

The static rule functions belong to the maai-rules modules (options.py, grades.py,
defence.py, costs.py, breath.py, fatigue.py, damage.py, survival.py).  The flow modules never
compute a rule themselves: they call the names below.  Most are the rules modules' own
functions re-exported; each function marked ``BRIDGE`` is an interim body used until the
module owning that rule exists, and is then replaced by an import (never two implementations).
"""

from __future__ import annotations

from ikusa.systems.maai.costs import final_cost, improvised_cost
from ikusa.systems.maai.defence import DefenceBonus, compute_defence
from ikusa.systems.maai.grades import Grade, armour_vigor_penalty, base_defence, base_wounds, max_vigor
from ikusa.systems.maai.options import MaaiOptions

__all__ = [
    "DefenceBonus", "Grade", "armour_vigor_penalty", "base_defence", "base_wounds", "breath_limit", "compute_defence",
    "fatigue_penalty", "final_cost", "improvised_cost", "max_vigor", "overload_modifier", "skill_bonus",
    "survival_modifier",
]


# ---------------------------------------------------------------------------- breath
def breath_limit(extensions: dict[str, int], narrowed: int | None, opts: MaaiOptions) -> int:
    """S-R27/S-R28 (000 §3.3): 5 + extensions (one per distinct source), capped at 10;
    after a successful overload the next breath's limit is min(limit, 3) (S-G32).
    BRIDGE → breath.py."""
    b = opts.breath
    lim = min(b.absolute_cap, b.base_limit + sum(extensions.values()))
    if narrowed is None:
        return lim
    o = opts.overload
    if o.success_next_limit_mode == "absolute":
        return min(lim, o.success_next_limit_value)
    return max(1, lim + o.success_next_limit_value)


def overload_modifier(tai: int, excess: int) -> int:
    """S-R29 (000 §3.3): overload check 2d10 + 體 − excess ≥ 11 (TN: options.overload.tn).
    BRIDGE → breath.py."""
    return tai - excess


# ---------------------------------------------------------------------------- fatigue
def fatigue_penalty(attack_index: int, mitigated: bool, opts: MaaiOptions) -> int:
    """S-R66/S-R67 (000 §3.9): the k-th melee attack of a breath (k ≥ 4) takes −(k−2),
    one step milder (−(k−3)) for short weapons in 心府.  BRIDGE → fatigue.py."""
    if attack_index < opts.fatigue.start_at:
        return 0
    return -(attack_index - 3) if mitigated else -(attack_index - 2)


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


# ---------------------------------------------------------------------------- survival
def survival_modifier(tai: int, un: int) -> int:
    """S-R62 (000 §3.8): survival roll 2d10 + max(體, 運) ≥ 11.  BRIDGE → survival.py."""
    return max(tai, un)
