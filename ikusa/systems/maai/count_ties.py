"""Count ties (カウント進行 step 4, S-R35; S-G49): the ``count.tie_order`` tie-breakers and the
controller's choice among units still tied.

S-G49 default: equal count → higher 技, then the PC side, then allied NPCs, then enemies;
units still tied (one side, equal 技, both PCs or both NPCs) are ordered by their controller
(GM for NPCs), in headless play a seeded random order.  With ``count.same_side_ties =
"choose"`` (default) the flow asks a ``count_tie`` decision (an AI picks with its seeded rng);
``"encounter_order"`` keeps the listed order.
"""

from __future__ import annotations

from collections.abc import Sequence

from ikusa.engine.protocol import Option
from ikusa.systems.maai.count_index import CountIndex
from ikusa.systems.maai.lull import LullFlow
from ikusa.systems.maai.options import MaaiOptions
from ikusa.systems.maai.rules_snapshot import DEFAULT_TIE_ORDER
from ikusa.systems.maai.units import Unit

#: battles of at most this many units find the next actor by one scan of the units instead of
#: the state's :class:`CountIndex`: keeping buckets and a heap only pays in large battles (a
#: duel paid about 5 µs a turn for the index against 1 µs for the scan of its 2 units; at about
#: 12 units both cost the same per decision in bench_large's battles, issue #12 targets 1 and 3)
SCAN_UNITS = 12


def scan_group(units: Sequence[Unit]) -> list[Unit]:
    """S-R35/S-G49 by one scan: every unit with the best count key
    (:func:`ikusa.systems.maai.count_index.unit_key`) in encounter order, the first being
    count.next_to_act's pick; ``[]`` when ② is over.  What :meth:`CountIndex.group` gives."""
    best: tuple[int, int, int, int] | None = None
    group: list[Unit] = []
    for u in units:
        if u.incapacitated or u.passed or u.vigor <= 0:
            continue
        k = (-(u.vigor + (u.first_bonus if u.breaths_taken == 0 else 0)), -u.ab["gi"], u.side_rank,
             0 if u.grade == "PC" else 1)  # count_index.unit_key, inlined
        if best is None or k < best:
            best = k
            group = [u]
        elif k == best:
            group.append(u)
    return group


def tie_key(u: Unit, opts: MaaiOptions) -> tuple[int, ...]:
    """S-R35/S-G49: the sort key below the count (smallest first) for ``count.tie_order``,
    then side order and PCs first among the other sides; equal keys are a true tie."""
    out: list[int] = []
    first = u.side_rank == 0
    pc = u.grade == "PC"
    for item in opts.count.tie_order:
        if item == "tech":
            out.append(-u.ab["gi"])
        elif item == "pc_side":
            out.append(0 if first and pc else 1)
        elif item == "allied_npc":
            out.append(0 if first and not pc else 1)
        else:
            out.append(0 if not first else 1)
    out.append(u.side_rank)
    out.append(0 if pc else 1)
    return tuple(out)


def _eligible(u: Unit) -> bool:
    return not (u.incapacitated or u.passed or u.vigor <= 0)


def tied_candidates(units: Sequence[Unit], opts: MaaiOptions, chosen: Unit) -> tuple[Unit, list[Unit]]:
    """The unit that acts next under ``count.tie_order`` (``chosen`` is the default order's
    pick) and every unit tied with it (encounter order, itself included)."""
    if tuple(opts.count.tie_order) != DEFAULT_TIE_ORDER:
        best: Unit | None = None
        best_key: tuple[int, ...] | None = None
        for i, u in enumerate(units):
            if _eligible(u):
                k = (-u.count_value(), *tie_key(u, opts), i)
                if best_key is None or k < best_key:
                    best, best_key = u, k
        assert best is not None
        chosen = best
    count = chosen.count_value()
    key = tie_key(chosen, opts)
    tied = [u for u in units if _eligible(u) and u.count_value() == count and tie_key(u, opts) == key]
    return chosen, tied


class CountTieFlow(LullFlow):
    """The next unit to act (S-R35, from the state's :class:`CountIndex`) and the count-tie
    decision (mixed into the state)."""

    #: the units by count (maai/count_index.py); ``None`` until first needed and after a GM
    #: ruling (which may raise a count); a new 間合 or a unit added starts a new one
    count_index: CountIndex | None = None
    #: the units tied for the next breath, as :meth:`next_actor` last found them
    count_group: Sequence[Unit] = ()
    #: count → unit id → its count-tie option, this state's (:meth:`tie_options`)
    tie_table: dict[int, dict[str, Option]] | None = None

    def start_breath(self, u: Unit) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def tie_options(self, count: int, ids: list[str], tied: Sequence[Unit]) -> list[Option]:
        """The count-tie options of ``tied`` (their ids ``ids``) at count ``count``, kept per
        state (a unit's id, name and 技 are fixed in one battle): a mass battle's tie group of
        many units costs a lookup, not an option built per unit per turn."""
        table = self.tie_table
        if table is None:
            table = self.tie_table = {}
        got = table.get(count)
        if got is None:
            got = table[count] = {}
        try:
            return [got[i] for i in ids]
        except KeyError:
            for t in tied:
                if t.id not in got:
                    got[t.id] = Option(f"first:{t.id}", f"{t.name} が先に一呼吸 (カウント{count}, 技{t.ab['gi']})",
                                       data={"kind": "count_tie", "unit": t.id})
            return [got[i] for i in ids]

    def next_actor(self) -> Unit | None:
        """S-R35: the unit whose count comes next (count.next_to_act's pick), or ``None`` when
        ② is over (every unit has 0 活力 or has passed, S-G21); small battles scan
        (:data:`SCAN_UNITS`, :func:`scan_group`)."""
        units = self.units
        if len(units) <= SCAN_UNITS:
            group = self.count_group = scan_group(units)
            return group[0] if group else None
        index = self.count_index
        if index is None or not index.fresh(units, self.maai):
            index = self.count_index = CountIndex(units, self.maai)
        group = self.count_group = index.group()
        return group[0] if group else None

    def begin_turn(self, u: Unit) -> None:
        """S-R35 step 3–4 / S-G49: ``u`` (the default order's pick) or, on a true tie, the
        unit the controller chooses takes the next breath."""
        rules = self.rules
        if rules.count_ties_encounter_order and rules.count_default_tie_order:
            self.start_breath(u)
            return
        if rules.count_default_tie_order:
            # fast path: under the default order a true tie is one side, equal count and 技, both PC or both NPC
            group = self.count_group
            if group and group[0] is u:  # next_actor found them: the units with u's count key
                tied = group
            else:
                cv, gi, side, pc = u.count_value(), u.ab["gi"], u.side, u.grade == "PC"
                tied = [t for t in self.units if t.side == side and t.ab["gi"] == gi and (t.grade == "PC") == pc
                        and t.vigor + (t.first_bonus if t.breaths_taken == 0 else 0) == cv  # count_value
                        and not (t.incapacitated or t.passed or t.vigor <= 0)]  # _eligible
        else:
            u, tied = tied_candidates(self.units, self.opts, u)
        if len(tied) < 2 or rules.count_ties_encounter_order:
            self.start_breath(u)
            return
        count = u.count_value()
        ids = [t.id for t in tied]
        options = self.tie_options(count, ids, tied)
        by_id = dict(zip(ids, tied, strict=True))

        def handle(key: str) -> None:
            t = by_id[key[6:]]
            self.emit("count_tie", "S-R35,S-G49", f"カウント{count} 同値 ({'・'.join([x.name for x in tied])}): "
                      f"{t.name} が先 (操作者の選択)", unit=t.id, tied=ids, count=count)
            self.start_breath(t)

        actor = "GM" if tied[0].grade != "PC" else tied[0].side
        self.ask(actor, "count_tie", f"カウント{count}: 同じ陣営・同じ技の同値 — 誰が先に一呼吸?", options, handle)
