"""Formation (陣形, F-H08): units with 前衛/後衛 rows, one or two fronts (fore/rear) each with
an engagement area, front capacity, front holding, pincers, distances and areas.

* F-R08/F-R09/F-G16: front capacity = floor(width / 1.5 m), min 1;
* F-R15/F-G06/F-G07: 朦朧/麻痺/睡眠 members do not count toward holding a front;
* F-R08: a unit with only front-row members engaged on both fronts is pincered (+1);
* F-R07: in a narrow room every distance is close range and 中円 covers everyone;
* F-R09: on the cliff no line of fire from back row to enemy back row.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from operator import attrgetter
from typing import TypeVar, cast

from mypy_extensions import mypyc_attr

from ikusa.systems.fantasy.battlefields import Battlefield
from ikusa.systems.fantasy.character import Fighter
from ikusa.systems.fantasy.conditions import Cond, ConditionDef

Front = tuple[str, str]  # (unit, "fore" | "rear")
Places = tuple[tuple[object, ...], ...]  # every fighter's PLACE, in order
Effective = Callable[[Fighter], list[tuple[Cond, ConditionDef]]]
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def _memoised(memo: dict[K, V] | None, key: K, compute: Callable[[K], V]) -> V:
    """``compute(key)``, kept in ``memo`` while a reading scope holds one (None = outside)."""
    if memo is None:
        return compute(key)
    if key in memo:
        return memo[key]
    got = memo[key] = compute(key)
    return got


#: what a fighter's place in the formation is made of (Formation.keep_memos)
PLACE = attrgetter("unit", "row", "front", "down", "fallen")


@mypyc_attr(allow_interpreted_subclasses=True)  # copied via cls.__new__ (deepcopy, pickle): see setup.py
class Formation:
    """Queries over the fighters' positions; positions themselves live on :class:`Fighter`."""

    def __init__(self, fighters: Mapping[str, Fighter], field: Battlefield, engagements: list[tuple[Front, Front]],
                 width_per_fighter: float, front_min_valid: int, effective: Effective,
                 counts: Callable[[Fighter], bool] | None = None) -> None:
        self.fighters = fighters
        self.field = field
        #: the declared engagements (a tuple: the decision snapshot compares it as a value)
        self.pairs: tuple[tuple[Front, Front], ...] = tuple(engagements)
        self.cap = field.capacity(width_per_fighter)
        self.min_valid = front_min_valid
        self.effective = effective
        #: F-T14: does a fighter count toward holding its front (None: read it from effective())
        self.counts = counts
        #: issue #12: inside FantasyState.reading() (nothing is hit, moved between units or
        #: re-engaged) who is live, each unit's members, each front's engaged fronts, each
        #: unit's pincer and each front's melee reach are worked out once; None = outside
        #: such a scope (nothing moves inside one: legal._reach_if asks reach_from instead
        #: of trying a row out).
        self.memo: dict[object, list[Fighter]] | None = None
        self.engaged_memo: dict[Front, list[Front]] | None = None
        self.pincer_memo: dict[object, bool] | None = None
        self.reach_memo: dict[Front, list[Fighter]] | None = None
        #: who holds each front (F-T14: it depends on conditions), made and kept with the reach memo
        self.held_memo: dict[Front, bool] | None = None
        #: inside a reading scope: every live fighter counts toward its front (keep_memos)
        self.everyone_counts = False
        #: issue #12: every fighter's place (PLACE) when the memos of members, engaged
        #: fronts and pincers below were made; a later scope over the same places reuses them
        #: (reach also depends on who holds a front, F-T14: made anew in each scope)
        self.places: Places | None = None
        self.kept: tuple[dict[object, list[Fighter]], dict[Front, list[Front]], dict[object, bool]] | None = None
        #: issue #12: the reach memo kept with what it depends on (keep_memos)
        self.world: tuple[object, ...] | None = None
        self.kept_reach: tuple[dict[Front, list[Fighter]], dict[Front, bool]] | None = None

    def keep_memos(self, on: bool, world: tuple[object, ...] | None = None, everyone_counts: bool = False) -> None:
        """Start or end the memos of a reading scope (FantasyState.reading): those of members,
        engaged fronts and pincers are the last scope's while every fighter stands where it
        stood then (same unit, row, front, down and fallen), else fresh; the reach memo is the
        last scope's while ``world`` (every fighter's place and conditions, option_cache.py) is
        the last one's, else fresh.  A ``world`` starts with every fighter's :data:`PLACE`, in
        the fighters' order (list_key made it a moment ago: not made twice).
        ``everyone_counts``: the caller knows that no fighter holds a condition that keeps it
        from counting toward its front (F-T14), so a front is held by its headcount."""
        self.everyone_counts = on and everyone_counts
        if on:
            places = cast(Places, world[0]) if world is not None else tuple(map(PLACE, self.fighters.values()))
            if self.kept is None or places != self.places:
                self.places, self.kept = places, ({}, {}, {})
                self.world = self.kept_reach = None
            self.memo, self.engaged_memo, self.pincer_memo = self.kept
            if world is not None and self.kept_reach is not None and world == self.world:
                self.reach_memo, self.held_memo = self.kept_reach
            else:
                self.reach_memo, self.held_memo = {}, {}
                if world is not None:
                    self.world, self.kept_reach = world, (self.reach_memo, self.held_memo)
        else:
            self.memo = self.engaged_memo = self.pincer_memo = self.reach_memo = self.held_memo = None

    # -- membership ---------------------------------------------------------------------
    def live(self) -> list[Fighter]:
        return _memoised(self.memo, None, self._live)

    def _live(self, _key: object) -> list[Fighter]:
        return [f for f in self.fighters.values() if not (f.down or f.fallen)]  # not out (no property call)

    def foes(self, side: str) -> list[Fighter]:
        """The live fighters not of ``side``, in order (kept with the members in a scope)."""
        memo = self.memo
        if memo is None:
            return [f for f in self.live() if f.side != side]
        key = (side,)  # a 1-tuple: never a unit id (str) or a front (pair)
        got = memo.get(key)
        if got is None:
            got = memo[key] = [f for f in self.live() if f.side != side]
        return got

    def unit_members(self, unit: str) -> list[Fighter]:
        return _memoised(self.memo, unit, self._unit_members)

    def _unit_members(self, unit: object) -> list[Fighter]:
        return [f for f in self.live() if f.unit == unit]

    def front_members(self, front: Front) -> list[Fighter]:
        """The live front-row members at ``front`` (kept in the membership memo of a scope:
        callers only read the list)."""
        memo = self.memo
        if memo is not None:
            got = memo.get(front)
            if got is None:
                got = memo[front] = self._front_members(front)
            return got
        return self._front_members(front)

    def _front_members(self, front: Front) -> list[Fighter]:
        unit, side = front
        return [f for f in self.unit_members(unit) if f.row == "front" and f.front == side]

    def back_members(self, unit: str) -> list[Fighter]:
        return [f for f in self.unit_members(unit) if f.row == "back"]

    def side_of_unit(self, unit: str) -> str | None:
        for f in self.fighters.values():
            if f.unit == unit:
                return f.side
        return None

    def units(self) -> list[str]:
        return list(dict.fromkeys(f.unit for f in self.live()))

    # -- engagement -----------------------------------------------------------------------
    def engaged_with(self, front: Front) -> list[Front]:
        """Opposing fronts engaged with ``front`` that still have live members.  When every
        declared opponent is gone, the front closes on every live enemy unit's fore front
        (invented re-engagement, F-H08) so that a battle always progresses."""
        return _memoised(self.engaged_memo, front, self._engaged_with)

    def _engaged_with(self, front: Front) -> list[Front]:
        out: list[Front] = []
        for a, b in self.pairs:
            other = b if a == front else a if b == front else None
            if other is not None and self.unit_members(other[0]) and other not in out:
                out.append(other)
        if out or not self.unit_members(front[0]):
            return out
        side = self.side_of_unit(front[0])
        if front[1] == "rear":
            return []
        taken = {x for pair in self.pairs for x in pair}
        for unit in self.units():
            if self.side_of_unit(unit) == side:
                continue
            if (unit, "fore") in taken and any(self.unit_members(o[0]) for o in self._declared((unit, "fore"))):
                continue
            out.append((unit, "fore"))
        return out

    def _declared(self, front: Front) -> list[Front]:
        return [b if a == front else a for a, b in self.pairs if front in (a, b)]

    def engaged(self, a: Fighter, b: Fighter) -> bool:
        """Are two front-row fighters in the same engagement area?"""
        return (a.row == "front" and b.row == "front"
                and (b.unit, b.front) in self.engaged_with((a.unit, a.front)))

    def units_engaged(self, a: str, b: str) -> bool:
        """Is a front of unit ``a`` engaged with unit ``b`` (kept with the pincers in a scope)?"""
        memo = self.pincer_memo
        if memo is None:
            return self._units_engaged(a, b)
        key = (a, b)  # a pair: never a unit id, the pincer memo's other keys
        got = memo.get(key)
        if got is None:
            got = memo[key] = self._units_engaged(a, b)
        return got

    def _units_engaged(self, a: str, b: str) -> bool:
        return any(o[0] == b for fr in ("fore", "rear") for o in self.engaged_with((a, fr)))

    # -- front holding and capacity ------------------------------------------------------------
    def counts_for_front(self, f: Fighter) -> bool:
        if self.counts is not None:
            return self.counts(f)
        return all(d.counts_for_front for _c, d in self.effective(f))

    def valid_count(self, front: Front) -> int:
        """F-T14: the members that count toward holding the front (not 朦朧/麻痺/睡眠)."""
        return sum(1 for f in self.front_members(front) if self.counts_for_front(f))

    def held(self, front: Front) -> bool:
        """F-T14: enough members count toward holding ``front`` (inside a reading scope worked
        out once per front and kept with the reach memo)."""
        memo = self.held_memo
        if memo is None:
            return self.valid_count(front) >= self.min_valid
        got = memo.get(front)
        if got is None:
            n = len(self.front_members(front)) if self.everyone_counts else self.valid_count(front)
            got = memo[front] = n >= self.min_valid
        return got

    def has_room(self, front: Front) -> bool:
        """F-R08/F-R09: the front row is below the battlefield's capacity."""
        return self.cap is None or len(self.front_members(front)) < self.cap

    def pincered(self, unit: str) -> bool:
        """F-R08/F-T06: front-row members only, engaged at fore and rear (worked out once per
        unit while every fighter stands where it stands now: asked outside a reading scope, by
        an attack, it opens one for the question, reusing the memos kept for these places)."""
        memo = self.pincer_memo
        if memo is None:
            self.keep_memos(True)
            try:
                return self.pincered(unit)
            finally:
                self.keep_memos(False)
        got = memo.get(unit)
        if got is None:
            got = memo[unit] = self._pincered(unit)
        return got

    def _pincered(self, unit: str) -> bool:
        if not self.field.pincer or not self.unit_members(unit) or self.back_members(unit):
            return False
        return bool(self.engaged_with((unit, "fore"))) and bool(self.engaged_with((unit, "rear")))

    # -- reach -------------------------------------------------------------------------------
    def melee_targets(self, f: Fighter) -> list[Fighter]:
        """Enemies ``f`` can reach in melee: the engaged opposing front rows, plus the back row
        of a unit whose engaged front is not held (F-H08, F-R15).  A unit without a back row
        whose engaged front is not held (e.g. nobody at the rear of a pincered front-only unit)
        is open to the members of its other front (F-R08 挟み撃ち: 前後から).  Read only."""
        if f.row != "front":
            return []
        return self.reach_from((f.unit, f.front))

    def reach_from(self, front: Front) -> list[Fighter]:
        """Who a front-row fighter at ``front`` reaches in melee (:meth:`melee_targets`; it
        depends on the other units' rows only, so the option list asks it for a front the
        fighter is not at yet, legal._reach_if).  Read only."""
        memo = self.reach_memo
        if memo is None:
            return self._reach_from(front)
        got = memo.get(front)
        if got is None:
            got = memo[front] = self._reach_from(front)
        return got

    def _reach_from(self, front: Front) -> list[Fighter]:
        out: list[Fighter] = []
        others = self.engaged_with(front)
        for other in others:
            out.extend(self.front_members(other))
            if not self.held(other):
                behind = self.back_members(other[0]) or [
                    m for m in self.unit_members(other[0]) if m.row == "front" and m.front != other[1]]
                out.extend(behind)
        # one engaged front: its front row, back row and other front are different fighters
        return out if len(others) < 2 else list(dict.fromkeys(out))

    def distance(self, a: Fighter, b: Fighter) -> int:
        engaged = self.units_engaged(a.unit, b.unit)
        backs = (a.row == "back") + (b.row == "back")
        return self.field.distance(engaged, backs)

    def line_of_fire(self, a: Fighter, b: Fighter) -> bool:
        """F-R09: on the cliff ledge the back row cannot shoot the enemy back row."""
        return self.field.back_to_back_line_of_fire or not (a.row == "back" and b.row == "back")

    def area(self, template: str, centre: Front | str, everyone_ok: bool = True) -> list[Fighter]:
        """F-G16: 小円 = one engagement area (a front and the fronts engaged with it);
        中円 = one whole unit, or everyone in a narrow room (F-R07)."""
        if template == "中円":
            if self.field.medium_area_covers_all and everyone_ok:
                return list(self.live())
            unit = centre if isinstance(centre, str) else centre[0]
            return list(self.unit_members(unit))
        front = centre if isinstance(centre, tuple) else (centre, "fore")
        out = list(self.front_members(front))
        for other in self.engaged_with(front):
            out.extend(self.front_members(other))
        return list(dict.fromkeys(out))

    def opportunity_attackers(self, f: Fighter) -> tuple[list[Fighter], list[Fighter]]:
        """F-H09/F-R15/F-R04: enemies in ``f``'s engagement area who may make an opportunity
        attack when ``f`` withdraws, and those who are there but may not (or do not count).
        Asked outside a reading scope (an action), it opens one for the question (pincered)."""
        if self.memo is None:
            self.keep_memos(True)
            try:
                return self.opportunity_attackers(f)
            finally:
                self.keep_memos(False)
        able: list[Fighter] = []
        unable: list[Fighter] = []
        for other in self.engaged_with((f.unit, f.front)):
            for e in self.front_members(other):
                conds = self.effective(e)
                ok = all(d.can_opportunity_attack and d.counts_in_opportunity and d.can_melee for _c, d in conds)
                (able if ok else unable).append(e)
        return able, unable
