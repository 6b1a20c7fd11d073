"""The maai encounter schema (pydantic): units, sides, zones, options, homebrew content.

A unit names catalog entries (``weapons``, ``maneuvers``, ``armour``, ``stances``,
``feats``, ``schools``; ids, Japanese names or aliases) plus stat-block overrides.
Abilities accept ASCII keys (yu gi tai chi bi un) and the Japanese ones (勇 技 體/体 智 美 運).
``homebrew:`` holds extra catalog entries in the catalog's own format (docs/maai-catalog.md).
Every problem is an :class:`~ikusa.engine.errors.InputError` naming the file, the field and
the problem (an unknown maneuver, a missing ability …).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator

from ikusa.engine.encounter import validation_error
from ikusa.engine.errors import InputError
from ikusa.systems.gm_support import EffectsSetup
from ikusa.systems.maai.catalog import Catalog, build_catalog, default_files, load_catalog
from ikusa.systems.maai.defence import TAIMA_TIERS
from ikusa.systems.maai.equipment import ArmourState, grade_rank
from ikusa.systems.maai.grades import Grade
from ikusa.systems.maai.moves import (
    ABILITIES,
    ABILITY_ALIASES,
    Move,
    move_from_feat,
    move_from_maneuver,
    move_from_stance,
)
from ikusa.systems.maai.options import MaaiOptions, options_from_dict

#: S-R03 gives −3…+3 for PCs and "+4 or more" for 妖魔/英霊/ボス templates; the outer bounds
#: are sanity limits: 技 ≥ −9 keeps max 活力 = 10 + 技 ≥ 1 (S-R24), and +10 is the most a
#: check's final modifier can use anyway (S-R07).
ABILITY_MIN, ABILITY_MAX = -9, 10
#: sanity bounds (invented) for hand-set 防備 and fate uses
DEFENCE_MAX = 40
FATE_MAX = 10


class UnitSpec(BaseModel):
    """One combatant (S-R20, S-R44, S-R60 …)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    id: str = Field(pattern=r"^[A-Za-z0-9_\-]+$")
    name: str
    side: str
    grade: str
    abilities: dict[str, int]
    skills: dict[str, str | int] = Field(default_factory=dict)
    weapons: list[str] = Field(default_factory=list)
    maneuvers: list[str] = Field(default_factory=list)
    armour: list[str] = Field(default_factory=list)
    stances: list[str] = Field(default_factory=list)
    stance: str | None = None
    feats: list[str] = Field(default_factory=list)
    schools: list[str] = Field(default_factory=list)
    #: 先攻 +N on the first breath only (S-R35, S-T18)
    initiative: int = Field(default=0, ge=0, alias="先攻")
    #: stat-block overrides (S-R44 "a lower value in an individual stat block overrides")
    defence: int | None = Field(default=None, ge=2, le=DEFENCE_MAX)
    wounds: int | None = Field(default=None, ge=1)
    fate: int | None = Field(default=None, ge=0, le=FATE_MAX)
    #: named NPCs make the survival roll (S-G25)
    named: bool = False
    #: unaware at combat start: its first incoming attack gets +2 (S-R13/S-G17)
    unaware: bool = False
    zone: str | None = None
    squad: str | None = None
    #: equipment grade per weapon id when not the catalog's (補給/一般/名品/神機, S-G06)
    weapon_grades: dict[str, str] = Field(default_factory=dict)
    #: breath-limit extensions by source (S-R28: distinct sources stack)
    breath_extensions: dict[str, int] = Field(default_factory=dict)
    #: 式神/傀儡: the id of the caster who operates this unit (S-G24: no 活力 of its own; its
    #: actions are paid from the caster's 活力 and share the caster's 0-活力 cap, S-R59)
    operator: str | None = None

    @field_validator("grade")
    @classmethod
    def _grade(cls, raw: str) -> str:
        try:
            return Grade.parse(raw).value
        except InputError as exc:
            raise ValueError(exc.message) from None

    @field_validator("abilities", mode="before")
    @classmethod
    def _abilities(cls, raw: Any) -> dict[str, int]:
        if not isinstance(raw, Mapping):
            raise ValueError("must be a mapping of the six abilities (勇 技 體 智 美 運)")
        out: dict[str, int] = {}
        for k, v in raw.items():
            key = ABILITY_ALIASES.get(str(k))
            if key is None:
                raise ValueError(f"unknown ability {k!r}; use yu gi tai chi bi un or 勇 技 體 智 美 運")
            if not isinstance(v, int) or isinstance(v, bool):
                raise ValueError(f"ability {k!r} must be a whole number")
            if not ABILITY_MIN <= v <= ABILITY_MAX:
                raise ValueError(f"ability {k!r} must be {ABILITY_MIN:+d}…{ABILITY_MAX:+d} (S-R03: PCs −3…+3, "
                                 f"templates +4 or more; S-R24/S-R07 bound it), not {v}")
            out[key] = v
        missing = [a for a in ABILITIES if a not in out]
        if missing:
            raise ValueError(f"missing ability(ies) {', '.join(missing)} (all six are required)")
        return out


@dataclass(slots=True)
class ArmourPiece:
    """Resolved armour (S-R44, S-G04): its equipment state (grade, [破壊] damage, repairs)
    and its weight class for the 活力 penalty (S-R26)."""

    state: ArmourState
    weight: str


@dataclass(slots=True)
class ResolvedUnit:
    """What the catalog gave a unit: its maneuvers, armour and passive feats."""

    moves: list[Move]
    armour: list[ArmourPiece]
    stance: Move | None = None
    crit_extension: bool = False
    extensions: dict[str, int] = field(default_factory=dict)
    feats: tuple[str, ...] = ()
    schools: tuple[str, ...] = ()
    weapon_grades: dict[str, str] = field(default_factory=dict)
    #: the unit's static numbers (computed once per encounter, copied by every new state)
    numbers: dict[str, Any] = field(default_factory=dict)


class MaaiEncounter(EffectsSetup):
    """A whole maai encounter (without the common ``system``/``script`` keys)."""

    model_config = ConfigDict(extra="forbid")

    title: str = ""
    description: str = ""
    #: side order = tie order "allies first" (S-T17, S-G49): the first side listed is the ally side
    sides: list[str] = Field(default_factory=list)
    #: zones in a line (S-G15, invented): a move reaches a neighbour
    zones: list[str] = Field(default_factory=lambda: ["field"])
    units: list[UnitSpec] = Field(min_length=2)
    options: dict[str, Any] = Field(default_factory=dict)
    homebrew: dict[str, Any] = Field(default_factory=dict)
    #: effects active at the start (issue #8 §3): ``{unit, effect: {...}}`` or ``{unit, name}``
    effects: list[dict[str, Any]] = Field(default_factory=list)
    #: (invented) hard round cap: after this many 間合 the battle is a draw; every battle ends
    max_maai: int = Field(default=50, ge=1)

    _opts: MaaiOptions = PrivateAttr(default_factory=MaaiOptions)
    _resolved: dict[str, ResolvedUnit] = PrivateAttr(default_factory=dict)
    #: memo of pure rule results (costs, 防備) shared by every state of this encounter
    _memo: dict[Any, int] = PrivateAttr(default_factory=dict)
    _catalog: Catalog | None = PrivateAttr(default=None)
    _plain_cost: dict[int, int] = PrivateAttr(default_factory=dict)
    _puppets: dict[str, tuple[str, ...]] = PrivateAttr(default_factory=dict)
    #: the d100 tables in force (maai/tables.py: the shipped ones, or ``homebrew: tables:``)
    _tables: Any = PrivateAttr(default=None)
    #: the combat flow's caches for this encounter (flow_base.EncounterCaches), made by its first state
    _flow_caches: Any = PrivateAttr(default=None)

    def flow_caches(self, make: Callable[[MaaiEncounter], Any]) -> Any:
        """The combat flow's per-encounter caches: made once by ``make`` (the first state of this
        encounter), then shared by every later state of it; nothing is shared between encounters
        (a server holding many tables keeps no module-level cache, issue #12)."""
        c = self._flow_caches
        if c is None:
            c = self._flow_caches = make(self)
        return c

    @property
    def opts(self) -> MaaiOptions:
        return self._opts

    def resolved(self, unit_id: str) -> ResolvedUnit:
        return self._resolved[unit_id]

    @property
    def memo(self) -> dict[Any, int]:
        return self._memo

    @property
    def plain_cost(self) -> dict[int, int]:
        """Memo of maneuver costs outside 心府 (by maneuver identity)."""
        return self._plain_cost

    @property
    def puppets(self) -> dict[str, tuple[str, ...]]:
        """Caster id → the ids of the 式神/傀儡 it operates (S-G24)."""
        return self._puppets

    @property
    def tables(self) -> Any:
        return self._tables

    @property
    def catalog(self) -> Catalog:
        assert self._catalog is not None
        return self._catalog


#: maneuvers every unit has (only offered when they apply)
UNIVERSAL = ("move.ridatsu", "common.pick_up_weapon", "common.field_repair", "common.bind_wound")


def _catalog(enc: MaaiEncounter, source: str) -> Catalog:
    content = {k: v for k, v in enc.homebrew.items() if k not in ("effects", "tables")}  # maai/effects.py, tables.py
    if not content:
        return load_catalog()
    text = yaml.safe_dump(content, allow_unicode=True)
    return build_catalog([*default_files(), (f"{source}#homebrew", text)])


def _lookup(cat: Catalog, section: str, key: str, source: str, field: str) -> Any:
    try:
        return cat.by_name(key, section)
    except InputError as exc:
        known = ", ".join(f"{k}={e.name}" for k, e in sorted(getattr(cat, section).items()))  # issue #8 §6
        raise InputError(f"{exc.message}; known: {known}", source=source, field=field) from None


def _resolve_unit(cat: Catalog, opts: MaaiOptions, u: UnitSpec, i: int, source: str) -> ResolvedUnit:
    where = f"units.{i}"
    moves: list[Move] = []
    seen: set[str] = set()

    def add(m: Move) -> None:
        if m.id not in seen:
            seen.add(m.id)
            moves.append(m)

    for j, w in enumerate(u.weapons):
        weapon = _lookup(cat, "weapons", w, source, f"{where}.weapons.{j}")
        for m in cat.maneuvers_of(weapon.id):
            if _meets(cat, opts, u, m.requires):  # 免許技法 only with the 免許 (S-R23)
                add(move_from_maneuver(cat, m))
    for j, key in enumerate(u.maneuvers):
        m = _lookup(cat, "maneuvers", key, source, f"{where}.maneuvers.{j}")
        if not _meets(cat, opts, u, m.requires):
            raise InputError(f"{m.name} requires {m.requires} (S-R23)", source=source, field=f"{where}.maneuvers.{j}")
        add(move_from_maneuver(cat, m))
    # S-G20: a ranged attack whose catalog entry names no ability uses ``ranged.default_ability``
    ranged_ability = ABILITY_ALIASES.get(opts.ranged.default_ability, "yu")
    for k, mv in enumerate(moves):
        if mv.kind == "attack" and mv.ranged and mv.src is not None and mv.src.ability is None \
                and mv.src.axis != "B" and mv.ability != ranged_ability and cat.is_ranged(mv.src):
            moves[k] = replace(mv, ability=ranged_ability)
    # maneuvers every unit has: leaving 心府 (S-G12), picking a dropped weapon up (S-T51), 応急補修 (S-R50),
    # 止血 (S-G19)
    for key in UNIVERSAL:
        if key in cat.maneuvers:
            add(move_from_maneuver(cat, cat.maneuver(key)))
    stance_moves: dict[str, Move] = {}
    for j, key in enumerate(u.stances):
        sm = move_from_stance(_lookup(cat, "stances", key, source, f"{where}.stances.{j}"), opts)
        stance_moves[sm.id] = sm
        add(sm)
    start = None
    if u.stance is not None:
        start = move_from_stance(_lookup(cat, "stances", u.stance, source, f"{where}.stance"), opts)
        if start.id in stance_moves:
            # the very Move listed in stances: the flow compares by identity, and a copy would
            # offer re-declaring the stance already held for 活力 (S-R58)
            start = stance_moves[start.id]
        else:
            add(start)
    crit_ext = False
    extensions = dict(u.breath_extensions)
    for j, key in enumerate(u.feats):
        f = _lookup(cat, "feats", key, source, f"{where}.feats.{j}")
        fm = move_from_feat(f)
        if fm is not None:
            add(fm)
        crit_ext = crit_ext or f.crit_extension
        if f.breath_limit_bonus:
            extensions[f.id] = f.breath_limit_bonus
    for j, key in enumerate(u.schools):
        s = _lookup(cat, "schools", key, source, f"{where}.schools.{j}")
        crit_ext_school = s.crit_extension
        for k, mv in enumerate(moves):
            if mv.kind == "counter" and (s.skill is None or mv.skill == s.skill):
                moves[k] = replace(
                    mv, counter_bonus=mv.counter_bonus + s.counter_bonus,
                    defence_roll_bonus=mv.defence_roll_bonus + s.defence_bonus,
                    counter_only_after_nullify=mv.counter_only_after_nullify or s.counter_after_defence_only,
                    crit_extension=mv.crit_extension or crit_ext_school,
                    cost=s.counter_cost if s.counter_cost is not None else mv.cost,
                    zero_cost=mv.zero_cost or s.counter_cost == 0,
                )
        for mid in s.maneuvers:
            add(move_from_maneuver(cat, cat.maneuver(mid)))
    armour: list[ArmourPiece] = []
    for j, key in enumerate(u.armour):
        a = _lookup(cat, "armour", key, source, f"{where}.armour.{j}")
        armour.append(ArmourPiece(ArmourState.from_catalog(a), a.weight))
        if a.breath_limit_bonus:
            extensions[a.id] = a.breath_limit_bonus
    known_skills = _known_skills(cat)
    for sk, tier in u.skills.items():
        if sk not in known_skills:
            raise InputError(f"unknown skill {sk!r}: no weapon, maneuver or school of the catalog uses it "
                             f"(S-R23); known: {', '.join(sorted(known_skills))}", source=source,
                             field=f"{where}.skills.{sk}")
        if isinstance(tier, str) and tier not in opts.skills.tier_bonus and tier != "聖人":
            raise InputError(f"unknown proficiency tier {tier!r}; known: {', '.join(opts.skills.tier_bonus)}, 聖人",
                             source=source, field=f"{where}.skills.{sk}")
    feat_ids = tuple(_lookup(cat, "feats", k, source, f"{where}.feats.{j}").id for j, k in enumerate(u.feats))
    school_ids = tuple(_lookup(cat, "schools", k, source, f"{where}.schools.{j}").id for j, k in enumerate(u.schools))
    grades = {wid: w.grade for wid, w in cat.weapons.items()}
    for wid, g in u.weapon_grades.items():
        try:
            grade_rank(g, opts)
        except InputError as exc:
            raise InputError(exc.message, source=source, field=f"{where}.weapon_grades.{wid}") from None
        grades[_lookup(cat, "weapons", wid, source, f"{where}.weapon_grades").id] = g
    res = ResolvedUnit(moves=moves, armour=armour, stance=start, crit_extension=crit_ext, extensions=extensions,
                       feats=feat_ids, schools=school_ids, weapon_grades=grades)
    from ikusa.systems.maai.units import static_numbers

    res.numbers = static_numbers(u, res, opts)
    if u.operator is not None:
        # S-G24: a 式神/傀儡 has no 活力 of its own (it never reaches a count)
        res.numbers = {**res.numbers, "max_vigor": 0}
    # the [霊体] TN inputs (S-R47, S-G05): 退魔 tier and 霊体防備 of the worn armour
    taima = u.skills.get("退魔")
    res.numbers = {**res.numbers, "taima": taima if taima in TAIMA_TIERS else None,
                   "spirit_defence": sum(_lookup(cat, "armour", k, source, f"{where}.armour").spirit_defence
                                         for k in u.armour)}
    return res


_TIERS = ("未修得", "入門", "習得", "免許", "名人", "聖人")


def _meets(cat: Catalog, opts: MaaiOptions, u: UnitSpec, requires: str | None) -> bool:
    """S-R23: a maneuver that ``requires`` e.g. 剣術免許 (or タント免許: the weapon's skill) is
    available only to a unit with that skill at that tier or above."""
    if not requires:
        return True
    tier = next((t for t in _TIERS if requires.endswith(t)), None)
    if tier is None:
        return True
    name = requires[: -len(tier)]
    skill = name
    if name not in u.skills:
        weapon = next((w for w in cat.weapons.values() if name == w.name or name in w.aliases), None)
        if weapon is not None and weapon.skill:
            skill = weapon.skill
    have = u.skills.get(skill)
    if have is None:
        return False
    table = opts.skills.tier_bonus
    if isinstance(have, int):
        return have >= table.get(tier, 99)
    return _TIERS.index(have) >= _TIERS.index(tier) if have in _TIERS else False


#: skills the combat engine reads outside the catalog: 退魔 ([霊体] S-G05)
ENGINE_SKILLS = frozenset({"退魔"})


def _known_skills(cat: Catalog) -> frozenset[str]:
    """Every skill a catalog entry (weapon, maneuver, school) names, plus the engine's own."""
    names = {e.skill for table in (cat.weapons, cat.maneuvers, cat.schools) for e in table.values() if e.skill}
    return frozenset(names) | ENGINE_SKILLS


def encounter_from_dict(data: Mapping[str, Any], source: str) -> MaaiEncounter:
    """Validate an encounter mapping; errors name ``source``, the field and the problem."""
    try:
        enc = MaaiEncounter.model_validate(dict(data))
    except ValidationError as exc:
        raise validation_error(exc, source) from None
    ids = [u.id for u in enc.units]
    for i, uid in enumerate(ids):
        if uid in ids[:i]:
            raise InputError(f"duplicate unit id {uid!r}", source=source, field=f"units.{i}.id")
    for i, side in enumerate(enc.sides):
        if side in enc.sides[:i]:
            raise InputError(f"side {side!r} is listed twice", source=source, field=f"sides.{i}")
    if not enc.sides:
        for u in enc.units:
            if u.side not in enc.sides:
                enc.sides.append(u.side)
    if len(enc.sides) < 2:
        raise InputError("an encounter needs at least two sides", source=source, field="sides")
    if len({u.side for u in enc.units if u.operator is None}) < 2:
        raise InputError("all units are on one side: a combat needs units on at least two sides (S-G25)",
                         source=source, field="units")
    try:
        enc._opts = options_from_dict(enc.options, source)
    except InputError as exc:
        raise InputError(exc.message, source=source, field=f"options.{exc.field}" if exc.field else "options") from None
    cat = _catalog(enc, source)
    enc._catalog = cat
    for i, u in enumerate(enc.units):
        if u.side not in enc.sides:
            raise InputError(f"side {u.side!r} is not one of sides {enc.sides}", source=source,
                             field=f"units.{i}.side")
        if u.zone is not None and u.zone not in enc.zones:
            raise InputError(f"zone {u.zone!r} is not one of zones {enc.zones}", source=source,
                             field=f"units.{i}.zone")
        enc._resolved[u.id] = _resolve_unit(cat, enc._opts, u, i, source)
    puppets: dict[str, list[str]] = {}
    for i, u in enumerate(enc.units):
        if u.operator is None:
            continue
        caster = next((c for c in enc.units if c.id == u.operator), None)
        where = f"units.{i}.operator"
        if caster is None or caster is u:
            raise InputError(f"operator {u.operator!r} is not another unit of this encounter (S-G24)",
                             source=source, field=where)
        if caster.side != u.side:
            raise InputError(f"operator {caster.id!r} is on side {caster.side!r}, not {u.side!r} (S-G24)",
                             source=source, field=where)
        if caster.operator is not None:
            raise InputError(f"operator {caster.id!r} is itself a 式神/傀儡 (S-G24)", source=source, field=where)
        puppets.setdefault(caster.id, []).append(u.id)
    enc._puppets = {k: tuple(v) for k, v in puppets.items()}
    from ikusa.systems.maai.effects import encounter_effects

    enc._homebrew_effects, enc._start_effects = encounter_effects(enc.homebrew.get("effects"), enc.effects,
                                                                  [u.id for u in enc.units], source, enc.opts)
    from ikusa.systems.maai.tables import encounter_tables

    enc._tables = encounter_tables(enc.homebrew.get("tables"), enc, source)
    return enc
