"""The conditions that apply to one character, and what follows from them, worked out once
per distinct set (issue #12).

Which condition definitions apply (:func:`~ikusa.systems.fantasy.conditions.effective`:
senses and F-G11 stacking) is a pure function of the (id, cause) of every condition the
character has (own, environment, GM effects, 不意打ち) and of its senses.  A battle sees only
a handful of such sets, so the encounter keeps one :class:`Applying` per set, keyed by those
values (:class:`AppliesBook`, on the encounter's setup.py, shared by its battles and their
clones: every entry is a pure function of its key and the encounter's condition table, which
no battle changes).  An
:class:`Applying` also remembers the answers derived from its definitions alone: the
modifiers of a check with given tags (F-G11: additive), the condition forbidding a check,
the first condition lacking a capability, the action-cost multiplier (F-G13).

Only the *definitions* are shared.  The (Cond, ConditionDef) pairs a state hands out are
built from the character's live Cond objects each time.  A set holding the same condition
id twice is not kept (which source wins there depends on the durations, F-G11), it is
worked out directly every time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from mypy_extensions import mypyc_attr

from ikusa.systems.fantasy.conditions import Cond, ConditionDef, effective
from ikusa.systems.fantasy.resolution import Applied, blocked_by, condition_modifiers

Key = tuple[object, ...]
_ANY = Cond("")  # stands for "some source" where only the definitions are read


@mypyc_attr(allow_interpreted_subclasses=True)  # copied via cls.__new__ (deepcopy, pickle): see setup.py
class Applying:
    """One set of applying condition definitions and the answers derived from it."""

    __slots__ = ("_blocked", "_flags", "_mods", "_mult", "_totals", "area_self_only", "breath", "defs", "led",
                 "move_factor", "no_single_magic", "no_swim", "plan", "weapon_limits")

    def __init__(self, plan: tuple[tuple[int, ConditionDef], ...]) -> None:
        #: (index into the character's condition list, its definition), in effective() order
        self.plan = plan
        defs = self.defs = tuple(d for _i, d in plan)
        #: the breath environments among them (F-R18: 水中)
        self.breath = tuple(d for d in defs if d.breath)
        #: the definitions that limit weapons (F-R17/F-G14: 水中), in order
        self.weapon_limits = tuple(d for d in defs if d.weapons is not None)
        #: F-R17/F-T16: the factor of one 移動's distance (水中 ½)
        self.move_factor = min([d.move_distance_factor for d in defs] + [1.0])
        #: F-R14: no single-target spell (視界不良); area spells only centred on self
        self.no_single_magic = any(not d.single_target_magic for d in defs)
        self.area_self_only = any(d.area_magic_self_only for d in defs)
        #: F-G12: an ally may lead this character by the hand (朦朧)
        self.led = any(d.can_be_led for d in defs)
        #: F-R17/F-G14: out of depth in 中装鎧 or heavier, nobody swims here
        self.no_swim = any(d.heavy_armor_cannot_swim for d in defs)
        self._mods: dict[tuple[str, ...], tuple[Applied, ...]] = {}
        self._totals: dict[tuple[str, ...], int] = {}
        self._blocked: dict[tuple[str, ...], ConditionDef | None] = {}
        self._flags: dict[str, ConditionDef | None] = {}
        self._mult: dict[str, int] = {}

    def __deepcopy__(self, memo: dict[int, object]) -> Applying:
        return self  # pure: a cloned state shares it (its identity is part of option keys)

    def pairs(self, conds: Sequence[Cond]) -> list[tuple[Cond, ConditionDef]]:
        return [(conds[i], d) for i, d in self.plan]

    def mods(self, tags: tuple[str, ...]) -> list[Applied]:
        """F-G11: the modifiers of a check with ``tags`` (a new list each call)."""
        got = self._mods.get(tags)
        if got is None:
            got = self._mods[tags] = tuple(condition_modifiers(tags, [(_ANY, d) for d in self.defs]))
        return list(got)

    def total(self, tags: tuple[str, ...]) -> int:
        """The sum of :meth:`mods` (what a check's 達成値 gains)."""
        got = self._totals.get(tags)
        if got is None:
            got = self._totals[tags] = sum([a.value for a in self.mods(tags)])
        return got

    @classmethod
    def unkept(cls, pairs: Sequence[tuple[Cond, ConditionDef]]) -> Applying:
        """The answers of ``pairs`` worked out for one use (a set holding one condition id
        twice, which the book does not keep: :meth:`pairs` of it is not to be asked)."""
        return cls(tuple((i, d) for i, (_c, d) in enumerate(pairs)))

    def blocked(self, tags: tuple[str, ...]) -> ConditionDef | None:
        """F-R10/F-R11/F-G06: the condition forbidding a check with ``tags``."""
        if tags in self._blocked:
            return self._blocked[tags]
        got = self._blocked[tags] = blocked_by(tags, [(_ANY, d) for d in self.defs])
        return got

    def flag(self, name: str) -> ConditionDef | None:
        """The first definition whose boolean ``name`` is False ('can_*'), True for ``always_hit``."""
        if name in self._flags:
            return self._flags[name]
        got: ConditionDef | None = None
        for d in self.defs:
            v = getattr(d, name)
            if (name == "always_hit" and v) or (name != "always_hit" and not v):
                got = d
                break
        self._flags[name] = got
        return got

    def multiplier(self, action: str) -> int:
        """F-R16/F-R17/F-G13: the action-cost multiplier of the applying environment."""
        got = self._mult.get(action)
        if got is None:
            got = self._mult[action] = max([d.action_multipliers.get(action, 1) for d in self.defs] + [1])
        return got


NONE = Applying(())
"""The empty set (a character with no condition at all): every answer is the neutral one."""


class AppliesBook:
    """The :class:`Applying` of every distinct condition set an encounter's battles have met,
    by key (at most :data:`LIMIT`; then it starts afresh)."""

    __slots__ = ("sets",)
    LIMIT: ClassVar[int] = 4096  # ClassVar: compiled (setup.py), a plain one is an instance default

    def __init__(self) -> None:
        self.sets: dict[Key, Applying | None] = {}

    def __deepcopy__(self, memo: dict[int, object]) -> AppliesBook:
        return self  # pure entries: a clone of the state shares them (FantasyState.clone)

    def lookup(self, conds: list[Cond], senses: tuple[str, ...],
               table: Mapping[str, ConditionDef]) -> tuple[list[tuple[Cond, ConditionDef]], Applying | None]:
        """The applying pairs of ``conds`` and their :class:`Applying` (None when the set holds
        one condition id twice: then the pairs are worked out directly, every time)."""
        key: Key = (senses, *[(c.id, c.cause) for c in conds])
        sets = self.sets
        if key in sets:
            app = sets[key]
            if app is not None:
                return [(conds[i], d) for i, d in app.plan], app
            return effective(conds, senses, table), None
        pairs = effective(conds, senses, table)
        if len(sets) >= self.LIMIT:
            sets.clear()
        if len({c.id for c in conds}) < len(conds):
            sets[key] = None
            return pairs, None
        index = {id(c): i for i, c in enumerate(conds)}
        app = sets[key] = Applying(tuple((index[id(c)], d) for c, d in pairs))
        return pairs, app
