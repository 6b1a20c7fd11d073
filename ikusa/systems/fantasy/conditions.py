"""Status conditions and environments of 002 as data (``data/conditions.yaml``), and how
several of them combine on one character (F-G11 stacking).

Each :class:`ConditionDef` carries its exact effects: check modifiers by tag, capability
flags (can act / evade / melee, counts for the front line, opportunity attacks), checks
it forbids, action-cost multipliers, weapon limits and its end triggers.  The engine
reads nothing about a condition from anywhere else, and ``ikusa rules`` prints it from
the same objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ikusa.systems.fantasy.data_files import load_definitions

#: sensory causes a 暗闇/視界不良 may have (F-G09, F-R13, F-R14)
CAUSES = ("light", "physical", "fog", "sandstorm", "water")


class Modifier(BaseModel):
    """A signed modifier to every check carrying one of ``applies_to`` (check tags)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    applies_to: tuple[str, ...]
    value: int
    note: str = ""


class Negation(BaseModel):
    """A racial sense that cancels the condition when its cause is one of ``causes``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    sense: str
    causes: tuple[str, ...]


class WeaponLimits(BaseModel):
    """水中's weapon restrictions (F-R17, F-G14)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    melee_allowed: tuple[str, ...] | None = None
    ranged_forbidden: tuple[str, ...] = ()
    thrown_slender_only: bool = False
    thrown_range_factor: float = 1.0
    thrown_falloff: dict[str, int] = Field(default_factory=dict)


class ConditionDef(BaseModel):
    """One condition or environment, with every effect the engine applies."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    name: str
    aliases: tuple[str, ...] = ()
    rules: tuple[str, ...]
    section: str
    summary: str = ""
    modifiers: tuple[Modifier, ...] = ()
    can_act: bool = True
    can_evade: bool = True
    can_melee: bool = True
    always_hit: bool = False
    blocked_checks: tuple[str, ...] = ()
    immune_to_saves: tuple[str, ...] = ()
    counts_for_front: bool = True
    can_opportunity_attack: bool = True
    counts_in_opportunity: bool = True
    duration_required: bool = False
    can_be_led: bool = False
    cure_tags: tuple[str, ...] = ()
    wakes_on_damage_to: str | None = None
    ended_by_action: str | None = None
    group: str | None = None
    grade: int = 0
    negated_by: tuple[Negation, ...] = ()
    single_target_magic: bool = True
    area_magic_self_only: bool = False
    action_multipliers: dict[str, int] = Field(default_factory=dict)
    move_distance_factor: float = 1.0
    weapons: WeaponLimits | None = None
    breath: bool = False
    heavy_armor_cannot_swim: bool = False

    @property
    def rule(self) -> str:
        return self.rules[0]

    def names(self) -> tuple[str, ...]:
        return (self.id, self.name, *self.aliases)


@cache
def builtin_conditions() -> Mapping[str, ConditionDef]:
    """The shipped conditions (``data/conditions.yaml``), by id."""
    return load_definitions(ConditionDef, "conditions.yaml", "condition")


def find_condition(name: str, table: Mapping[str, ConditionDef] | None = None) -> ConditionDef | None:
    """Look a condition up by id, Japanese name or alias."""
    for c in (table or builtin_conditions()).values():
        if name in c.names():
            return c
    return None


@dataclass(slots=True)
class Cond:
    """A condition on a character: ``rounds`` left (None = until ended) and its cause."""

    id: str
    rounds: int | None = None
    cause: str = "light"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "rounds": self.rounds, "cause": self.cause}


def effective(conds: Iterable[Cond], senses: Iterable[str],
              table: Mapping[str, ConditionDef] | None = None) -> list[tuple[Cond, ConditionDef]]:
    """The conditions that actually apply, after senses and F-G11 stacking.

    * a sense in ``negated_by`` cancels a condition whose cause it covers (F-R13, F-R14),
      source by source, before the same condition from two sources collapses;
    * in a ``group`` (vision, water) only one applies: the highest ``grade`` (水中 over
      水場), else the one with the worse total modifier (暗闇 over 視界不良);
    * the same condition twice collapses to one (the longer duration wins).
    """
    tbl = table or builtin_conditions()
    if type(conds) is list and len(conds) == 1:  # issue #12: the common case, one condition
        c = conds[0]
        d = tbl[c.id]
        if d.negated_by:
            one = set(senses)
            if any(n.sense in one and c.cause in n.causes for n in d.negated_by):
                return []
        return [(c, d)]
    have = set(senses)
    # senses first, per source: a dwarf physically blinded for 3 rounds in an unlit cave is
    # still blind (the cave's 暗闇 is negated, the blindness is not; F-R13, F-G11)
    merged: dict[str, Cond] = {}
    for c in conds:
        if any(n.sense in have and c.cause in n.causes for n in tbl[c.id].negated_by):
            continue
        prev = merged.get(c.id)
        if prev is None or _longer(c, prev):
            merged[c.id] = c
    kept: list[tuple[Cond, ConditionDef]] = [(c, tbl[c.id]) for c in merged.values()]
    best: dict[str, tuple[Cond, ConditionDef]] = {}
    out: list[tuple[Cond, ConditionDef]] = []
    for c, d in kept:
        if d.group is None:
            out.append((c, d))
            continue
        cur = best.get(d.group)
        if cur is None or _worse(d, cur[1]):
            best[d.group] = (c, d)
    out.extend(best.values())
    return out


def _longer(a: Cond, b: Cond) -> bool:
    if a.rounds is None:
        return b.rounds is not None
    return b.rounds is not None and a.rounds > b.rounds


def _worse(a: ConditionDef, b: ConditionDef) -> bool:
    if a.grade != b.grade:
        return a.grade > b.grade
    return sum(m.value for m in a.modifiers) < sum(m.value for m in b.modifiers)
