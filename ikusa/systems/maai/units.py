"""Runtime unit state of a maai combat (plain slotted objects: cheap to create and read)."""

from __future__ import annotations

from typing import Any

from ikusa.systems.maai.check import fate_uses
from ikusa.systems.maai.encounter import ResolvedUnit, UnitSpec
from ikusa.systems.maai.equipment import ArmourState
from ikusa.systems.maai.moves import Move
from ikusa.systems.maai.options import MaaiOptions
from ikusa.systems.maai.rules_link import (
    DefenceBonus,
    Grade,
    armour_vigor_penalty,
    base_defence,
    base_wounds,
    max_vigor,
    skill_bonus,
)

_WEIGHT_RANK = {"なし": 0, "軽甲": 1, "重甲": 2, "重装甲": 3}


def _armour_parts(pieces: tuple[ArmourState, ...]) -> tuple[DefenceBonus, ...]:
    return tuple(DefenceBonus(a.name, a.current, "shield" if a.slot == "shield" else
                              ("natural" if a.natural else "armour")) for a in pieces)


def static_numbers(spec: UnitSpec, res: ResolvedUnit, opts: MaaiOptions) -> dict[str, Any]:
    """A unit's numbers that do not change in a battle, from the rules functions: 戦力 by
    grade (S-R60), base 防備 (S-R44), max 活力 with the heavy-armour penalty (S-R24/S-R26),
    fate uses (S-R15/S-G27), proficiency bonuses (S-G10)."""
    tai = spec.abilities["tai"]
    grade = Grade.parse(spec.grade)
    armour_bonus = sum(a.state.bonus for a in res.armour)
    by_id: dict[str, Move] = {}
    for m in res.moves:
        by_id.setdefault(m.id, m)
    defence_moves = tuple(m for m in res.moves if m.kind == "defence")
    heaviest = max((a.weight for a in res.armour), key=lambda w: _WEIGHT_RANK.get(w, 0), default="なし")
    return {
        "skills": {k: skill_bonus(v, opts) for k, v in spec.skills.items()},
        "saint": frozenset(k for k, v in spec.skills.items() if v == "聖人"),
        "breath_moves": [m for m in res.moves if m.kind != "maintenance" or m.effect == "remove_bleed"],
        "move_by_id": by_id,
        "defence_moves": defence_moves,
        "defence_ids": frozenset(m.id for m in defence_moves),
        "static_mod": {},
        "max_wounds": spec.wounds if spec.wounds is not None else base_wounds(grade, tai, opts),
        "armour_parts": _armour_parts(tuple(a.state for a in res.armour)),
        "base_def": spec.defence - armour_bonus if spec.defence is not None else base_defence(grade, opts),
        "max_vigor": max(0, max_vigor(spec.abilities["gi"], armour_vigor_penalty(heaviest, tai, opts), opts)),
        # S-R15 / S-G27: max(1, 運) uses per combat; a stat block may set another number (0 for mooks)
        "fate": spec.fate if spec.fate is not None else (
            0 if opts.fate.npcs == "none" and spec.grade != "PC" else fate_uses(spec.abilities["un"])),
    }


class UnitStart:
    """A unit's starting values, read once per encounter from its spec, its resolution and
    :func:`static_numbers` (pydantic and dict reads), so that every new state's
    :class:`Unit` copies plain native attributes (issue #12).  Held by
    ``EncounterCaches.starts``; a unit joining by a GM ruling makes its own.  Shared values are
    immutable or shared by every state already (``static_mod``: a per-encounter memo); the
    mutable ones (``ab``, ``moves``, ``extensions``) are copied by each Unit."""

    def __init__(self, spec: UnitSpec, res: ResolvedUnit, side_rank: int, opts: MaaiOptions) -> None:
        self.opts = opts
        self.id = spec.id
        self.name = spec.name
        self.side = spec.side
        self.side_rank = side_rank
        self.grade = spec.grade
        self.ab: dict[str, int] = spec.abilities
        n = res.numbers
        self.skills: dict[str, int] = n["skills"]
        self.saint: frozenset[str] = n["saint"]
        self.moves: list[Move] = res.moves
        self.move_by_id: dict[str, Move] = n["move_by_id"]
        self.static_mod: dict[int, int] = n["static_mod"]
        self.defence_moves: tuple[Move, ...] = n["defence_moves"]
        self.defence_ids: frozenset[str] = n["defence_ids"]
        self.breath_moves: list[Move] = n["breath_moves"]
        self.crit_ext: bool = res.crit_extension
        self.max_wounds: int = n["max_wounds"]
        self.armour: tuple[ArmourState, ...] = tuple(a.state for a in res.armour)
        self.armour_parts: tuple[DefenceBonus, ...] = n["armour_parts"]
        self.weapon_grades: dict[str, str] = res.weapon_grades
        self.base_def: int = n["base_def"]
        self.max_vigor: int = n["max_vigor"]
        self.fate: int = n["fate"]
        self.first_bonus: int = spec.initiative
        self.named: bool = spec.named or spec.grade in opts.death.roll_for  # S-G25
        self.unaware: bool = spec.unaware
        self.zone: str | None = spec.zone
        self.squad: str | None = spec.squad
        self.extensions: dict[str, int] = res.extensions
        self.feat_ids: tuple[str, ...] = res.feats
        self.school_ids: tuple[str, ...] = res.schools
        self.stance: Move | None = res.stance


class Unit:
    """One combatant during a battle."""

    __slots__ = (
        "_urev",
        "ab",
        "acted",
        "armour",
        "armour_parts",
        "armour_rev",
        "attacks_in_breath",
        "base_def",
        "bleeding",
        "breath_moves",
        "breath_spent",
        "breaths_taken",
        "broken",
        "changes",
        "collapse",
        "crit_ext",
        "cur_limit",
        "defence_ids",
        "defence_moves",
        "defenceless",
        "dropped",
        "extensions",
        "fate_left",
        "feat_ids",
        "first_bonus",
        "formation",
        "grade",
        "hidden",
        "id",
        "incapacitated",
        "loaded",
        "max_vigor",
        "max_wounds",
        "move_by_id",
        "moves",
        "name",
        "named",
        "narrowed",
        "opts",
        "origin",
        "passed",
        "reservations",
        "round_uses",
        "saint",
        "school_ids",
        "shinpu",
        "side",
        "side_rank",
        "sig",
        "skills",
        "squad",
        "stance",
        "static_mod",
        "status",
        "unaware",
        "vigor",
        "weapon_grades",
        "wounds",
        "zero_used",
        "zone",
    )

    def __init__(self, start: UnitStart, zone: str) -> None:
        """A unit at the start of a battle (``zone``: the encounter's first zone, unless its spec names one)."""
        #: its revision: every change of what an enemy's attack options show of it adds 1
        #: (breath_flow's per-state attack lists redo a target whose revision changed).  Every
        #: assignment of ``zone``, ``stance``, ``defenceless``, ``incapacitated``, ``sig``,
        #: ``formation``, ``unaware`` or ``armour_rev`` (and any flag a GM condition ruling sets,
        #: rulings._condition) must add 1 to it as well: they are plain slots (fast to read on the
        #: hot path), not properties (tests/systems/maai/test_attack_lists.py checks kept lists)
        #: the state's unit change log (FlowBase.unit_changes, set by the state): every bump of
        #: ``urev`` appends the unit, so an attack list redoes only the units logged since it
        #: last looked (issue #12 target 3), not a scan of every enemy
        self.changes: list[Unit] = []
        self._urev = 0
        t = start
        self.opts = t.opts
        self.id = t.id
        self.name = t.name
        self.side = t.side
        self.side_rank = t.side_rank
        self.grade = t.grade
        self.ab = dict(t.ab)
        self.skills: dict[str, int] = t.skills
        #: skills at 聖人: checks with them succeed automatically (S-R04, S-G23)
        self.saint: frozenset[str] = t.saint
        self.moves: list[Move] = list(t.moves)
        #: id → the first maneuver with it (the maneuver list never changes in a battle)
        self.move_by_id: dict[str, Move] = t.move_by_id
        #: id(move) → ability + proficiency + fixed bonus of an attack with it: static numbers,
        #: filled lazily and shared by every state of the encounter
        self.static_mod: dict[int, int] = t.static_mod
        #: its defence maneuvers in order, and their ids (what the greedy AI reserves)
        self.defence_moves: tuple[Move, ...] = t.defence_moves
        self.defence_ids: frozenset[str] = t.defence_ids
        #: the maneuvers that can appear in a breath (小康-only 整備 left out)
        self.breath_moves: list[Move] = t.breath_moves
        self.crit_ext = t.crit_ext
        self.max_wounds: int = t.max_wounds
        self.wounds: int = self.max_wounds
        # S-R44: armour class parts (the shield counts as armour)
        self.armour: tuple[ArmourState, ...] = t.armour
        self.armour_rev = 0
        self.armour_parts: tuple[DefenceBonus, ...] = t.armour_parts
        self.weapon_grades = t.weapon_grades
        self.base_def: int = t.base_def
        self.max_vigor: int = t.max_vigor
        self.vigor: int = self.max_vigor
        self.fate_left: int = t.fate
        self.first_bonus = t.first_bonus
        self.named = t.named  # S-G25
        self.unaware = t.unaware
        self.zone = t.zone or zone
        self.squad = t.squad
        self.extensions = dict(t.extensions)
        self.feat_ids = t.feat_ids
        self.school_ids = t.school_ids
        #: enemies this unit is in 心府 with (S-G12: a pairwise relation)
        self.shinpu: set[str] = set()
        self.dropped = False  # 武器落とし (S-R10/S-T51): weapon maneuvers need 武器を拾う first
        self.broken = False  # 武器破損 (S-G07): weapon maneuvers unusable until repaired
        self.bleeding = False  # 出血 (S-G19)
        self.round_uses: dict[str, int] = {}  # maneuvers with a per-間合 limit (catalog limit_per_round)
        self.formation = 0  # squad formation 防備 bonus until 小康 (S-G14)
        self.collapse = 0  # 構え崩し (S-T51): the next maneuver costs this much more
        self.stance: Move | None = t.stance
        self.defenceless = False
        self.hidden = False
        self.incapacitated = False
        self.passed = False
        self.reservations: list[Move] = []
        self.zero_used: list[str] = []
        self.narrowed = False  # the next breath follows a successful overload (S-G32)
        self.breath_spent = 0
        self.acted = 0
        self.cur_limit = 5
        self.attacks_in_breath = 0
        self.breaths_taken = 0
        self.loaded = True
        self.status = ""  # "", "重傷", "死亡"
        #: what cached option lists are keyed on besides the id: the unit's effects (and, for a
        #: unit added by a GM ruling, its spec); () for a plain unit (maai/effects.py)
        self.sig: tuple[object, ...] = ()
        self.origin = ""  # a GM-added unit: its spec as JSON (issue #8 §2)


    # -- derived numbers -------------------------------------------------------
    def skill(self, name: str | None) -> int:
        """S-R04 / S-G30: proficiency of a related skill; untrained −2; no skill → 0."""
        if name is None:
            return 0
        b = self.skills.get(name)
        if b is not None:
            return b
        return 0 if self.opts.skills.untrained_applies == "never" else skill_bonus(None, self.opts)

    def defence_bonuses(self) -> tuple[DefenceBonus, ...]:
        """Non-armour 防備 bonuses (stance, squad formation: S-R46)."""
        out: tuple[DefenceBonus, ...] = ()
        s = self.stance
        if s is not None and s.defence_bonus:
            out = (DefenceBonus(s.name, s.defence_bonus, "stance"),)
        if self.formation:
            out = (*out, DefenceBonus("陣形", self.formation, "formation"))
        return out

    @property
    def urev(self) -> int:
        return self._urev

    @urev.setter
    def urev(self, value: int) -> None:
        self._urev = value
        self.changes.append(self)

    def count_value(self) -> int:
        """S-R35 / S-T18: the count a unit acts at: 活力, + 先攻 before its first breath."""
        return self.vigor + (self.first_bonus if self.breaths_taken == 0 else 0)

    def set_armour(self, pieces: tuple[ArmourState, ...]) -> None:
        """New equipment state ([破壊], repair): the armour-class 防備 parts follow (S-R44/S-R49)."""
        self.armour = pieces
        self.armour_rev += 1
        self.urev += 1
        self.armour_parts = _armour_parts(pieces)

    def weapon_usable(self, m: Move) -> bool:
        """A weapon maneuver needs the weapon in hand and unbroken (S-R10, S-G07)."""
        if not (self.dropped or self.broken):
            return True
        if m.src is None or m.src.weapon is None or m.kind not in ("attack", "defence", "counter"):
            return True
        return not (self.dropped or self.broken)

    @property
    def able(self) -> bool:
        return not self.incapacitated
