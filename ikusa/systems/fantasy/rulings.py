"""GM rulings in fantasy (issue #8 §2): ``FantasyState.apply_ruling`` hands every op but the
core's (``control``, ``note``) to :func:`apply_ruling` here.

* ``set``: ``hp`` (HP; ≤ 0 = 戦闘不能 as damage, F-H05; above 0 brings a downed character back);
* ``effect`` / ``remove_effect``: fantasy/effects.py's keys, ``round`` or ``permanent``;
* ``condition``: a condition of data/conditions.yaml (or homebrew) by id or name, until removed
  (one whose text demands a duration needs an effect with ``round``, F-H12); ``on: false``
  ends it (and every effect holding it);
* ``add_unit``: a character as in the encounter (same schema); it joins its side's unit in the
  back row and acts from the next round's initiative (F-H07; mid-fight entry invented);
  ``remove_unit``: it leaves the battle;
* ``skip_turn``: the character loses its turn (this one if acting, else its next this round);
  ``end_turn``: the acting character's turn ends now;
* ``modifier``: ±N on the character's next check (in its breakdown as ``+2(GM修正 GM)``);
* ``override``: the next check comes out 成功 (as 自動成功) or 失敗 (as 自動失敗);
* ``end``: the battle ends now with the winner (a side, or none).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ikusa.dice.source import DiceSource
from ikusa.engine.errors import InputError
from ikusa.engine.events import Event
from ikusa.systems.fantasy.effects import CLOCKS, MODIFIER_KEYS, OUTCOMES, condition_names
from ikusa.systems.gm_support import effect_of, remove_named_effect, resolve_alias, ruling_event, unit_of

RESOURCES: dict[str, str] = {"hp": "hp", "HP": "hp", "生命力": "hp", "ヒットポイント": "hp"}
HP_MAX = 10_000
OPS = ("set", "effect", "remove_effect", "condition", "add_unit", "remove_unit", "skip_turn", "end_turn",
       "modifier", "override", "end")


def apply_ruling(st: Any, r: Any, dice: DiceSource) -> list[Event]:
    """Apply one ruling to the fantasy state ``st``; the events it caused."""
    from ikusa.systems.fantasy import turns

    handler = _HANDLERS.get(r.op)
    if handler is None:
        raise InputError(f"op {r.op!r} is not a fantasy ruling; fantasy rulings: {', '.join(OPS)}", field="op")
    if st.over:
        raise InputError("the battle is over", field="op")
    events: list[Event] = []
    handler(st, r, events)
    if not st.over and st.started and not st.placing:
        if st.current is None:  # the acting character left: the next one's turn
            events.extend(turns._next_turn(st, dice))
        else:
            events.extend(turns.after_action(st, dice))
    return events


def _ev(r: Any, text: str, **data: Any) -> Event:
    return ruling_event(text, r.reason, r.op, **data)


def _set(st: Any, r: Any, events: list[Event]) -> None:
    from ikusa.systems.fantasy.actions import apply_damage

    f = unit_of(st.fighters, r.unit)
    resolve_alias(r.resource, RESOURCES, "fantasy resource", "resource")
    v = r.value
    if not -HP_MAX <= v <= HP_MAX:
        raise InputError(f"HP must be within ±{HP_MAX}, not {v}", field="value")
    if f.fallen:
        raise InputError(f"{f.name} has fallen off the battlefield (F-G17): HP does not bring it back",
                         field="unit")
    before = f.hp
    events.append(_ev(r, f"{f.name} HP {before}→{v}", id=f.id, resource="hp", before=before, value=v))
    if v < before:
        events.extend(apply_damage(st, f, before - v, "GM裁定"))
        return
    f.hp = v
    if f.down and v > 0:
        f.down = False
        events.append(Event("revive", "GM", f"{f.name} 戦線復帰 (HP{v})", {"id": f.id, "hp": v}))


def _effect(st: Any, r: Any, events: list[Event]) -> None:
    f = unit_of(st.fighters, r.unit)
    spec = effect_of(r, st.fx.homebrew, MODIFIER_KEYS, CLOCKS, condition_names(st.table))
    events.append(put_effect(st, f, spec, r.reason))


def put_effect(st: Any, f: Any, spec: Any, reason: str) -> Event:
    st.fx.book.add(f.id, spec, "GM")
    mods = " ".join(f"{k}{v:+d}" for k, v in spec.modifiers.items())
    cond = f" {st.table[spec.condition].name}" if spec.condition else ""
    return ruling_event(f"{f.name} に効果「{spec.name}」{mods}{cond} ({spec.duration.label()})", reason, "effect",
                        id=f.id, effect=spec.name, modifiers=dict(spec.modifiers), condition=spec.condition,
                        clock=spec.duration.clock, n=spec.duration.n)


def _remove_effect(st: Any, r: Any, events: list[Event]) -> None:
    f = unit_of(st.fighters, r.unit)
    remove_named_effect(st.fx.book, f.id, f.name, r.name)
    events.append(_ev(r, f"{f.name} の効果「{r.name}」を解除", id=f.id, effect=r.name))


def _condition(st: Any, r: Any, events: list[Event]) -> None:
    from ikusa.systems.fantasy.conditions import Cond

    f = unit_of(st.fighters, r.unit)
    cid = resolve_alias(r.name, condition_names(st.table), "condition", "name")
    d = st.table[cid]
    if r.on:
        if d.duration_required:
            raise InputError(f"{d.name} needs a duration in rounds ({d.rule}: 指定された期間は必ず付記される): "
                             f"use an effect with condition {d.id!r} and duration {{clock: round, n: N}}",
                             field="name")
        f.add(Cond(cid))
    else:
        held = [e.spec.name for e in st.fx.book.on(f.id) if e.spec.condition == cid]
        if not f.has(cid) and not held:
            raise InputError(f"{f.name} does not have {d.name}", field="name")
        f.remove(cid)
        for n in held:
            st.fx.book.remove(f.id, n)
    events.append(_ev(r, f"{f.name} {d.name} {'付与' if r.on else '解除'} ({d.rule})", id=f.id, condition=cid,
                      on=r.on))


def _add_unit(st: Any, r: Any, events: list[Event]) -> None:
    from pydantic import ValidationError

    from ikusa.systems.fantasy.character import CharacterSpec, Fighter
    from ikusa.systems.fantasy.encounter import FantasyEncounter

    try:
        spec = CharacterSpec.model_validate(r.unit)
    except ValidationError as exc:
        problems = "; ".join(f"unit.{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg')}"
                             for e in exc.errors())
        raise InputError(problems, field="unit") from None
    if spec.id in st.fighters:
        raise InputError(f"character id {spec.id!r} is already in the battle", field="unit.id")
    sides = sorted({g.side for g in st.fighters.values()})
    if spec.side not in sides:
        raise InputError(f"side {spec.side!r} is not one of sides {sides}", field="unit.side")
    for j, cs in enumerate(spec.conditions):
        if cs.id not in condition_names(st.table):
            raise InputError(f"unknown condition {cs.id!r}", field=f"unit.conditions.{j}.id")
    unit = FantasyEncounter.unit_of(st.enc, spec)
    f = Fighter(spec, spec.hp, unit, "back", spec.front)
    st.fighters[spec.id] = f
    events.append(_ev(r, f"{f.name} ({spec.side}) 参戦: HP{f.hp} 後衛 — 次のラウンドからイニシアティブ (F-H07)",
                      id=f.id, side=spec.side, hp=f.hp))


def _remove_unit(st: Any, r: Any, events: list[Event]) -> None:
    f = unit_of(st.fighters, r.unit)
    if f.fallen:
        raise InputError(f"{f.name} has already left the battle", field="unit")
    f.fallen = True  # out of the battle for good (the flag the cliff's fall uses, F-G17)
    if f.id in st.order:
        st.order.remove(f.id)
    if st.current == f.id:
        st.current = None
    events.append(_ev(r, f"{f.name} が戦場を離脱", id=f.id))


def _skip_turn(st: Any, r: Any, events: list[Event]) -> None:
    uid = r.unit or st.current
    f = unit_of(st.fighters, uid)
    if f.out:
        raise InputError(f"{f.name} is out of the battle", field="unit")
    if st.current == f.id:
        f.actions = 0
        events.append(_ev(r, f"{f.name} の手番を飛ばす", id=f.id))
        return
    if f.id not in st.order:
        raise InputError(f"{f.name} has no turn left this round (order: {', '.join(st.order) or 'none'})",
                         field="unit")
    st.order.remove(f.id)
    events.append(_ev(r, f"{f.name} の次の手番を飛ばす (第{st.round}ラウンド)", id=f.id))


def _end_turn(st: Any, r: Any, events: list[Event]) -> None:
    if st.current is None:
        raise InputError("no character is taking its turn now", field="op")
    f = st.fighters[st.current]
    f.actions = 0
    events.append(_ev(r, f"{f.name} の手番を終了させる", id=f.id))


def _modifier(st: Any, r: Any, events: list[Event]) -> None:
    f = unit_of(st.fighters, r.unit)
    st.fx.next_mod.setdefault(f.id, []).append((r.value, r.reason))
    events.append(_ev(r, f"{f.name} の次の判定に {r.value:+d}", id=f.id, value=r.value))


def _override(st: Any, r: Any, events: list[Event]) -> None:
    f = unit_of(st.fighters, r.unit) if r.unit is not None else None
    out = OUTCOMES.get(r.outcome.strip())
    if out is None:
        raise InputError(f"unknown outcome {r.outcome!r}; fantasy checks: 成功 (自動成功), 失敗 (自動失敗), "
                         "success, failure (F-G04)", field="outcome")
    st.fx.override[f.id if f is not None else ""] = (out, r.reason)
    who = f.name if f is not None else "次に判定する者"
    events.append(_ev(r, f"{who} の次の判定を{'成功' if out == 'success' else '失敗'}に", id=f.id if f else None,
                      outcome=out))


def _end(st: Any, r: Any, events: list[Event]) -> None:
    sides = sorted({g.side for g in st.fighters.values()})
    if r.winner is not None and r.winner not in sides:
        raise InputError(f"winner {r.winner!r} is not one of sides {sides} (or null: a draw)", field="winner")
    st.over = True
    st.current = None
    st.winner = r.winner
    events.append(_ev(r, f"戦闘終了: 勝者 {r.winner or 'なし'}", winner=r.winner))
    events.append(Event("end", "GM", f"戦闘終了: 勝者 {r.winner or 'なし'} (GM裁定)",
                        {"winner": r.winner, "round": st.round}))


_HANDLERS: dict[str, Callable[[Any, Any, list[Event]], None]] = {
    "set": _set, "effect": _effect, "remove_effect": _remove_effect, "condition": _condition,
    "add_unit": _add_unit, "remove_unit": _remove_unit, "skip_turn": _skip_turn, "end_turn": _end_turn,
    "modifier": _modifier, "override": _override, "end": _end,
}


def start_effects(st: Any) -> None:
    for fid, spec in st.enc.start_effects:
        st.gm_events.append(put_effect(st, st.fighters[fid], spec, "encounter effects:"))


def effects_summary(st: Any) -> list[dict[str, Any]]:
    return [{"id": e.target, "name": e.spec.name, "modifiers": dict(e.spec.modifiers),
             "condition": e.spec.condition, "left": e.left_label()} for e in st.fx.book.active]
