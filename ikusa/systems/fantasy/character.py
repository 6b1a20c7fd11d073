"""Characters of the host model (F.C): a check value per check kind, HP, 肉体値, armour,
senses, weapons and spells (F-H01…F-H06, F-H11), and their mutable combat state.

The encounter-file schema (pydantic) and the runtime :class:`Fighter` both live here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ikusa.systems.fantasy.conditions import Cond

IdStr = str
ID_PATTERN = r"^[A-Za-z0-9_\-]+$"

#: F-H11: racial senses (ドワーフ 暗視, エルフ 低光量視覚; F-R13, F-R14)
RACE_SENSES: dict[str, tuple[str, ...]] = {"dwarf": ("darkvision",), "elf": ("lowlight",), "human": ()}


class CheckValues(BaseModel):
    """判定値 per check kind (F-H01, F-H03, F-H04, F-H10): 2D6 + value = 達成値."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    melee: int = 0
    ranged: int = 0
    evasion: int = 0
    fort: int = Field(0, description="頑健ST")
    intuition: int = Field(0, description="直感ST")
    will: int = Field(0, description="精神ST/意思ST (F-G07: one Will save)")
    magic: int = Field(0, description="魔法強度 base")
    stealth: int = Field(0, description="隠密行動")
    hide: int = Field(0, description="潜伏")
    danger_sense: int = Field(0, description="危険感知")
    initiative: int = Field(0, description="イニシアティブ base (2D6 + value each round, F-H07)")


class WeaponSpec(BaseModel):
    """A weapon (F-H05): category decides the 水中 limits (F-R17)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(pattern=ID_PATTERN)
    name: str
    kind: Literal["melee", "ranged", "thrown"] = "melee"
    category: str = "sword"
    damage_dice: int = Field(1, ge=0, le=10)
    damage_bonus: int = 0
    damage_type: Literal["刺", "叩", "斬"] = "斬"
    range_m: int = Field(0, ge=0)
    slender: bool = Field(False, description="F-R17: slender low-drag thrown weapon (javelin types)")
    ammo: int | None = Field(None, ge=0, le=999, description="F-H05: shots (arrows, bolts, stones) or thrown "
                             "weapons carried; each ranged/thrown attack uses one; none = not counted")


class SpellSpec(BaseModel):
    """A spell or miracle (F-H06): targeting mode, 魔法強度 vs a ST, and its effect."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(pattern=ID_PATTERN)
    name: str
    target: Literal["single", "area"] = "single"
    area: Literal["小円", "中円"] = "小円"
    center: Literal["self", "other"] = "other"
    select: bool = Field(False, description="範囲（選択）: allies inside are excluded")
    save: Literal["fort", "will", "intuition_avoid", "intuition_perceive"] = "will"
    damage_dice: int = Field(0, ge=0, le=10)
    damage_bonus: int = 0
    condition: str | None = None
    rounds: int | None = Field(None, ge=1)
    ally: bool = Field(False, description="targets an ally (no ST); e.g. a cure")
    cures: tuple[str, ...] = Field((), description="F-R15/F-H12: cure tags it removes (e.g. mental)")
    range_m: int | None = Field(None, ge=0, le=999, description="F-H06: reach of a spell not centred on "
                                "self (the target, or the nearest member of the area's front/unit); none = "
                                "anywhere on the battlefield")


class ConditionSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    rounds: int | None = Field(None, ge=1)
    cause: Literal["light", "physical", "fog", "sandstorm", "water"] = "light"


class CharacterSpec(BaseModel):
    """One character in the encounter file."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(pattern=ID_PATTERN)
    name: str
    side: str = Field(pattern=ID_PATTERN)
    unit: str | None = Field(None, pattern=ID_PATTERN, description="F-R02: a solo stealther is its own unit")
    row: Literal["front", "back"] = "front"
    front: Literal["fore", "rear"] = "fore"
    hp: int = Field(ge=1, le=999)
    race: str = "human"
    senses: tuple[str, ...] = ()
    body: int = Field(3, ge=0, le=20, description="肉体値 (F-R18 free rounds underwater)")
    armor: Literal["none", "light", "medium", "heavy"] = "light"
    values: CheckValues = CheckValues()
    weapons: tuple[WeaponSpec, ...] = ()
    spells: tuple[SpellSpec, ...] = ()
    conditions: tuple[ConditionSpec, ...] = ()
    air: bool = Field(True, description="F-R18: false = cannot breathe (underwater)")
    out_of_depth: bool = Field(False, description="F-R17: feet do not reach the bottom")
    elevated: bool = Field(False, description="F-R12: shoots from above (見下ろす角度)")

    def all_senses(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((*RACE_SENSES.get(self.race, ()), *self.senses)))


@dataclass(slots=True, eq=False)
class Fighter:
    """A character's mutable combat state."""

    spec: CharacterSpec
    hp: int
    unit: str
    row: str
    front: str
    conds: list[Cond] = field(default_factory=list)
    down: bool = False
    fallen: bool = False
    surprised: bool = False
    acted: bool = False
    initiative: int | None = None
    actions: int = 0
    breathless_rounds: int = 0
    fatigue: int = 0
    #: F-H05: ranged/thrown attacks made with each weapon (against WeaponSpec.ammo)
    shots: dict[str, int] = field(default_factory=dict)
    #: (row, front) where 射線の確保 was taken (options.line_of_fire 'screened'); it holds
    #: while the character stays there (lines.py)
    aimed: tuple[str, str] | None = None

    #: the spec's id, name and side, read on every query (issue #12: plain slots, not
    #: properties; a fighter's spec never changes)
    id: str = field(init=False)
    name: str = field(init=False)
    side: str = field(init=False)

    def __post_init__(self) -> None:
        self.id, self.name, self.side = self.spec.id, self.spec.name, self.spec.side

    @property
    def out(self) -> bool:
        """Out of the battle: down (HP ≤ 0) or fallen off the cliff (F-G17)."""
        return self.down or self.fallen

    def has(self, cond_id: str) -> bool:
        for c in self.conds:  # a plain loop: asked ~5 times a decision (issue #12)
            if c.id == cond_id:
                return True
        return False

    def add(self, cond: Cond) -> None:
        """F-G11: the same condition twice keeps the longer duration."""
        for i, c in enumerate(self.conds):
            if c.id == cond.id and c.cause == cond.cause:
                if c.rounds is not None and (cond.rounds is None or cond.rounds > c.rounds):
                    self.conds[i] = cond
                return
        self.conds.append(cond)

    def remove(self, cond_id: str) -> None:
        self.conds = [c for c in self.conds if c.id != cond_id]

    def weapon(self, wid: str) -> WeaponSpec | None:
        return next((w for w in self.spec.weapons if w.id == wid), None)

    def spell(self, sid: str) -> SpellSpec | None:
        return next((s for s in self.spec.spells if s.id == sid), None)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "side": self.side, "hp": self.hp}
