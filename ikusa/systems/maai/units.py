"""Runtime unit state of a maai combat (plain slotted objects: cheap to create and read)."""

from __future__ import annotations

from ikusa.systems.maai.check import fate_uses
from ikusa.systems.maai.encounter import UnitSpec
from ikusa.systems.maai.moves import Maneuver
from ikusa.systems.maai.rules_link import (
    ARMOUR_BONUS,
    DefenceParts,
    armour_vigor_penalty,
    base_defence,
    base_wounds,
    max_vigor,
    skill_bonus,
)


class Unit:
    """One combatant during a battle."""

    __slots__ = (
        "ab", "acted", "attacks_in_breath", "breath_spent", "breaths_taken", "cur_limit", "defenceless", "extensions",
        "fate_left", "first_bonus", "grade", "hidden", "id", "incapacitated", "loaded", "max_vigor", "max_wounds",
        "moves", "name", "named", "narrowed", "parts", "passed", "reservations", "side", "side_rank", "skills", "squad",
        "stance", "status", "unaware", "vigor", "wounds", "zero_used", "zone",
    )

    def __init__(self, spec: UnitSpec, moves: dict[str, Maneuver], side_rank: int, zone: str) -> None:
        self.id = spec.id
        self.name = spec.name
        self.side = spec.side
        self.side_rank = side_rank
        self.grade = spec.grade
        self.ab = dict(spec.abilities)
        self.skills = {k: skill_bonus(v) for k, v in spec.skills.items()}
        self.moves: list[Maneuver] = [moves[m] for m in spec.maneuvers]
        tai = self.ab["tai"]
        self.max_wounds = spec.wounds if spec.wounds is not None else base_wounds(spec.grade, tai)
        self.wounds = self.max_wounds
        armour_bonus = sum(ARMOUR_BONUS[a] for a in spec.armour)
        base = spec.defence - armour_bonus if spec.defence is not None else base_defence(spec.grade)
        self.parts = DefenceParts(base, armour_bonus, 0)
        self.max_vigor = max_vigor(self.ab["gi"], armour_vigor_penalty(list(spec.armour), tai))
        self.vigor = self.max_vigor
        # S-R15 / S-G27: max(1, 運) uses per combat; a stat block may set another number (0 for mooks)
        self.fate_left = spec.fate if spec.fate is not None else fate_uses(self.ab["un"])
        self.first_bonus = spec.initiative
        self.named = spec.named or spec.grade in ("PC", "主", "将")
        self.unaware = spec.unaware
        self.zone = spec.zone or zone
        self.squad = spec.squad
        self.extensions = dict(spec.breath_extensions)
        self.stance: Maneuver | None = moves[spec.stance] if spec.stance else None
        self.defenceless = False
        self.hidden = False
        self.incapacitated = False
        self.passed = False
        self.reservations: list[Maneuver] = []
        self.zero_used: list[str] = []
        self.narrowed: int | None = None
        self.breath_spent = 0
        self.acted = 0
        self.cur_limit = 5
        self.attacks_in_breath = 0
        self.breaths_taken = 0
        self.loaded = True
        self.status = ""  # "", "重傷", "死亡"

    # -- derived numbers -------------------------------------------------------
    def skill(self, name: str | None) -> int:
        """S-R04 / S-G30: proficiency of a related skill; untrained −2; no skill → 0."""
        if name is None:
            return 0
        return self.skills.get(name, skill_bonus(None))

    def other_defence(self) -> int:
        """Non-armour 防備 bonuses (stance, S-R46)."""
        return self.stance.defence_bonus if self.stance is not None else 0

    def count_value(self) -> int:
        """S-R35 / S-T18: the count a unit acts at: 活力, + 先攻 before its first breath."""
        return self.vigor + (self.first_bonus if self.breaths_taken == 0 else 0)

    @property
    def able(self) -> bool:
        return not self.incapacitated
