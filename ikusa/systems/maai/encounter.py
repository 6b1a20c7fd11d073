"""The maai encounter schema (pydantic): units, sides, zones, homebrew maneuvers, options.

Abilities accept ASCII keys (yu gi tai chi bi un) and the Japanese ones (勇 技 體/体 智 美 運).
Every problem is an :class:`~ikusa.engine.errors.InputError` naming the file, the field and
the problem (for example an unknown maneuver or a missing ability).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ikusa.engine.encounter import validation_error
from ikusa.engine.errors import InputError
from ikusa.systems.maai.moves import ABILITIES, ABILITY_ALIASES, Maneuver
from ikusa.systems.maai.rules_link import GRADES, TIER_BONUS


class UnitSpec(BaseModel):
    """One combatant (S-R20, S-R44, S-R60 …)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    id: str = Field(pattern=r"^[A-Za-z0-9_\-]+$")
    name: str
    side: str
    grade: Literal["雑", "卒", "練", "将", "主", "PC"]
    abilities: dict[str, int]
    skills: dict[str, str | int] = Field(default_factory=dict)
    maneuvers: list[str] = Field(default_factory=list)
    armour: list[Literal["軽甲", "重甲", "重装甲", "盾"]] = Field(default_factory=list)
    stance: str | None = None
    #: 先攻 +N on the first breath only (S-R35, S-T18)
    initiative: int = Field(default=0, ge=0, alias="先攻")
    #: stat-block overrides (S-R44 "a lower value in an individual stat block overrides")
    defence: int | None = None
    wounds: int | None = Field(default=None, ge=1)
    fate: int | None = Field(default=None, ge=0)
    #: named NPCs make the survival roll (S-G25)
    named: bool = False
    #: unaware at combat start: its first incoming attack gets +2 (S-R13/S-G17)
    unaware: bool = False
    zone: str | None = None
    squad: str | None = None
    breath_extensions: dict[str, int] = Field(default_factory=dict)

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
            out[key] = v
        missing = [a for a in ABILITIES if a not in out]
        if missing:
            raise ValueError(f"missing ability(ies) {', '.join(missing)} (all six are required)")
        return out

    @field_validator("skills")
    @classmethod
    def _skills(cls, raw: dict[str, str | int]) -> dict[str, str | int]:
        for k, v in raw.items():
            if isinstance(v, str) and v not in TIER_BONUS:
                raise ValueError(f"skill {k!r}: unknown tier {v!r}; known: {', '.join(TIER_BONUS)}")
        return raw


class MaaiEncounter(BaseModel):
    """A whole maai encounter (without the common ``system``/``script`` keys)."""

    model_config = ConfigDict(extra="forbid")

    title: str = ""
    #: side order = tie order "allies first" (S-T17, S-G49): the first side listed is the ally side
    sides: list[str] = Field(default_factory=list)
    zones: list[str] = Field(default_factory=lambda: ["field"])
    maneuvers: dict[str, Maneuver] = Field(default_factory=dict)
    units: list[UnitSpec] = Field(min_length=2)
    options: dict[str, Any] = Field(default_factory=dict)
    #: (invented) hard round cap: after this many 間合 the battle is a draw; every battle ends
    max_maai: int = Field(default=50, ge=1)
    description: str = ""

    @model_validator(mode="after")
    def _cross(self) -> MaaiEncounter:
        ids = [u.id for u in self.units]
        if len(set(ids)) != len(ids):
            raise ValueError(f"unit ids must be unique: {ids}")
        for mid, m in list(self.maneuvers.items()):
            if not m.id:
                self.maneuvers[mid] = m.model_copy(update={"id": mid})
        if not self.sides:
            for u in self.units:
                if u.side not in self.sides:
                    self.sides.append(u.side)
        return self


def _check_refs(enc: MaaiEncounter, source: str) -> None:
    known = set(enc.maneuvers)
    for i, u in enumerate(enc.units):
        if u.side not in enc.sides:
            raise InputError(f"side {u.side!r} is not one of sides {enc.sides}", source=source,
                             field=f"units.{i}.side")
        if u.zone is not None and u.zone not in enc.zones:
            raise InputError(f"zone {u.zone!r} is not one of zones {enc.zones}", source=source,
                             field=f"units.{i}.zone")
        for j, m in enumerate(u.maneuvers):
            if m not in known:
                raise InputError(f"unknown maneuver {m!r}; known: {', '.join(sorted(known))}",
                                 source=source, field=f"units.{i}.maneuvers.{j}")
        if u.stance is not None and (u.stance not in known or enc.maneuvers[u.stance].kind != "stance"):
            raise InputError(f"{u.stance!r} is not a known stance maneuver", source=source,
                             field=f"units.{i}.stance")
    if len(enc.sides) < 2:
        raise InputError("an encounter needs at least two sides", source=source, field="sides")
    if any(g not in GRADES for g in (u.grade for u in enc.units)):  # pragma: no cover - schema
        raise InputError("unknown grade", source=source, field="units")


def encounter_from_dict(data: Mapping[str, Any], source: str) -> MaaiEncounter:
    """Validate an encounter mapping; errors name ``source``, the field and the problem."""
    try:
        enc = MaaiEncounter.model_validate(dict(data))
    except ValidationError as exc:
        raise validation_error(exc, source) from None
    _check_refs(enc, source)
    return enc
