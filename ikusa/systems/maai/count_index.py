"""The units by count (カウント進行, S-R35), kept on the state: the next unit to act and the
units tied with it (S-G49) without scanning every unit each turn (issue #12, target 3).

A unit's place is its *count key* ``(−count, −技, side rank, 0 PC / 1 NPC)``, smallest first
(:func:`ikusa.systems.maai.count.count_key` without the encounter order): units with equal keys
are a true tie under the default ``count.tie_order`` (one side, equal count and 技, both PCs or
both NPCs).  Each key has a bucket, the encounter positions of its units in ascending order, and
a heap holds the keys that have a bucket.

Within one 間合 a count only falls (活力 spent on a breath or a defence, 先攻 gone after the
first breath, a unit down or passed), so the index is corrected lazily: only the best bucket is
checked against the units, and a unit whose count fell moves to its new bucket.  What can raise
a count — a new 間合 (every 活力 back to max), a GM ruling (活力 set, revival), a unit added —
starts a new index (:meth:`CountIndex.fresh` compares the 間合 and the number of units; the
state drops its index on every ruling).  Nothing is global: the index lives on its state and is
copied with it.
"""

from __future__ import annotations

from bisect import bisect
from collections.abc import Sequence
from heapq import heappop, heappush

from ikusa.systems.maai.units import Unit

#: (−count, −技, side rank, 0 for a PC / 1 for an NPC): smallest first
CountKey = tuple[int, int, int, int]


def unit_key(u: Unit) -> CountKey | None:
    """``u``'s count key, ``None`` when it takes no more breaths in this 間合 (0 活力, passed,
    unable to fight: S-R35, S-G21)."""
    if u.incapacitated or u.passed or u.vigor <= 0:
        return None
    c = u.vigor + (u.first_bonus if u.breaths_taken == 0 else 0)  # Unit.count_value, inlined
    return (-c, -u.ab["gi"], u.side_rank, 0 if u.grade == "PC" else 1)


class _Bucket:
    """The units of one count key in encounter order, and their positions."""

    __slots__ = ("orders", "units")

    def __init__(self) -> None:
        self.orders: list[int] = []
        self.units: list[Unit] = []


class CountIndex:
    """Buckets of units by count key, and a heap of the keys (see the module)."""

    __slots__ = ("buckets", "heap", "maai", "size")

    def __init__(self, units: Sequence[Unit], maai: int) -> None:
        #: what the index was built for: a new 間合 or another unit starts a new one
        self.maai = maai
        self.size = len(units)
        self.buckets: dict[CountKey, _Bucket] = {}
        self.heap: list[CountKey] = []
        for i, u in enumerate(units):
            k = unit_key(u)
            if k is not None:
                self._add(k, i, u)

    def fresh(self, units: Sequence[Unit], maai: int) -> bool:
        """The index still stands for ``units`` in 間合 ``maai`` (no count can have risen)."""
        return self.maai == maai and self.size == len(units)

    def _add(self, k: CountKey, i: int, u: Unit) -> None:
        b = self.buckets.get(k)
        if b is None:
            b = self.buckets[k] = _Bucket()
            heappush(self.heap, k)
        j = bisect(b.orders, i)
        b.orders.insert(j, i)
        b.units.insert(j, u)

    def group(self) -> list[Unit]:
        """The units that act next (S-R35): every unit with the best count key, in encounter
        order (the first is the default order's pick, S-T17/S-G49); ``[]`` when ② is over.
        Only the best bucket is checked against its units (a plain loop: the cheapest here)."""
        heap = self.heap
        buckets = self.buckets
        while heap:
            k = heap[0]
            b = buckets[k]
            us = b.units
            c = -k[0]
            for u in us:
                if u.incapacitated or u.passed or u.vigor <= 0 or \
                        u.vigor + (u.first_bonus if u.breaths_taken == 0 else 0) != c:
                    self._sort_out(k, b)
                    break
            if heap[0] != k:  # pragma: no cover - a count rose without a new index: the better key first
                continue
            if not us:
                heappop(heap)
                del buckets[k]
                continue
            return list(us)
        return []

    def _sort_out(self, k: CountKey, b: _Bucket) -> None:
        """Keep in ``b`` the units still at key ``k``; a unit whose count fell goes to its new
        bucket (技, side and grade never change), one that is out of ② leaves."""
        c = -k[0]
        orders: list[int] = []
        units: list[Unit] = []
        moved: list[tuple[CountKey, int, Unit]] = []
        for i, u in zip(b.orders, b.units, strict=True):
            if u.incapacitated or u.passed or u.vigor <= 0:
                continue
            now = u.vigor + (u.first_bonus if u.breaths_taken == 0 else 0)
            if now == c:
                orders.append(i)
                units.append(u)
            else:
                moved.append(((-now, *k[1:]), i, u))
        b.orders[:] = orders
        b.units[:] = units
        for nk, i, u in moved:
            self._add(nk, i, u)
