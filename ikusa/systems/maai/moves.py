"""The maneuver (技法) view the combat flow works on.

A maneuver comes from the content catalog (``catalog.py`` of maai-rules) or from an
encounter's ``maneuvers:`` section (homebrew).  Both are turned into :class:`Maneuver`, the
fields the flow needs (S-G11's technique schema): cost, kind, check ability and skill,
damage, tags, defence type, reservability, 0-活力 [型], stance bonuses, maintenance effects.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Kind = Literal["attack", "defence", "counter", "movement", "stance", "feat", "maintenance", "command"]

ABILITY_ALIASES = {
    "勇": "yu", "技": "gi", "體": "tai", "体": "tai", "智": "chi", "美": "bi", "運": "un",
    "yu": "yu", "gi": "gi", "tai": "tai", "chi": "chi", "bi": "bi", "un": "un",
}
ABILITIES = ("yu", "gi", "tai", "chi", "bi", "un")
ABILITY_JP = {"yu": "勇", "gi": "技", "tai": "體", "chi": "智", "bi": "美", "un": "運"}


class Maneuver(BaseModel):
    """One maneuver.  ``pierce``/``direct`` −1 = 全体 (S-R45/S-R46)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = ""
    name: str
    kind: Kind
    cost: int = Field(ge=0)
    ability: Literal["yu", "gi", "tai", "chi", "bi", "un"] = "yu"
    skill: str | None = None
    bonus: int = 0
    damage: int = Field(default=1, ge=0)
    crit_damage: int = Field(default=2, ge=0)
    pierce: int = Field(default=0, ge=-1)
    direct: int = Field(default=0, ge=-1)
    ranged: bool = False
    #: defence techniques (S-R53/S-R54): parry adds the weapon skill; evasion is 緊急回避
    defence_type: Literal["", "parry", "evasion"] = ""
    reservable: bool = False
    #: a [型] whose text says 0活力 (S-R31, S-R59)
    zero_cost: bool = False
    #: 隠密移動: a move that keeps the unit hidden (S-G15/S-G17)
    stealth: bool = False
    #: counters (S-R56/S-R57): trigger "hit_or_nullified" (一閃) or "nullified" (school 反撃)
    counter_trigger: Literal["hit_or_nullified", "nullified"] = "hit_or_nullified"
    #: stance bonuses (S-G16): non-armour 防備 and attack
    defence_bonus: int = 0
    attack_bonus: int = 0
    #: maintenance (整備) effects in 小康 (S-R36)
    effect: Literal["", "reload", "heal_wound", "cohesion"] = ""
    #: special crit damage (斬馬刀/野太刀 3, S-R43); 0 = use crit_damage
    special_crit: int = Field(default=0, ge=0)
    #: 鉄砲 crit: 1 戦力 to one other enemy in the target's zone (S-G65)
    pass_through: bool = False
    crit_extension: bool = False
    #: a gun: one loaded shot, reloaded in 小康 (S-G20)
    needs_load: bool = False
    note: str = ""

    @property
    def is_attack(self) -> bool:
        return self.kind == "attack"

    @property
    def melee(self) -> bool:
        return self.kind == "attack" and not self.ranged
