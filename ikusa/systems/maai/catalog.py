"""The maai content catalog (S-G11): weapons, maneuvers, armour, stances, feats and schools as
data files validated by pydantic models.

The shipped data live in ``ikusa/systems/maai/data/*.yaml``; a GM adds homebrew files with
the same format (documented in ``docs/maai-catalog.md``) that are merged over the defaults by
id.  Every error names the file and the dotted field.

>>> cat = load_catalog()
>>> m = cat.maneuver("katana.sashi")
>>> m.name, m.cost, m.ability, [str(t) for t in m.tags]
('刺し', 2, '技', ['[貫通 2]'])
>>> cat.by_name("突き").id
'katana.sashi'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ikusa.engine.encounter import validation_error
from ikusa.engine.errors import InputError

Ability = Literal["勇", "技", "體", "智", "美", "運"]
ManeuverKind = Literal["attack", "defence", "counter", "movement", "stance", "command", "maintenance", "feat"]
FeatType = Literal["型", "素養", "整備", "構え"]
ID_PATTERN = r"^[a-z0-9_]+(\.[a-z0-9_]+)*$"

_TAG_WORDS = {
    "pierce": "pierce", "貫通": "pierce",
    "direct": "direct", "直撃": "direct",
    "spirit": "spirit", "霊体": "spirit",
    "break": "break", "破壊": "break",
}
_ALL_WORDS = {"all", "全体", "whole"}
_TAG_RE = re.compile(r"^\[?\s*([^\s\[\]_0-9]+)(?:[\s_]+([^\s\]]+))?\s*\]?$")


class Tag(BaseModel):
    """A bypass tag (S-R44…S-R49): ``pierce`` [貫通 N], ``direct`` [直撃 N] (``n=None`` means
    全体), ``spirit`` [霊体], ``break`` [破壊] (no N).  Written in data as ``pierce 2``,
    ``pierce all``, ``pierce_all``, ``[貫通 2]``, ``直撃 全体``, ``spirit``, ``break`` …

    >>> Tag.parse("[貫通 全体]"), str(Tag.parse("direct 2"))
    (Tag(kind='pierce', n=None), '[直撃 2]')
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["pierce", "direct", "spirit", "break"]
    n: int | None = Field(None, ge=0)

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, value: Any) -> Any:
        if isinstance(value, str):
            return cls._split(value)
        return value

    @model_validator(mode="after")
    def _check_n(self) -> Tag:
        if self.kind in ("spirit", "break") and self.n is not None:
            raise ValueError(f"[{self.kind}] takes no N")
        return self

    @staticmethod
    def _split(text: str) -> dict[str, Any]:
        m = _TAG_RE.match(text.strip())
        if not m or m.group(1) not in _TAG_WORDS:
            raise ValueError(f"unknown tag {text!r} (pierce N|all, direct N|all, spirit, break)")
        kind = _TAG_WORDS[m.group(1)]
        arg = m.group(2)
        if kind in ("spirit", "break"):
            if arg is not None:
                raise ValueError(f"[{kind}] takes no N: {text!r}")
            return {"kind": kind, "n": None}
        if arg is None:
            raise ValueError(f"{text!r} needs N or all/全体")
        if arg in _ALL_WORDS:
            return {"kind": kind, "n": None}
        if not arg.isdigit():
            raise ValueError(f"{text!r}: N must be a whole number or all/全体")
        return {"kind": kind, "n": int(arg)}

    @classmethod
    def parse(cls, text: str) -> Tag:
        return cls.model_validate(text)

    @property
    def whole(self) -> bool:
        """[貫通 全体] / [直撃 全体]."""
        return self.kind in ("pierce", "direct") and self.n is None

    def __str__(self) -> str:
        jp = {"pierce": "貫通", "direct": "直撃", "spirit": "霊体", "break": "破壊"}[self.kind]
        if self.kind in ("spirit", "break"):
            return f"[{jp}]"
        return f"[{jp} {'全体' if self.n is None else self.n}]"


class _Entry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1)
    aliases: tuple[str, ...] = ()
    source: tuple[str, ...] = Field((), description="rules-text lines, e.g. 000:L173")
    notes: str = ""


class Maneuver(_Entry):
    """One maneuver (技法/マヌーバ).  ``cost`` is the base 活力 (S-R69); ``damage`` the 戦力
    on a hit, ``crit_damage`` on 会心 (None → the weapon's special crit, else damage + 1:
    S-R41/S-R43), ``behind_damage``/``crit_behind_damage`` the 戦力 to the enemy behind."""

    weapon: str | None = None
    kind: ManeuverKind
    axis: Literal["A", "B"] | None = None
    cost: int = Field(ge=0)
    zero_vigor_kata: bool = Field(False, description="a [型] whose text says 0活力 (S-R31)")
    ability: Ability | None = None
    skill: str | None = None
    bonus: int = 0
    damage: int = Field(1, ge=0)
    crit_damage: int | None = Field(None, ge=0)
    behind_damage: int = Field(0, ge=0)
    crit_behind_damage: int = Field(0, ge=0)
    tags: tuple[Tag, ...] = ()
    aim_focus: Literal["pierce", "direct"] | None = None
    reservable: bool = False
    defence_type: Literal["parry", "evasion", "counter"] | None = None
    short_weapon: bool | None = Field(None, description="None → from the weapon")
    ranged: bool | None = Field(None, description="None → from the weapon")
    range: str = "melee"
    limit_per_round: int | None = Field(None, ge=1)
    effects: tuple[str, ...] = ()
    requires: str | None = None
    school: str | None = None

    def tag(self, kind: str) -> Tag | None:
        return next((t for t in self.tags if t.kind == kind), None)

    @property
    def is_attack(self) -> bool:
        return self.kind in ("attack", "counter")


class Weapon(_Entry):
    """A weapon (S-R42): its skill, size class (short S-R67 / long S-G12), ranged, default
    equipment grade (S-G06), special crit (S-R43) and its maneuvers."""

    skill: str | None = None
    short: bool = False
    long: bool = False
    ranged: bool = False
    grade: str = "補給"
    crit_damage: int | None = Field(None, ge=0)
    crit_behind_damage: int = Field(0, ge=0)
    maneuvers: tuple[str, ...] = ()


class Armour(_Entry):
    """Armour or shield (S-R44, S-G04): ``bonus`` to 防備 (armour class), ``weight`` for the
    活力 penalty (S-R26), equipment ``grade`` (S-G06), ``spirit_defence`` 霊体防備 +N (S-R47),
    ``breath_limit_bonus`` (速戦速決の鎧, S-R28)."""

    slot: Literal["armor", "shield"] = "armor"
    weight: Literal["なし", "軽甲", "重甲", "重装甲"] = "なし"
    bonus: int = Field(ge=0)
    grade: str = "一般"
    natural: bool = False
    spirit_defence: int = Field(0, ge=0)
    breath_limit_bonus: int = Field(0, ge=0)


class Stance(_Entry):
    """A [構え] (S-R58, S-G16): ``defence_bonus`` is non-armour 防備; ``attack_bonus`` applies
    while maintained; ``declare_cost`` None → option ``stances.declare_cost``."""

    defence_bonus: int = 0
    attack_bonus: int = 0
    declare_cost: int | None = Field(None, ge=0)
    effects: tuple[str, ...] = ()


class Feat(_Entry):
    """A 特技 of one of the four types (S-R58).  Effects are named keys the rules modules
    understand (``shinpu_melee_cost_delta``, ``fatigue_mitigation``, ``breath_limit_bonus``,
    ``crit_extension``, ``zero_vigor``…)."""

    type: FeatType
    cost: int | None = Field(None, ge=0)
    zero_vigor: bool = False
    shinpu_melee_cost_delta: int = 0
    fatigue_mitigation: bool = False
    breath_limit_bonus: int = Field(0, ge=0)
    crit_extension: bool = False
    effects: tuple[str, ...] = ()


class School(_Entry):
    """A 流派 (S-R57, S-G39): counter bonuses and conditions, and cost modifiers."""

    skill: str | None = None
    defence_bonus: int = 0
    counter_bonus: int = 0
    counter_after_defence_only: bool = False
    simultaneous: bool = False
    counter_cost: int | None = Field(None, ge=0)
    crit_extension: bool = False
    shinpu_cost_delta: dict[str, int] = Field(default_factory=dict, description="weapon id → 心府 cost delta")
    maneuvers: tuple[str, ...] = ()


class CatalogFile(BaseModel):
    """One catalog data file: any of the sections."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    weapons: tuple[Weapon, ...] = ()
    maneuvers: tuple[Maneuver, ...] = ()
    armour: tuple[Armour, ...] = ()
    stances: tuple[Stance, ...] = ()
    feats: tuple[Feat, ...] = ()
    schools: tuple[School, ...] = ()

    @field_validator("*", mode="before")
    @classmethod
    def _none_is_empty(cls, v: Any) -> Any:
        return () if v is None else v


SECTIONS = ("weapons", "maneuvers", "armour", "stances", "feats", "schools")


@dataclass(frozen=True)
class Catalog:
    """The merged catalog.  Look-ups by id raise :class:`InputError` naming the id."""

    weapons: Mapping[str, Weapon]
    maneuvers: Mapping[str, Maneuver]
    armour: Mapping[str, Armour]
    stances: Mapping[str, Stance]
    feats: Mapping[str, Feat]
    schools: Mapping[str, School]
    origin: Mapping[str, str] = field(default_factory=dict)

    def _get(self, section: str, key: str) -> Any:
        table: Mapping[str, Any] = getattr(self, section)
        if key in table:
            return table[key]
        raise InputError(f"unknown {section[:-1] if section != 'armour' else 'armour'} id {key!r}", field=section)

    def weapon(self, key: str) -> Weapon:
        return self._get("weapons", key)  # type: ignore[no-any-return]

    def maneuver(self, key: str) -> Maneuver:
        return self._get("maneuvers", key)  # type: ignore[no-any-return]

    def armour_piece(self, key: str) -> Armour:
        return self._get("armour", key)  # type: ignore[no-any-return]

    def stance(self, key: str) -> Stance:
        return self._get("stances", key)  # type: ignore[no-any-return]

    def feat(self, key: str) -> Feat:
        return self._get("feats", key)  # type: ignore[no-any-return]

    def school(self, key: str) -> School:
        return self._get("schools", key)  # type: ignore[no-any-return]

    def maneuvers_of(self, weapon_id: str) -> list[Maneuver]:
        """The weapon's maneuvers, in the weapon's order."""
        return [self.maneuvers[m] for m in self.weapon(weapon_id).maneuvers]

    def by_name(self, name: str, section: str = "maneuvers") -> Any:
        """Find an entry by its id, Japanese name or alias (e.g. 突き → katana.sashi).  Raises
        :class:`InputError` when unknown or ambiguous."""
        table: Mapping[str, _Entry] = getattr(self, section)
        if name in table:
            return table[name]
        hits = [e for e in table.values() if name == e.name or name in e.aliases]
        if len(hits) == 1:
            return hits[0]
        if not hits:
            raise InputError(f"no {section} entry named {name!r}", field=section)
        raise InputError(f"{name!r} is ambiguous: {', '.join(e.id for e in hits)}", field=section)

    def is_short(self, m: Maneuver) -> bool:
        """S-R67: does this maneuver use a short weapon?"""
        if m.short_weapon is not None:
            return m.short_weapon
        return bool(m.weapon and self.weapons[m.weapon].short)

    def is_ranged(self, m: Maneuver) -> bool:
        if m.ranged is not None:
            return m.ranged
        return bool(m.weapon and self.weapons[m.weapon].ranged)

    def crit_damage(self, m: Maneuver) -> int:
        """S-R41/S-R43: 会心 戦力 — the maneuver's own value, else the weapon's special crit
        (斬馬刀/野太刀 3, 鉄砲 2), else damage + 1 (base 1 → 2)."""
        if m.crit_damage is not None:
            return m.crit_damage
        if m.weapon and self.weapons[m.weapon].crit_damage is not None:
            return self.weapons[m.weapon].crit_damage  # type: ignore[return-value]
        return m.damage + 1

    def crit_behind_damage(self, m: Maneuver) -> int:
        """S-R43: 戦力 to the enemy behind on 会心 (鉄砲 1), at least the on-hit value."""
        weapon = self.weapons[m.weapon].crit_behind_damage if m.weapon else 0
        return max(m.crit_behind_damage, weapon, m.behind_damage)


def _data_dir() -> Any:
    return resources.files("ikusa.systems.maai") / "data"


def default_files() -> list[tuple[str, str]]:
    """(name, text) of every shipped data file, sorted by name."""
    out = []
    for entry in sorted(_data_dir().iterdir(), key=lambda e: e.name):
        if entry.name.endswith((".yaml", ".yml")):
            out.append((f"maai/data/{entry.name}", entry.read_text("utf-8")))
    return out


def _parse(text: str, source: str) -> CatalogFile:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        raise InputError(f"malformed YAML: {where}{getattr(exc, 'problem', exc)}", source=source) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise InputError("the top level must be a mapping with sections " + ", ".join(SECTIONS), source=source)
    try:
        return CatalogFile.model_validate(data)
    except ValidationError as exc:
        raise validation_error(exc, source) from None


def build_catalog(files: Iterable[tuple[str, str]]) -> Catalog:
    """Merge parsed files in order (later ids replace earlier ones) and check every id
    reference, naming file + field on error."""
    tables: dict[str, dict[str, Any]] = {s: {} for s in SECTIONS}
    where: dict[tuple[str, str], tuple[str, str]] = {}
    for source, text in files:
        cf = _parse(text, source)
        for section in SECTIONS:
            seen: set[str] = set()
            for i, entry in enumerate(getattr(cf, section)):
                if entry.id in seen:
                    raise InputError(f"duplicate id {entry.id!r}", source=source, field=f"{section}.{i}.id")
                seen.add(entry.id)
                tables[section][entry.id] = entry
                where[(section, entry.id)] = (source, f"{section}.{i}")
    _check_refs(tables, where)
    origin = {f"{s}:{k}": v[0] for (s, k), v in where.items()}
    ro = {s: MappingProxyType(t) for s, t in tables.items()}
    return Catalog(
        weapons=ro["weapons"], maneuvers=ro["maneuvers"], armour=ro["armour"],
        stances=ro["stances"], feats=ro["feats"], schools=ro["schools"], origin=MappingProxyType(origin),
    )


def _check_refs(tables: dict[str, dict[str, Any]], where: dict[tuple[str, str], tuple[str, str]]) -> None:
    from ikusa.systems.maai.options import DEFAULT_OPTIONS

    grades = {name for rung in DEFAULT_OPTIONS.equipment.grade_rank for name in rung}

    def fail(section: str, key: str, fld: str, msg: str) -> InputError:
        src, path = where[(section, key)]
        return InputError(msg, source=src, field=f"{path}.{fld}")

    for wid, w in tables["weapons"].items():
        for j, mid in enumerate(w.maneuvers):
            if mid not in tables["maneuvers"]:
                raise fail("weapons", wid, f"maneuvers.{j}", f"unknown maneuver id {mid!r}")
        if w.grade not in grades:
            raise fail("weapons", wid, "grade", f"unknown equipment grade {w.grade!r} ({', '.join(sorted(grades))})")
    for mid, m in tables["maneuvers"].items():
        if m.weapon is not None and m.weapon not in tables["weapons"]:
            raise fail("maneuvers", mid, "weapon", f"unknown weapon id {m.weapon!r}")
        if m.school is not None and m.school not in tables["schools"]:
            raise fail("maneuvers", mid, "school", f"unknown school id {m.school!r}")
        if m.aim_focus is not None and m.kind not in ("attack", "counter"):
            raise fail("maneuvers", mid, "aim_focus", "only attacks can have 照準集中 (S-R51)")
        if m.reservable and m.kind not in ("defence", "counter"):
            raise fail("maneuvers", mid, "reservable", "only defensive techniques can be reserved (S-R39)")
    for aid, a in tables["armour"].items():
        if a.grade not in grades:
            raise fail("armour", aid, "grade", f"unknown equipment grade {a.grade!r} ({', '.join(sorted(grades))})")
    for sid, s in tables["schools"].items():
        for j, mid in enumerate(s.maneuvers):
            if mid not in tables["maneuvers"]:
                raise fail("schools", sid, f"maneuvers.{j}", f"unknown maneuver id {mid!r}")
        for wid in s.shinpu_cost_delta:
            if wid not in tables["weapons"]:
                raise fail("schools", sid, f"shinpu_cost_delta.{wid}", f"unknown weapon id {wid!r}")


@lru_cache(maxsize=1)
def _default_catalog() -> Catalog:
    return build_catalog(default_files())


def load_catalog(extra: Sequence[Path | str] = ()) -> Catalog:
    """The shipped catalog (cached), or the shipped catalog with GM homebrew ``extra`` files
    merged over it in order (an entry with an existing id replaces it)."""
    if not extra:
        return _default_catalog()
    files = default_files()
    for p in extra:
        path = Path(p)
        try:
            files.append((str(path), path.read_text("utf-8")))
        except FileNotFoundError:
            raise InputError("file not found", source=str(path)) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read file: {exc}", source=str(path)) from None
    return build_catalog(files)
