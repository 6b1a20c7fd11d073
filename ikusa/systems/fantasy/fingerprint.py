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

from dataclasses import fields
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ikusa.systems.fantasy.character import Fighter
from ikusa.systems.fantasy.conditions import Cond

if TYPE_CHECKING:
    from ikusa.systems.fantasy.state import FantasyState

#: Fighter fields whose declared type is immutable (read in one C call), the lists of
#: conditions, and every other field (frozen generically)
_IMMUTABLE_TYPES = frozenset({"int", "str", "bool", "float", "int | None", "str | None", "CharacterSpec"})
_PLAIN = tuple(f.name for f in fields(Fighter) if f.type in _IMMUTABLE_TYPES)
_CONDS = tuple(f.name for f in fields(Fighter) if f.type == "list[Cond]")
_OTHER = tuple(f.name for f in fields(Fighter) if f.name not in _PLAIN and f.name not in _CONDS)
_plain = attrgetter(*_PLAIN)
#: set once from the encounter and never mutated: compared by identity
_STATE_STATIC = frozenset({"enc", "opts", "table", "field"})
#: handled below, or caches (never part of what a decision depends on)
_STATE_SKIP = frozenset({"fighters", "formation", "fx", "gm_events", "_eff_memo", "_pending_memo"})
#: the formation's own references to the state, and its caches
_FORMATION_SKIP = frozenset({"fighters", "field", "effective", "memo", "engaged_memo"})
_ATOMS = (str, int, float, bool, type(None))
_ATOM_SET = frozenset(_ATOMS)


class _Mutable(Exception):
    """A value the snapshot cannot freeze: do not reuse anything."""


def _freeze(v: Any) -> Any:
    if isinstance(v, _ATOMS):
        return v
    if isinstance(v, Cond):
        return (v.id, v.rounds, v.cause)
    if isinstance(v, list | tuple):
        t = tuple(v)
        if all(type(x) in _ATOM_SET for x in t):
            return t
        return tuple([_freeze(x) for x in t])
    if isinstance(v, dict):
        return tuple((k, _freeze(x)) for k, x in v.items())
    if isinstance(v, set | frozenset):
        return frozenset(_freeze(x) for x in v)
    if isinstance(v, BaseModel) and v.model_config.get("frozen"):
        return v  # immutable: identity/equality is enough
    raise _Mutable


def snapshot(st: FantasyState) -> tuple[Any, ...] | None:
    """Everything the pending decision of ``st`` is computed from, as comparable values;
    None when GM effects are active or an attribute holds an unknown mutable object."""
    fx = st.fx
    if fx.book.active:
        return None
    try:
        out: list[Any] = []
        for f in st.fighters.values():
            out.append(_plain(f))
            for n in _CONDS:
                out.append(tuple([(c.id, c.rounds, c.cause) for c in getattr(f, n)]))
            for n in _OTHER:
                out.append(_freeze(getattr(f, n)))
        for name, v in vars(st).items():
            if name in _STATE_STATIC:
                out.append(v)
            elif name not in _STATE_SKIP:
                out.append(name)
                out.append(v if type(v) in _ATOM_SET else _freeze(v))
        for name, v in vars(st.formation).items():
            if name not in _FORMATION_SKIP:
                out.append(name)
                out.append(v if type(v) in _ATOM_SET else _freeze(v))
        for name in type(fx).__slots__:
            if name not in ("book", "homebrew"):
                out.append((name, _freeze(getattr(fx, name))))
    except _Mutable:
        return None
    return tuple(out)
