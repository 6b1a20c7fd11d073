"""Content catalogue of 千幻抄: bullet sources (G-R13..G-R18), spell cards (G-R21, G-G24),
spells (G-G22) and the names of stats/skills/abilities (G-H01, G-H02), read from
``data/*.yaml`` and validated by pydantic schemas."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ikusa.engine.encounter import validation_error

AttackKind = Literal["barrage", "shot", "homing"]
Stat = Literal["身体", "耐久", "知性", "感覚", "意志"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Requires(_Model):
    abilities: tuple[str, ...] = ()
    feats: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()


class Bullet(_Model):
    """One bullet source (弾の種別), one row of the 003 damage table (L259-304)."""

    id: str = ""
    name: str
    requires: Requires = Requires()
    level: str = Field(pattern=r"^(ability|feat):.+$")
    stats: tuple[Stat, ...]
    attacks: tuple[AttackKind, ...]
    combined_bonus: int = 0  # [妖弾化] +1 when combined with a skill (G-G19)
    weapon_skill: str | None = None  # shooting weapon: +Lv fixed when judged with it (G-G20)
    fixed_damage_skill: str | None = None  # blade wave: +〈【近接武器】〉Lv fixed (003:L270-271)
    homing_needs_item: str | None = None  # weapons home only with [業物] (G-R04)
    shot_needs_skills: tuple[str, ...] = ()  # 射撃武器: 〈【射撃武器】〉〈ショット〉の両方が必要 (003:L269)

    @property
    def level_kind(self) -> str:
        return self.level.split(":", 1)[0]

    @property
    def level_name(self) -> str:
        return self.level.split(":", 1)[1]


class SpellCard(_Model):
    """A spell card (G-R21, G-G24)."""

    id: str = ""
    name: str
    type: Literal["deploy", "consume"]
    ability: str | None = None
    hp: int = Field(0, ge=0)
    ignore_rows: bool = False
    damage_dice: int = Field(0, ge=0)
    stat: Stat = "知性"
    targets: Literal["one", "all"] = "one"
    hit_bonus: int = 10  # consume-card attack: fixed 達成値 = stat + ability Lv + this (host data)
    #: G-R24: the card's ability range in metres (host data; 0 = not stated).  Beyond the 30 m
    #: effective range, attacks on a side holding an unused card of longer range are evaded.
    range_m: int = Field(0, ge=0)


class Spell(_Model):
    """A spell (スペル, G-G22): activation check ≤ 3D against ``tn``."""

    id: str = ""
    name: str
    ability: str
    stat: Stat
    reiryoku: int = Field(ge=0)
    tn: int
    damage_dice: int = Field(ge=0)
    damage_stat: Stat
    resist: Literal["精神抵抗", "肉体抵抗"] | None = None
    resist_tn: int | None = None  # G-G21: from the data; fallback 10 + the caster's ability Lv


class Terms(_Model):
    stats: tuple[str, ...]
    skills: tuple[str, ...]
    abilities: tuple[str, ...]
    feats: tuple[str, ...]
    items: tuple[str, ...]
    skill_stats: dict[str, Stat] = {}


class Catalog(_Model):
    bullets: dict[str, Bullet]
    spellcards: dict[str, SpellCard]
    spells: dict[str, Spell]
    terms: Terms


def _load(name: str) -> Any:
    text = resources.files("ikusa.systems.sengensyou").joinpath("data", name).read_text("utf-8")
    return yaml.safe_load(text)


def _with_ids(raw: dict[str, Any]) -> dict[str, Any]:
    return {k: {**v, "id": k} for k, v in raw.items()}


@cache
def catalog() -> Catalog:
    """The shipped catalogue (validated once)."""
    data = {
        "bullets": _with_ids(_load("bullets.yaml")["bullets"]),
        "spellcards": _with_ids(_load("spellcards.yaml")["spellcards"]),
        "spells": _with_ids(_load("spells.yaml")["spells"]),
        "terms": _load("terms.yaml"),
    }
    try:
        return Catalog.model_validate(data)
    except ValidationError as exc:  # pragma: no cover - shipped data is tested
        raise validation_error(exc, "ikusa/systems/sengensyou/data") from None
