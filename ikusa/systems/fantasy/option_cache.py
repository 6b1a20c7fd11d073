"""Option lists kept by what they depend on (issue #12).

A fighter's legal options (option_list.py) depend on a few things only: the ruleset and the
battlefield, the engagements, the environment, every fighter's spec, place in the formation,
conditions (id and cause), 不意打ち standing and whether it is out, and the acting fighter's
actions left, ammunition, line of fire and fatigue.  The characters' HP enter only the
options' data (``target_hp``).  Within one encounter the same situations come back all the
time (every battle starts from the same formation; a round often ends where it began), so the
encounter's :class:`OptionBook` keeps each list met, by that key, and a decision in a known
situation copies the kept options with today's HP instead of working the list out again.

The key holds the ``id`` of the options, the battlefield and the acting fighter's spec; the
book's entry keeps those objects alive, so an id in a kept key always names the same object
(the other fighters' specs are the encounter's, the same for every battle: list_key).  No key is made (nothing
is kept or reused) while GM effects or one-off modifiers are active.
``tests/systems/fantasy/test_option_list.py`` compares every decision with the list worked out
from scratch.
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar

from ikusa.engine.protocol import Option
from ikusa.systems.fantasy.character import Fighter
from ikusa.systems.fantasy.formation import PLACE

if TYPE_CHECKING:
    from ikusa.systems.fantasy.state import FantasyState

Key = tuple[Any, ...]
#: (key, label, cost, odds, data, id of the target whose HP the data shows or None, data holds a list)
Entry = tuple[str, str, int | None, float | None, dict[str, Any], str | None, bool]

_CONDITION = attrgetter("id", "cause")
_HP = attrgetter("hp")


class OptionBook:
    """The option lists of one encounter's battles, by :func:`list_key` (bounded).  Where
    situations seldom come back (many fighters moving at random) keeping lists costs more than
    it saves: when :data:`FIRST_CHECK` lists are kept, and at each doubling up to :data:`LIMIT`,
    fewer than one reuse in four lists kept stops the keeping (the kept ones still answer)."""

    __slots__ = ("hits", "keeping", "lists")
    #: at most this many lists are kept
    LIMIT: ClassVar[int] = 2048  # ClassVar: compiled (setup.py), a plain one is an instance default
    #: the reuse is first looked at when this many lists are kept (corridor_ambush random: 1 reuse
    #: in the first 256 lists; the examples that gain from keeping reuse one in three by then)
    FIRST_CHECK: ClassVar[int] = 256

    def __init__(self) -> None:
        self.lists: dict[Key, tuple[tuple[object, ...], tuple[Entry, ...]]] = {}
        self.hits = 0
        self.keeping = True

    def __deepcopy__(self, memo: dict[int, object]) -> OptionBook:
        return self  # pure entries (setup.py)

    def get(self, key: Key) -> tuple[Entry, ...] | None:
        got = self.lists.get(key)
        if got is None:
            return None
        self.hits += 1
        return got[1]

    def keep(self, key: Key, st: FantasyState, options: list[Option]) -> None:
        """Keep ``options`` (copies of their data) under ``key``, with the objects whose ids it holds."""
        if not self.keeping:
            return
        lists = self.lists
        n = len(lists)
        if n >= self.FIRST_CHECK and n & (n - 1) == 0:  # a power of two: FIRST_CHECK, 2×, …, LIMIT
            if self.hits * 4 < n:
                self.keeping = False
                return
            if n >= self.LIMIT:
                lists.clear()
                self.hits = 0
        alive = (st.opts, st.field, *[g.spec for g in st.fighters.values()])
        lists[key] = (alive, tuple(_entry(o) for o in options))


def _entry(o: Option) -> Entry:
    data = o.data.copy()
    tid = data["target"] if "target_hp" in data else None
    has_list = False
    for k, v in data.items():
        if type(v) is list:
            data[k] = list(v)
            has_list = True
    return (o.key, o.label, o.cost, o.odds, data, tid, has_list)


def list_key(st: FantasyState, f: Fighter) -> Key | None:
    """Everything ``f``'s option list depends on but the HP; None = not to be kept or reused.

    A fighter's applying conditions are a function of its spec (senses), its own and the
    environment's conditions (id and cause) and its 不意打ち standing (surprised, acted, round
    1), so the key holds those rather than the lookups' answers (the answers' definitions do
    not depend on durations, F-G11).  Its first part, the same for every actor, is what the
    formation's answers depend on (Formation.keep_memos).  The fighters' specs are not in it:
    the battles sharing a book (one encounter's, setup.py) all have the encounter's characters
    as their fighters' specs, in order (a fighter's spec never changes; a deep copy's specs are
    equal copies), so they are the same in every key of the book."""
    fx = st.fx
    if fx.book.active or fx.next_mod:
        return None
    form = st.formation
    # 不意打ち stands while surprised and not yet acted, and (F-G01) until the first turn or in round 1
    fs = st.fighters.values()
    # first: every fighter's place (Formation.keep_memos reads it), then what changes most often
    # (two worlds are mostly told apart by their first items)
    window = st.opts.surprise_until_first_turn or st.round <= 1  # past it, 不意打ち stands for nobody
    world = (tuple(map(PLACE, fs)), tuple([tuple(map(_CONDITION, g.conds)) if g.conds else () for g in fs]),
             tuple([g.surprised and not g.acted for g in fs]) if window else (), tuple(map(_CONDITION, st.env)),
             window, id(st.opts), id(st.field), form.pairs, form.cap, form.min_valid)
    return (world, id(f.spec), f.actions, f.aimed, f.fatigue, tuple(f.shots.items()) if f.shots else ())


def hps(st: FantasyState) -> tuple[int, ...]:
    """Every fighter's HP (what a kept list's data shows besides its key)."""
    return tuple(map(_HP, st.fighters.values()))


def made(st: FantasyState, entries: tuple[Entry, ...]) -> list[Option]:
    """The options of kept entries, with today's HP."""
    fighters = st.fighters
    out = []
    for key, label, cost, odds, data, tid, has_list in entries:
        d = data.copy()
        if tid is not None:
            d["target_hp"] = fighters[tid].hp
        if has_list:
            for k, v in d.items():
                if type(v) is list:
                    d[k] = list(v)
        out.append(Option(key, label, cost, odds, d))
    return out
