"""Characters of 千幻抄: the schema (特性値, skills, abilities, feats, items, spell cards) and
the runtime state (HP, 霊力, DP, graze, row, flags) — ANALYSIS G.C minimal model, G-H01..G-H06.

Derived numbers follow the G.D defaults (options G-G03, G-G23):
DP最大値 = 10 + 身体 + 耐久 + 意志; DP回復数 = max(2, ceil((知性+感覚)/3));
HP = 10 + 耐久 × 4; 霊力 = 意志 × 4.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ikusa.systems.sengensyou.catalog import Catalog, catalog
from ikusa.systems.sengensyou.options import SengensyouOptions

STATS = ("身体", "耐久", "知性", "感覚", "意志")
Row = Literal["front", "back"]
ROW_JA = {"front": "前衛", "back": "後衛"}


class CharacterSpec(BaseModel):
    """One character as written in an encounter file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[A-Za-z0-9_\-]+$", description="ASCII id used in option keys")
    name: str
    side: str = Field(pattern=r"^[A-Za-z0-9_\-]+$")
    row: Row = "front"
    stats: dict[str, int]
    skills: dict[str, int] = {}
    abilities: dict[str, int] = {}
    feats: dict[str, int] = {}
    items: list[str] = []
    spell_cards: list[str] = []
    spells: list[str] = []
    youdan_skill: str | None = Field(None, description="skill combined with [妖弾化] (G-G19)")
    hp: int | None = Field(None, ge=1, description="override of the G-G23 formula")
    dp_max: int | None = Field(None, ge=0, description="override of the G-G03 formula")
    dp_recovery: int | None = Field(None, ge=0, description="override of the G-G03 formula")
    reiryoku: int | None = Field(None, ge=0)
    dp: int | None = Field(None, ge=0, description="DP recorded at the end of a tense lead-in (G-R23). With "
                           "options.dp_start 'full' it is the DP at combat start (the GM has not restored yet); "
                           "with 'recovery' the character starts with this + DP回復数 (G-G35)")
    vigilant: bool = Field(True, description="警戒 (G-R24): false = can be completely surprised")
    in_alarm: bool = Field(False, description="inside [警報術]/[識域結界] (G-R24)")
    hidden: bool = Field(False, description="present but undiscovered (G-R27)")


def dp_max_of(spec: CharacterSpec, opt: SengensyouOptions) -> int:
    """G-G03: DP最大値 = 10 + 身体 + 耐久 + 意志 (unless overridden)."""
    if spec.dp_max is not None:
        return spec.dp_max
    s = spec.stats
    return opt.dp_max_base + s["身体"] + s["耐久"] + s["意志"]


def dp_recovery_of(spec: CharacterSpec, opt: SengensyouOptions) -> int:
    """G-G03: DP回復数 = max(2, ceil((知性+感覚)/3)) (unless overridden)."""
    if spec.dp_recovery is not None:
        return spec.dp_recovery
    s = spec.stats
    # 切り上げ of an integer over a positive divisor (ge=1): the exact integer ceiling
    return max(opt.dp_recovery_min, -(-(s["知性"] + s["感覚"]) // opt.dp_recovery_divisor))


def hp_of(spec: CharacterSpec, opt: SengensyouOptions) -> int:
    """G-G23: HP = 10 + 耐久 × HP係数."""
    return spec.hp if spec.hp is not None else opt.hp_base + spec.stats["耐久"] * opt.hp_factor


def reiryoku_of(spec: CharacterSpec, opt: SengensyouOptions) -> int:
    """G-G23: 霊力 = 意志 × 4."""
    return spec.reiryoku if spec.reiryoku is not None else spec.stats["意志"] * opt.reiryoku_factor


@dataclass(slots=True)
class Fighter:
    """Runtime state of one character (ANALYSIS G.C)."""

    spec: CharacterSpec
    hp_max: int
    hp: int
    dp_max: int
    dp: int
    dp_recovery: int
    reiryoku_max: int
    reiryoku: int
    row: Row
    graze: int = 0
    down: bool = False  # 気絶 or 手加減 "HP 1 but out of the fight" (G-R22)
    spared: bool = False
    escaped: bool = False
    hidden: bool = False
    in_battle: bool = True  # False for reinforcements not yet arrived (G-R28)
    # per-turn flags
    declared: int = 0
    waited: bool = False  # 待機 this turn → +2 next recovery (G-R06)
    wait_bonus: int = 0
    focus: bool = False  # 防御専念 (G-R07)
    acted: bool = False
    guard_used: bool = False  # once per turn (G-R19)
    moved: bool = False
    turn_dp_spent: bool = False  # DP spent on an own-turn free action (G-G26: then not 待機)
    escaping: bool = False
    escape_score: int = 0
    sc_used: set[str] = field(default_factory=set)
    sc_deployed: dict[str, int] = field(default_factory=dict)  # card id -> remaining SC HP
    #: the encounter's catalogue (shipped + homebrew: sengensyou/homebrew.py)
    cat: Catalog = field(default_factory=catalog, repr=False, compare=False)
    #: the sheet's id, name and side (issue #12: read everywhere, so plain slots; the spec of
    #: a fighter never changes)
    id: str = field(init=False, repr=False, compare=False)
    name: str = field(init=False, repr=False, compare=False)
    side: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.id, self.name, self.side = self.spec.id, self.spec.name, self.spec.side

    @property
    def active(self) -> bool:
        """In the fight: arrived, not down, not escaped."""
        return self.in_battle and not self.down and not self.escaped

    def stat(self, name: str) -> int:
        return self.spec.stats.get(name, 0)

    def skill(self, name: str) -> int:
        return self.spec.skills.get(name, 0)

    def ability(self, name: str) -> int:
        return self.spec.abilities.get(name, 0)

    def feat(self, name: str) -> int:
        return self.spec.feats.get(name, 0)

    def copy(self) -> Fighter:
        """An independent copy (the spec and catalogue shared: no battle changes them)."""
        g = copy.copy(self)
        g.sc_used = set(self.sc_used)
        g.sc_deployed = dict(self.sc_deployed)
        return g

    def gain_dp(self, n: int, cap: bool = True) -> int:
        """Recover ``n`` DP (capped at DP最大値 when ``cap``, G-G03); returns the gain."""
        before = self.dp
        self.dp = min(self.dp_max, self.dp + n) if cap else self.dp + n
        self.dp = max(self.dp, before)
        return self.dp - before

    def spend_dp(self, n: int) -> None:
        if n > self.dp or n < 0:  # pragma: no cover - callers validate first
            raise ValueError(f"{self.id} cannot spend {n} DP (has {self.dp})")
        self.dp -= n


def new_fighter(spec: CharacterSpec, opt: SengensyouOptions, *, dp: int | None = None,
                cat: Catalog | None = None) -> Fighter:
    """Runtime state at combat start (G-G03 / G-G35: DP starts full by default)."""
    dmax = dp_max_of(spec, opt)
    rec = dp_recovery_of(spec, opt)
    if dp is None:
        dp = spec.dp
    if opt.dp_start == "recovery":  # G-G35: DP left after the lead-in (0 unless given) + DP回復数
        start = min(dmax, (dp or 0) + rec)
    else:
        start = dmax if dp is None else min(dmax, dp)
    hp = hp_of(spec, opt)
    rei = reiryoku_of(spec, opt)
    return Fighter(spec=spec, hp_max=hp, hp=hp, dp_max=dmax, dp=start, dp_recovery=rec,
                   reiryoku_max=rei, reiryoku=rei, row=spec.row, hidden=spec.hidden, cat=cat or catalog())
