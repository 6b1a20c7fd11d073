"""The flow's view of a maneuver (技法): catalog entries (maneuvers, stances, 型/整備 feats)
flattened into the few numbers the combat flow reads on every decision.

The content itself (costs, tags, damage …) lives in the catalog (``catalog.py``, data/*.yaml,
or an encounter's ``homebrew:`` section in the same format); :func:`move_from_maneuver`,
:func:`move_from_stance` and :func:`move_from_feat` only read it.  Defaults the catalog leaves
open come from the options (S-G16 stance declare cost) or from S-G30 (攻撃A = 勇, 攻撃B = 技).
"""

from __future__ import annotations

from dataclasses import dataclass

from ikusa.systems.maai.catalog import Catalog, Feat, Maneuver, Stance, Tag
from ikusa.systems.maai.options import MaaiOptions

ABILITY_ALIASES = {
    "勇": "yu", "技": "gi", "體": "tai", "体": "tai", "智": "chi", "美": "bi", "運": "un",
    "yu": "yu", "gi": "gi", "tai": "tai", "chi": "chi", "bi": "bi", "un": "un",
}
ABILITIES = ("yu", "gi", "tai", "chi", "bi", "un")
ABILITY_JP = {"yu": "勇", "gi": "技", "tai": "體", "chi": "智", "bi": "美", "un": "運"}


@dataclass(frozen=True, slots=True)
class Move:
    """One usable maneuver.  ``kind``: attack, defence, counter, movement, stance, feat,
    maintenance, command.  ``reach``: 0 = melee (same zone), N = within N zones, −1 = anywhere."""

    id: str
    name: str
    kind: str
    cost: int
    ability: str = "yu"
    skill: str | None = None
    bonus: int = 0
    damage: int = 1
    crit_damage: int = 2
    behind_damage: int = 0
    crit_behind_damage: int = 0
    tags: tuple[Tag, ...] = ()
    reach: int = 0
    short: bool = False
    defence_type: str = ""
    reservable: bool = False
    zero_cost: bool = False
    stealth: bool = False
    counter_only_after_nullify: bool = False
    counter_bonus: int = 0
    defence_roll_bonus: int = 0
    defence_bonus: int = 0
    attack_bonus: int = 0
    effect: str = ""
    needs_load: bool = False
    crit_extension: bool = False
    limit_per_round: int | None = None
    aim_focus: str = ""
    #: inflicts 出血 (S-G19)
    bleed: bool = False
    #: the catalog entry (for the rules functions that read catalog maneuvers: 心府 costs, fatigue)
    src: Maneuver | None = None

    @property
    def melee(self) -> bool:
        return self.kind == "attack" and self.reach == 0

    @property
    def ranged(self) -> bool:
        return self.reach != 0


def _reach(text: str) -> int:
    if text == "melee":
        return 0
    if text == "anywhere":
        return -1
    if text.startswith("zones:"):
        return int(text[6:])
    return 0


def move_from_maneuver(cat: Catalog, m: Maneuver) -> Move:
    """A catalog maneuver as the flow uses it (S-G11 fields; S-G30 ability defaults)."""
    weapon = cat.weapons[m.weapon] if m.weapon else None
    if m.ability is not None:
        ability = ABILITY_ALIASES[m.ability]
    elif m.kind in ("defence",) or m.axis == "B":
        ability = "gi"
    else:
        ability = "yu"
    ranged = cat.is_ranged(m)
    reach = _reach(m.range) if ranged or m.range != "melee" else 0
    if ranged and reach == 0:
        reach = 1
    kind = "counter" if m.kind == "counter" or m.defence_type == "counter" else m.kind
    effect = ""
    if m.kind == "maintenance" and m.weapon == "teppou":
        effect = "reload"
    for e in ("enter_shinpu", "exit_shinpu", "breakthrough", "field_repair", "remove_bleed"):
        if e in m.effects:
            effect = e
    if m.id == "common.pick_up_weapon":
        effect = "pick_up"
    return Move(
        id=m.id, name=m.name, kind=kind, cost=m.cost, ability=ability,
        skill=m.skill or (weapon.skill if weapon else None), bonus=m.bonus, damage=m.damage,
        crit_damage=cat.crit_damage(m), behind_damage=m.behind_damage,
        crit_behind_damage=cat.crit_behind_damage(m), tags=m.tags, reach=reach, short=cat.is_short(m),
        defence_type=m.defence_type if m.defence_type in ("parry", "evasion") else "",
        reservable=m.reservable, zero_cost=m.zero_vigor_kata, stealth="hidden" in m.effects, effect=effect,
        needs_load=bool(ranged and m.limit_per_round == 1 and m.weapon == "teppou"),
        limit_per_round=m.limit_per_round, aim_focus=m.aim_focus or "", src=m, bleed="bleed" in m.effects,
    )


def move_from_stance(s: Stance, opts: MaaiOptions) -> Move:
    """A [構え] declaration (S-R58; cost S-G16 unless the stance says otherwise)."""
    cost = s.declare_cost if s.declare_cost is not None else opts.stances.declare_cost
    return Move(id=s.id, name=s.name, kind="stance", cost=cost, defence_bonus=s.defence_bonus,
                attack_bonus=s.attack_bonus)


def move_from_feat(f: Feat) -> Move | None:
    """A 特技 usable as a maneuver: a [型] (0-活力 when its text says so, S-R59) or a 整備
    maneuver for 小康 (S-R36).  [素養] are passive (``None``)."""
    if f.type == "型":
        return Move(id=f.id, name=f.name, kind="feat", cost=0 if f.zero_vigor else (f.cost or 1),
                    zero_cost=f.zero_vigor)
    if f.type == "整備":
        effect = "heal_wound" if any("wound" in e for e in f.effects) else "cohesion"
        if "replace_puppet" in f.effects:  # 陰陽師 式神再配置 (S-R36, S-G24)
            effect = "replace_puppet"
        return Move(id=f.id, name=f.name, kind="maintenance", cost=0, effect=effect)
    return None
