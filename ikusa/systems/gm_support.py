"""What every system's GM rulings and effects share (issue #8 §2, §3): resolving a resource
or unit name, validating an effect's modifier keys against the system's own list, homebrew
effect tables, and the ``ruling`` event.

Each system (``ikusa/systems/<id>/rulings.py``) owns its rules; these helpers only keep the
refusals worded alike: the field named, the allowed values listed, nothing changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from difflib import get_close_matches
from typing import Any

from pydantic import BaseModel, PrivateAttr, ValidationError

from ikusa.engine.effects import EffectSpec
from ikusa.engine.errors import InputError
from ikusa.engine.events import Event

#: the rule id every ruling event cites (issue #8 §2: the GM's ruling overrides the flow)
RULING_RULE = "GM"


def ruling_event(text: str, reason: str, op: str, **data: Any) -> Event:
    """A ``ruling`` event: the narrated line ``GM裁定: … (理由: …)`` and the op's numbers."""
    why = f" (理由: {reason})" if reason else ""
    return Event("ruling", RULING_RULE, f"GM裁定: {text}{why}", {"op": op, "reason": reason, **data})


def close(name: str, names: Iterable[str]) -> str:
    """`` (close: a, b)`` when ``name`` looks like a typo of one of ``names``."""
    hits = get_close_matches(name, list(names), n=3, cutoff=0.6)
    return f" (close: {', '.join(hits)})" if hits else ""


def resolve_alias(name: str, aliases: Mapping[str, str], what: str, field: str) -> str:
    """The canonical key of ``name`` (an id or a Japanese alias); unknown → :class:`InputError`
    naming ``field`` and listing every accepted name with its id."""
    key = aliases.get(name)
    if key is None:
        key = aliases.get(name.lower())
    if key is None:
        listed = ", ".join(f"{a}={k}" if a != k else k for a, k in aliases.items())
        raise InputError(f"unknown {what} {name!r}{close(name, aliases)}; known: {listed}", field=field)
    return key


def unit_of(units: Mapping[str, Any], uid: str | None, field: str = "unit") -> Any:
    """The unit called ``uid`` (its id, or its name when unique); unknown → one clear line."""
    if uid is None:
        raise InputError("this ruling needs a unit", field=field)
    hit = units.get(uid)
    if hit is not None:
        return hit
    by_name = [u for u in units.values() if getattr(u, "name", None) == uid]
    if len(by_name) == 1:
        return by_name[0]
    listed = ", ".join(f"{k}={getattr(u, 'name', k)}" for k, u in units.items())
    raise InputError(f"unknown unit {uid!r}{close(uid, units)}; units: {listed}", field=field)


def check_effect(spec: EffectSpec, keys: Mapping[str, str], clocks: Iterable[str],
                 conditions: Mapping[str, str] | None = None, field: str = "effect") -> EffectSpec:
    """``spec`` with its modifier keys (ids or Japanese aliases in ``keys``) and its condition
    made canonical; an unknown key, a clock the system lacks or an unknown condition is an
    :class:`InputError` naming the allowed ones."""
    allowed = tuple(clocks)
    if spec.duration.clock not in allowed:
        raise InputError(f"duration clock {spec.duration.clock!r} is not one of this system's "
                         f"({', '.join(allowed)})", field=f"{field}.duration.clock")
    mods: dict[str, int] = {}
    for k, v in spec.modifiers.items():
        canon = keys.get(k)
        if canon is None:
            listed = ", ".join(f"{a}={c}" if a != c else c for a, c in keys.items())
            raise InputError(f"unknown modifier key {k!r}{close(k, keys)}; allowed: {listed}",
                             field=f"{field}.modifiers.{k}")
        mods[canon] = mods.get(canon, 0) + v
    cond = spec.condition
    if cond is not None:
        if not conditions:
            raise InputError(f"condition {cond!r}: this system's effects hold no conditions",
                             field=f"{field}.condition")
        cond = resolve_alias(cond, conditions, "condition", f"{field}.condition")
    return spec.model_copy(update={"modifiers": mods, "condition": cond})


def parse_effect(raw: Any, field: str) -> EffectSpec:
    """An :class:`EffectSpec` from file data; every problem named in one line."""
    try:
        return EffectSpec.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join([field, *(str(p) for p in e.get('loc', ()))])}: {e.get('msg', 'invalid')}"
            for e in exc.errors())
        raise InputError(problems, field=field) from None


def homebrew_effects(raw: Any, keys: Mapping[str, str], clocks: Iterable[str],
                     conditions: Mapping[str, str] | None = None,
                     field: str = "homebrew.effects") -> dict[str, EffectSpec]:
    """``homebrew: effects:`` — a mapping name → effect (the name is taken from the key when
    the entry has none) or a list of effects, each validated by the system's keys."""
    out: dict[str, EffectSpec] = {}
    if raw is None:
        return out
    items: list[tuple[str, Any]]
    if isinstance(raw, Mapping):
        items = [(str(k), v) for k, v in raw.items()]
    elif isinstance(raw, list):
        items = [(str(i), v) for i, v in enumerate(raw)]
    else:
        raise InputError("must be a mapping name → effect, or a list of effects", field=field)
    clocks = tuple(clocks)
    for k, v in items:
        where = f"{field}.{k}"
        if isinstance(raw, Mapping) and isinstance(v, Mapping) and "name" not in v:
            v = {"name": k, **v}
        spec = check_effect(parse_effect(v, where), keys, clocks, conditions, where)
        if spec.name in out:
            raise InputError(f"effect {spec.name!r} is defined twice", field=where)
        out[spec.name] = spec
    return out


def effect_of(ruling: Any, book: Mapping[str, EffectSpec], keys: Mapping[str, str], clocks: Iterable[str],
              conditions: Mapping[str, str] | None = None) -> EffectSpec:
    """The effect an ``effect`` ruling (or an encounter's ``effects:`` entry) puts on: its
    inline ``effect`` (validated) or the homebrew effect called ``name``."""
    if ruling.effect is not None:
        if ruling.name is not None:
            raise InputError("give either 'effect' (inline) or 'name' (a homebrew effect), not both", field="name")
        return check_effect(ruling.effect, keys, clocks, conditions)
    if ruling.name is None:
        raise InputError("an effect ruling needs 'effect' (inline) or 'name' (a homebrew effect)", field="effect")
    spec = book.get(ruling.name)
    if spec is None:
        listed = ", ".join(book) or "none (define them under homebrew: effects:)"
        raise InputError(f"unknown effect {ruling.name!r}{close(ruling.name, book)}; homebrew effects: {listed}",
                         field="name")
    return spec


def parts_text(parts: Iterable[tuple[int, str]], label: str = "") -> str:
    """``+1(祝福) −1(毒)`` for a breakdown (the system's label prefixed when given)."""
    return " ".join(f"{label}{v:+d}({n})" for v, n in parts)


def start_effects(raw: list[Any], book: Mapping[str, EffectSpec], unit_ids: Iterable[str],
                  keys: Mapping[str, str], clocks: Iterable[str],
                  conditions: Mapping[str, str] | None = None) -> list[tuple[str, EffectSpec]]:
    """An encounter's ``effects:`` list: each ``{unit: ID, effect: {...}}`` (inline) or
    ``{unit: ID, name: NAME}`` (a homebrew effect), active from the start."""
    ids = list(unit_ids)
    clocks = tuple(clocks)
    out: list[tuple[str, EffectSpec]] = []
    for i, item in enumerate(raw):
        where = f"effects.{i}"
        if not isinstance(item, Mapping):
            raise InputError("each entry needs 'unit' and 'effect' (inline) or 'name' (homebrew)", field=where)
        unknown = sorted(set(item) - {"unit", "effect", "name"})
        if unknown:
            raise InputError(f"unknown key(s) {unknown}; allowed: unit, effect, name", field=where)
        uid = item.get("unit")
        if not isinstance(uid, str) or uid not in ids:
            raise InputError(f"unknown unit {uid!r}{close(str(uid), ids)}; units: {', '.join(ids)}",
                             field=f"{where}.unit")

        class _Req:
            effect = parse_effect(item["effect"], f"{where}.effect") if item.get("effect") is not None else None
            name = item.get("name")

        try:
            spec = effect_of(_Req, book, keys, clocks, conditions)
        except InputError as exc:
            raise InputError(exc.message, field=f"{where}.{exc.field}") from None
        out.append((uid, spec))
    return out


def remove_named_effect(book: Any, unit_id: str, unit_name: str, name: str) -> None:
    """The ``remove_effect`` ruling on a unit's :class:`~ikusa.engine.effects.EffectBook`: an
    effect it does not hold is refused with the ones it holds listed, and nothing changes."""
    names = [e.spec.name for e in book.on(unit_id)]
    if name not in names:
        raise InputError(f"{unit_name} has no effect {name!r}; its effects: {', '.join(names) or 'none'}",
                         field="name")
    book.remove(unit_id, name)


class EffectsSetup(BaseModel):
    """The effects part of every system's encounter (issue #8 §3), resolved once at load:
    ``homebrew: effects:`` by name, and ``effects:`` as (unit id, EffectSpec) active when the
    battle starts.  Each system's ``encounter_from_dict`` fills them with its own keys."""

    _homebrew_effects: dict[str, Any] = PrivateAttr(default_factory=dict)
    _start_effects: list[tuple[str, Any]] = PrivateAttr(default_factory=list)

    @property
    def homebrew_effects(self) -> dict[str, Any]:
        return self._homebrew_effects

    @property
    def start_effects(self) -> list[tuple[str, Any]]:
        return self._start_effects
