"""The fantasy encounter file: characters, battlefield, environment, engagements and
surprise, validated by pydantic and cross-checked with errors naming the field and rule."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from ikusa.engine.encounter import validation_error
from ikusa.engine.errors import InputError
from ikusa.systems.fantasy.battlefields import Battlefield, builtin_battlefields, find_battlefield
from ikusa.systems.fantasy.character import RACE_SENSES, CharacterSpec, ConditionSpec
from ikusa.systems.fantasy.conditions import ConditionDef, builtin_conditions, find_condition
from ikusa.systems.fantasy.options import FantasyOptions
from ikusa.systems.gm_support import EffectsSetup


class SurpriseSpec(BaseModel):
    """F-R01: ``ambush`` (潜伏 vs 危険感知) or ``stealth`` (隠密行動 vs 直感ST) by ``hiders`` (sides)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    mode: Literal["ambush", "stealth"]
    hiders: tuple[str, ...] = Field(min_length=1)


class FantasyHomebrew(BaseModel):
    """``homebrew:`` (issue #8 §6): extra conditions and battlefields in the shipped files'
    format (data/conditions.yaml, data/battlefields.yaml) and named effects (fantasy/effects.py)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    conditions: tuple[ConditionDef, ...] = ()
    battlefields: tuple[Battlefield, ...] = ()
    effects: dict[str, Any] | list[Any] = Field(default_factory=dict)


class FantasyEncounter(EffectsSetup):
    model_config = ConfigDict(extra="forbid", frozen=True)
    title: str = ""
    options: FantasyOptions = FantasyOptions()
    battlefield: str = "open"
    battlefields: tuple[Battlefield, ...] = ()
    conditions: tuple[ConditionDef, ...] = ()
    environment: tuple[ConditionSpec, ...] = ()
    engagements: tuple[tuple[str, str], ...] = ()
    surprise: SurpriseSpec | None = None
    surprised: tuple[str, ...] = Field((), description="GM-decided surprised characters (F-R03)")
    characters: tuple[CharacterSpec, ...] = Field(min_length=2)
    homebrew: FantasyHomebrew = FantasyHomebrew()
    #: effects active at the start (issue #8 §3): ``{unit, effect: {...}}`` or ``{unit, name}``
    effects: tuple[dict[str, Any], ...] = ()
    #: the static data of its battles (setup.py), made by the first one
    _setup: Any = PrivateAttr(default=None)

    # -- resolved tables ------------------------------------------------------------------
    def condition_table(self) -> dict[str, ConditionDef]:
        table = dict(builtin_conditions())
        for c in (*self.conditions, *self.homebrew.conditions):
            table[c.id] = c
        return table

    def battlefield_table(self) -> dict[str, Battlefield]:
        table = dict(builtin_battlefields())
        for b in (*self.battlefields, *self.homebrew.battlefields):
            table[b.id] = b
        return table

    def field(self) -> Battlefield:
        found = find_battlefield(self.battlefield, self.battlefield_table())
        assert found is not None  # checked in encounter_from_dict
        return found

    def unit_of(self, c: CharacterSpec) -> str:
        return c.unit or c.side


def parse_front(ref: str) -> tuple[str, str]:
    unit, _, front = ref.partition(".")
    return unit, front or "fore"


def encounter_from_dict(data: Mapping[str, Any], source: str) -> FantasyEncounter:
    """Validate an encounter (``system``/``script`` already removed)."""
    try:
        enc = FantasyEncounter.model_validate(dict(data))
    except ValidationError as exc:
        raise validation_error(exc, source) from None
    _cross_check(enc, source)
    from ikusa.systems.fantasy.effects import encounter_effects

    enc._homebrew_effects, enc._start_effects = encounter_effects(enc, source)
    return enc


def _err(msg: str, source: str, field: str) -> InputError:
    return InputError(msg, source=source, field=field)


def _cross_check(enc: FantasyEncounter, source: str) -> None:
    ids: set[str] = set()
    for i, c in enumerate(enc.characters):
        if c.id in ids:
            raise _err(f"duplicate character id {c.id!r}", source, f"characters[{i}].id")
        ids.add(c.id)
    sides = {c.side for c in enc.characters}
    if len(sides) < 2:
        raise _err("a battle needs characters on at least two sides", source, "characters")
    table = enc.battlefield_table()
    bf = find_battlefield(enc.battlefield, table)
    if bf is None:
        raise _err(f"unknown battlefield {enc.battlefield!r}; known: {', '.join(table)}", source, "battlefield")
    conds = enc.condition_table()
    for i, cd in enumerate(enc.conditions):
        if cd.wakes_on_damage_to is not None and cd.wakes_on_damage_to not in conds:
            raise _err(f"unknown condition id {cd.wakes_on_damage_to!r}", source,
                       f"conditions[{i}].wakes_on_damage_to")

    def check_cond(spec_id: str, rounds: int | None, where: str) -> None:
        d = find_condition(spec_id, conds)
        if d is None:
            raise _err(f"unknown condition {spec_id!r}; known: {', '.join(c.name for c in conds.values())}",
                       source, where)
        if d.duration_required and rounds is None:
            raise _err(f"{d.name} needs a duration in rounds ({d.rule}: 指定された期間は必ず付記される)",
                       source, where)

    for i, e in enumerate(enc.environment):
        check_cond(e.id, e.rounds, f"environment[{i}].id")
    # F-H11: a race or sense the engine does not know would silently give no senses (a typo
    # like 'Dwarf' would lose 暗視); senses are the racial ones plus any a condition names
    known_senses = {s for ss in RACE_SENSES.values() for s in ss}
    known_senses |= {n.sense for d in conds.values() for n in d.negated_by}
    for i, c in enumerate(enc.characters):
        if c.race not in RACE_SENSES:
            raise _err(f"unknown race {c.race!r}; known: {', '.join(RACE_SENSES)} (F-H11; another race: "
                       "use human and list its senses)", source, f"characters[{i}].race")
        for j, sense in enumerate(c.senses):
            if sense not in known_senses:
                raise _err(f"unknown sense {sense!r}; known: {', '.join(sorted(known_senses))} (F-H11)",
                           source, f"characters[{i}].senses[{j}]")
        for j, cs in enumerate(c.conditions):
            check_cond(cs.id, cs.rounds, f"characters[{i}].conditions[{j}].id")
        for j, sp in enumerate(c.spells):
            if sp.condition is not None:
                check_cond(sp.condition, sp.rounds, f"characters[{i}].spells[{j}].condition")
        if c.front == "rear" and not bf.two_fronts:
            raise _err(f"a rear front exists only where two fronts can form (F-R08); {bf.name} has one",
                       source, f"characters[{i}].front")
    units = {enc.unit_of(c) for c in enc.characters}
    unit_sides: dict[str, set[str]] = {}
    for i, c in enumerate(enc.characters):
        sides_here = unit_sides.setdefault(enc.unit_of(c), set())
        if sides_here and c.side not in sides_here:
            raise _err(f"unit {enc.unit_of(c)!r} would hold characters of sides {sorted(sides_here)[0]!r} and "
                       f"{c.side!r}; a unit belongs to one side (F-R02)", source, f"characters[{i}].unit")
        sides_here.add(c.side)
    for i, pair in enumerate(enc.engagements):
        ua, ub = (parse_front(ref)[0] for ref in pair)
        if ua in units and ub in units and unit_sides[ua] & unit_sides[ub]:
            shared = ", ".join(sorted(unit_sides[ua] & unit_sides[ub]))
            raise _err(f"{pair[0]} and {pair[1]} are on the same side ({shared}); an engagement is "
                       "between enemies (F-R08)", source, f"engagements[{i}]")
        for k, ref in enumerate(pair):
            unit, front = parse_front(ref)
            if unit not in units:
                raise _err(f"unknown unit {unit!r}; units: {', '.join(sorted(units))}", source,
                           f"engagements[{i}][{k}]")
            if front not in ("fore", "rear") or (front == "rear" and not bf.two_fronts):
                raise _err(f"front must be 'fore'{' or rear' if bf.two_fronts else ''} (F-R08)", source,
                           f"engagements[{i}][{k}]")
    cap = bf.capacity(enc.options.width_per_fighter)
    if cap is not None:
        count: dict[tuple[str, str], int] = {}
        for i, c in enumerate(enc.characters):
            if c.row != "front":
                continue
            key = (enc.unit_of(c), c.front)
            count[key] = count.get(key, 0) + 1
            if count[key] > cap:
                raise _err(f"{bf.name}: at most {cap} in one front row (F-R08/F-R09, floor(width/"
                           f"{enc.options.width_per_fighter}m)); {c.name} is one too many", source,
                           f"characters[{i}].row")
    for i, sid in enumerate(enc.surprised):
        if sid not in ids:
            raise _err(f"unknown character {sid!r}", source, f"surprised[{i}]")
    if enc.surprise is not None:
        for i, s in enumerate(enc.surprise.hiders):
            if s not in sides:
                raise _err(f"unknown side {s!r}; sides: {', '.join(sorted(sides))}", source,
                           f"surprise.hiders[{i}]")
