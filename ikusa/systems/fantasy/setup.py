"""What every battle of one encounter starts from, worked out once per encounter (issue #12).

A :class:`~ikusa.systems.fantasy.state.FantasyState` used to resolve its encounter anew at each
start: the condition table, the battlefield, every character's starting conditions, the
default engagement.  None of it changes during a battle, so the encounter keeps one
:class:`Setup` (made on the first battle, hung on the encounter object, dropped on pickling)
that every state of it reads:

* the condition table and the battlefield (no battle changes them);
* each character's starting conditions and the environment, resolved to condition ids;
* the engagement pairs (declared, or the two units' fore fronts, F-H08);
* the :class:`~ikusa.systems.fantasy.applying.AppliesBook`: the applying definitions of every
  condition set met and their answers, pure functions of the set and the table, so the battles
  of one encounter (a lab run, a bench, a server table's replays) learn each set once;
* the :class:`~ikusa.systems.fantasy.option_cache.OptionBook`: the option lists met, by what
  they depend on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ikusa.systems.fantasy.applying import AppliesBook
from ikusa.systems.fantasy.battlefields import Battlefield
from ikusa.systems.fantasy.conditions import ConditionDef, find_condition
from ikusa.systems.fantasy.option_cache import OptionBook

if TYPE_CHECKING:
    from ikusa.systems.fantasy.encounter import FantasyEncounter

Front = tuple[str, str]


class Setup:
    """The static data of one encounter's battles."""

    __slots__ = ("applies", "conds", "enc", "env", "field", "options", "pairs", "table", "units")

    def __init__(self, enc: FantasyEncounter) -> None:
        from ikusa.systems.fantasy.encounter import parse_front

        #: the encounter it was made from (a copy of that encounter makes its own)
        self.enc = enc
        self.table: dict[str, ConditionDef] = enc.condition_table()
        self.field: Battlefield = enc.field()
        #: character id → its unit
        self.units = {c.id: enc.unit_of(c) for c in enc.characters}
        #: character id → its starting conditions as (condition id, rounds, cause)
        self.conds = {c.id: tuple((self._resolve(cs.id), cs.rounds, cs.cause) for cs in c.conditions)
                      for c in enc.characters}
        self.env = tuple((self._resolve(e.id), e.rounds, e.cause) for e in enc.environment)
        pairs: list[tuple[Front, Front]] = [(parse_front(a), parse_front(b)) for a, b in enc.engagements]
        if not pairs:
            units = list(dict.fromkeys(self.units[c.id] for c in enc.characters))
            sides = {u: next(c.side for c in enc.characters if self.units[c.id] == u) for u in units}
            if len(units) == 2 and sides[units[0]] != sides[units[1]]:
                pairs = [((units[0], "fore"), (units[1], "fore"))]
        self.pairs = tuple(pairs)
        self.applies = AppliesBook()
        self.options = OptionBook()

    def _resolve(self, name: str) -> str:
        d = find_condition(name, self.table)
        assert d is not None  # checked in encounter_from_dict
        return d.id

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (_none, ())  # pickled encounters carry no setup: the next battle makes it again

    def __deepcopy__(self, memo: dict[int, object]) -> Setup:
        return self  # nothing in it changes (a copied encounter makes its own: setup_of)

    def __eq__(self, other: object) -> bool:
        # derived data: it never makes two encounters differ (pydantic compares private attributes)
        return other is None or isinstance(other, Setup)

    def __hash__(self) -> int:  # by identity, as object's (compiled, a class-level alias is dropped)
        return object.__hash__(self)


def _none() -> None:
    return None


def setup_of(enc: FantasyEncounter) -> Setup:
    """The encounter's :class:`Setup`, made on first use."""
    got: Setup | None = enc._setup
    if got is None or got.enc is not enc:
        got = enc._setup = Setup(enc)
    return got
