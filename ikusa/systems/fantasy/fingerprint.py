"""A cheap value snapshot of everything a fantasy decision depends on (issue #12).

``FantasyState.pending()`` is asked for the same decision several times between two
changes (the runner or Combat asks, then ``apply`` asks again to check the action).  The
state keeps the last decision with the snapshot it was built from and reuses it only while
the snapshot is equal, so a state changed by any means (apply, a GM ruling, a test setting
``f.hp`` directly) is never answered from a stale list.

The snapshot is generic over the fighters' and the state's attributes, so an attribute
added later is covered without touching this file; a value of a type it does not know to
be immutable (some mutable object) makes the snapshot ``None``: no reuse, never a wrong
answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ikusa.systems.fantasy.character import Fighter
from ikusa.systems.fantasy.conditions import Cond
from ikusa.systems.fantasy.effects import FantasyFx

if TYPE_CHECKING:
    from ikusa.systems.fantasy.state import FantasyState

#: Fighter fields whose declared type is immutable (read in one C call), the lists of
#: conditions, and every other field (frozen generically)
_IMMUTABLE_TYPES = frozenset({"int", "str", "bool", "float", "int | None", "str | None", "CharacterSpec",
                              "tuple[str, str] | None"})
#: copied from the spec at the start (Fighter.__post_init__): the spec stands for them
_DERIVED = frozenset({"id", "name", "side"})
_PLAIN = tuple(f.name for f in fields(Fighter) if f.type in _IMMUTABLE_TYPES and f.name not in _DERIVED)
_CONDS = tuple(f.name for f in fields(Fighter) if f.type == "list[Cond]")
#: dicts of plain keys and values (their items, as a tuple)
_ITEMS = tuple(f.name for f in fields(Fighter) if f.type in ("dict[str, int]", "dict[str, str]"))
_OTHER = tuple(f.name for f in fields(Fighter) if f.name not in _PLAIN and f.name not in _CONDS
               and f.name not in _ITEMS and f.name not in _DERIVED)
_plain = attrgetter(*_PLAIN)
#: set once from the encounter and never mutated: compared by identity
_STATE_STATIC = frozenset({"enc", "opts", "table", "field", "_base_cost"})
#: handled below, or caches (never part of what a decision depends on)
_STATE_SKIP = frozenset({"fighters", "formation", "fx", "gm_events", "_so_far", "_eff_memo", "_pending_memo",
                         "_snapshot_plan", "_senses", "_applies", "_eff_last", "_asked"})
#: the formation's immutable values (compared as they are), its own references to the
#: state, and its caches
_FORMATION_STATIC = frozenset({"pairs", "cap", "min_valid"})
_FORMATION_SKIP = frozenset({"fighters", "field", "effective", "memo", "engaged_memo", "pincer_memo", "reach_memo",
                             "places", "kept"})
#: the effects' other fields (the book is checked to be empty; homebrew definitions are static)
_FX_OTHER = tuple(n for n in FantasyFx.__slots__ if n not in ("book", "homebrew", "next_mod", "override"))
_ATOMS = (str, int, float, bool, type(None))
_ATOM_SET = frozenset(_ATOMS)


class _Mutable(Exception):
    """A value the snapshot cannot freeze: do not reuse anything."""


def _freeze(v: Any) -> Any:
    t = type(v)
    if t in _ATOM_SET:
        return v
    if t is list or t is tuple:
        for x in v:
            if type(x) not in _ATOM_SET:
                return tuple([x if type(x) in _ATOM_SET else _freeze(x) for x in v])
        return v if t is tuple else tuple(v)
    if t is dict:
        return tuple([(k, _freeze(x)) for k, x in v.items()]) if v else ()
    if t is Cond:
        return (v.id, v.rounds, v.cause)
    if t is set or t is frozenset:
        return frozenset([_freeze(x) for x in v])
    if isinstance(v, BaseModel) and v.model_config.get("frozen"):
        return v  # immutable: identity/equality is enough
    raise _Mutable


def _getter(names: list[str]) -> Callable[[Any], tuple[Any, ...]] | None:
    """One call reading ``names`` as a tuple (None for no names)."""
    if not names:
        return None
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return attrgetter(*names)


def _layout(obj: object, static: frozenset[str], skip: frozenset[str]) -> tuple[Callable[[Any], Any] | None,
                                                                             Callable[[Any], Any] | None]:
    """Getters of an object's static attributes (compared by identity/equality) and of the
    others (frozen), in ``vars`` order."""
    names = [n for n in vars(obj) if n not in skip]
    return _getter([n for n in names if n in static]), _getter([n for n in names if n not in static])


def snapshot(st: FantasyState) -> tuple[Any, ...] | None:
    """Everything the pending decision of ``st`` is computed from, as comparable values;
    None when GM effects are active or an attribute holds an unknown mutable object."""
    fx = st.fx
    if fx.book.active:
        return None
    # how many attributes the state and its formation have (an attribute added later changes
    # the layout, and the getters are made again; one removed fails loudly in its getter)
    keys = (len(vars(st)), len(vars(st.formation)))
    plan = st._snapshot_plan
    if plan is None or plan[0] != keys:
        plan = st._snapshot_plan = (keys, *_layout(st, _STATE_STATIC, _STATE_SKIP),
                                    *_layout(st.formation, _FORMATION_STATIC, _FORMATION_SKIP))
    _keys, fixed, free, form_fixed, form = plan
    try:
        fighters = st.fighters.values()
        out: list[Any] = list(map(_plain, fighters))
        for n in _CONDS:  # (fighter index, condition) for every condition of every fighter
            out.append(tuple([(i, c.id, c.rounds, c.cause) for i, f in enumerate(fighters) for c in getattr(f, n)]))
        for n in _ITEMS:
            out.append(tuple([tuple(v.items()) if (v := getattr(f, n)) else () for f in fighters]))
        for n in _OTHER:
            out.append(tuple([_freeze(getattr(f, n)) for f in fighters]))
        if fixed is not None:
            out.append(fixed(st))
        if free is not None:
            out.append(_freeze(free(st)))
        if form_fixed is not None:
            out.append(form_fixed(st.formation))
        if form is not None:
            out.append(_freeze(form(st.formation)))
        out.append(_freeze(fx.next_mod) if fx.next_mod else ())
        out.append(_freeze(fx.override) if fx.override else ())
        for name in _FX_OTHER:
            out.append(_freeze(getattr(fx, name)))
    except _Mutable:
        return None
    return tuple(out)
