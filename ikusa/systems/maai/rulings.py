"""GM rulings in maai (issue #8 §2): ``MaaiState.apply_ruling`` hands every op but the
core's (``control``, ``note``) to :func:`apply_ruling` here.

Ops and what they touch:

* ``set``: ``wounds`` (戦力, 0…max, S-R60; 0 = 戦闘不能 by S-R61), ``vigor`` (活力 0…100,
  S-R24; not for a 式神/傀儡, S-G24), ``fate`` (運命介入 left, 0…10, S-R15);
* ``effect`` / ``remove_effect``: modifier keys and clocks of maai/effects.py;
* ``condition``: the statuses the engine has: 出血 (S-G19), 無防備 (S-R63/S-R64: 防備 −4 until
  its next breath), 武器落とし (S-R10), 武器破損 (S-G07);
* ``add_unit``: a unit written as in the encounter (the same schema and catalog); it joins
  the count with its full 活力 and acts when the count reaches it (S-R35; mid-fight entry is
  invented); ``remove_unit``: it leaves the battle (no survival roll);
* ``skip_turn``: the unit passes this 間合 (S-G21: no more breaths, 活力 kept for reactions);
  ``end_turn``: the acting unit's breath ends now (with its overload check, S-R29);
* ``modifier``: ±N on the unit's next 2d10 check (shown in that check's line);
* ``override``: the next check of the unit (or anyone's) comes out as 成功/失敗/会心/失着/天命/
  業報, or the next d100 table roll is the number given (S-R11/S-G07);
* ``end``: the battle ends now with the winner (a side, or none); no survival rolls.

A refused ruling raises :class:`InputError` naming the field and changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ikusa.dice.source import DiceSource
from ikusa.engine.effects import Duration, EffectSpec
from ikusa.engine.errors import InputError, RuleViolation
from ikusa.engine.events import Event
from ikusa.systems.gm_support import effect_of, remove_named_effect, resolve_alias, ruling_event, unit_of
from ikusa.systems.maai.effects import CLOCKS, MODIFIER_KEYS, OUTCOMES, fear_conditions, refresh_sig

RESOURCES: dict[str, str] = {
    "wounds": "wounds", "戦力": "wounds",
    "vigor": "vigor", "活力": "vigor",
    "fate": "fate", "fate_left": "fate", "運命": "fate", "運命介入": "fate",
}
#: condition name → the unit flag it sets
CONDITIONS: dict[str, str] = {
    "出血": "bleeding", "bleeding": "bleeding",
    "無防備": "defenceless", "defenceless": "defenceless",
    "武器落とし": "dropped", "dropped": "dropped",
    "武器破損": "broken", "broken": "broken",
}
_COND_JA = {"bleeding": "出血", "defenceless": "無防備", "dropped": "武器落とし", "broken": "武器破損"}
VIGOR_MAX = 100
#: the ops this module applies (the web table lists them)
OPS = ("set", "effect", "remove_effect", "condition", "add_unit", "remove_unit", "skip_turn", "end_turn",
       "modifier", "override", "end")


def apply_ruling(st: Any, r: Any, dice: DiceSource) -> list[Event]:
    """Apply one ruling to the maai state ``st``; the events it caused."""
    handler = _HANDLERS.get(r.op)
    if handler is None:
        raise InputError(f"op {r.op!r} is not a maai ruling; maai rulings: {', '.join(OPS)}", field="op")
    st.dice = dice
    asked = st.wait
    handler(st, r)
    w = st.wait
    if st.phase != "over" and (w is None or w.decision.kind == "breath"):
        # the breath's options depend on what the ruling changed: ask again (or move on)
        st.wait = None
        st._advance()
    elif st.phase != "over" and w is asked and w.again is not None:
        # a reaction or fate question: its options came from numbers the ruling may have
        # changed, so it is asked anew from the state as it is now (issue #8 §2: rulings
        # whatever is pending).  It may no longer arise (no 運命介入 left, no 活力 for a
        # defence): the flow then goes on as it would have without it.
        st.wait = None
        w.again()
        if st.wait is None and st.phase != "over":
            st._advance()
    out: list[Event]
    out, st.ev = st.ev, []
    return out


def _emit(st: Any, text: str, r: Any, **data: Any) -> None:
    st.ev.append(ruling_event(text, r.reason, r.op, **data))


def _busy(st: Any, u: Any) -> None:
    """S-R53 (000 §3.7 防御): a defender answering an attack already rolled against it is in that
    attack until it resolves; it cannot leave the battle in the middle of its own defence."""
    w = st.wait
    if w is not None and w.decision.actor == u.id and w.decision.kind in ("reaction", "fate"):
        raise InputError(f"S-R53 (000 §3.7): {u.name} is answering {w.decision.kind!r} in an attack being "
                         "resolved; remove it once the attack has resolved", field="unit")


def _set(st: Any, r: Any) -> None:
    u = unit_of(st.by_id, r.unit)
    res = resolve_alias(r.resource, RESOURCES, "maai resource", "resource")
    v = r.value
    if res == "wounds":
        if not 0 <= v <= u.max_wounds:
            raise InputError(f"戦力 of {u.name} must be 0…{u.max_wounds} (S-R60), not {v}", field="value")
        before = u.wounds
        _emit(st, f"{u.name} 戦力 {before}→{v}", r, unit=u.id, resource=res, before=before, value=v)
        if v < before:
            st.wound(u, before - v, "GM,S-R61", "GM裁定")
        else:
            u.wounds = v
            if u.incapacitated and v > 0 and u.status != "死亡":
                u.incapacitated = False
                u.urev += 1  # the attack lists on it (Unit.urev)
                st.emit("revive", "GM", f"{u.name} 戦線復帰 (戦力{v})", unit=u.id)
        return
    if res == "vigor":
        if st.resolved_of(u.id).numbers["max_vigor"] == 0 and u.max_vigor == 0:
            raise InputError(f"{u.name} has no 活力 of its own (S-G24 式神/傀儡: its operator's is used)",
                             field="resource")
        if not 0 <= v <= VIGOR_MAX:
            raise InputError(f"活力 of {u.name} must be 0…{VIGOR_MAX} (S-R24), not {v}", field="value")
        before, u.vigor = u.vigor, v
        _emit(st, f"{u.name} 活力 {before}→{v}", r, unit=u.id, resource=res, before=before, value=v)
        return
    if not 0 <= v <= 10:
        raise InputError(f"運命介入 uses of {u.name} must be 0…10 (S-R15), not {v}", field="value")
    before, u.fate_left = u.fate_left, v
    _emit(st, f"{u.name} 運命介入 残り {before}→{v}", r, unit=u.id, resource=res, before=before, value=v)


def _effect(st: Any, r: Any) -> None:
    u = unit_of(st.by_id, r.unit)
    spec = effect_of(r, st.fx.homebrew, MODIFIER_KEYS, CLOCKS, fear_conditions(list(st.by_id)))
    put_effect(st, u, spec, r.reason, "effect")


def put_effect(st: Any, u: Any, spec: Any, reason: str, op: str) -> None:
    """Put ``spec`` on ``u`` with its ``ruling`` event (also the encounter's start effects)."""
    st.fx.book.add(u.id, spec, "GM")
    refresh_sig(st, u.id)
    mods = " ".join(f"{k}{v:+d}" for k, v in spec.modifiers.items())
    st.ev.append(ruling_event(f"{u.name} に効果「{spec.name}」{mods} ({spec.duration.label()})", reason, op,
                              unit=u.id, effect=spec.name, modifiers=dict(spec.modifiers),
                              clock=spec.duration.clock, n=spec.duration.n))


def _remove_effect(st: Any, r: Any) -> None:
    u = unit_of(st.by_id, r.unit)
    remove_named_effect(st.fx.book, u.id, u.name, r.name)
    refresh_sig(st, u.id)
    _emit(st, f"{u.name} の効果「{r.name}」を解除", r, unit=u.id, effect=r.name)


def _condition(st: Any, r: Any) -> None:
    u = unit_of(st.by_id, r.unit)
    if r.name.startswith(("恐怖>", "fear>")):
        _fear(st, u, r)
        return
    flag = resolve_alias(r.name, CONDITIONS, "maai condition", "name")
    ja = _COND_JA[flag]
    if flag == "defenceless":
        if r.on:
            if u.incapacitated:
                raise InputError(f"{u.name} is 戦闘不能: 無防備 does not apply (S-R64)", field="unit")
            _emit(st, f"{u.name} を無防備に", r, unit=u.id, condition=ja, on=True)
            st.make_defenceless(u, "GM裁定")
            return
        u.defenceless = False
        u.urev += 1  # the attack lists on it (Unit.urev)
    else:
        setattr(u, flag, r.on)
        u.urev += 1  # the attack lists on it (Unit.urev)
    _emit(st, f"{u.name} {ja} {'付与' if r.on else '解除'}", r, unit=u.id, condition=ja, on=r.on)


def _fear(st: Any, u: Any, r: Any) -> None:
    """S-G18: a fear check 2d10 + 勇 ≥ fear.tn against the source; on failure the unit may not
    attack the source until its own next breath (an effect on the breath clock).  ``on: false``
    ends the fear."""
    src = unit_of(st.by_id, r.name.split(">", 1)[1], "name")
    cond = f"fear>{src.id}"
    if not r.on:
        held = [e.spec.name for e in st.fx.book.on(u.id) if e.spec.condition == cond]
        if not held:
            raise InputError(f"{u.name} does not fear {src.name}", field="name")
        for n in held:
            st.fx.book.remove(u.id, n)
        refresh_sig(st, u.id)
        _emit(st, f"{u.name} の{src.name}への恐怖 解除 (S-G18)", r, unit=u.id, source=src.id)
        return
    w = st.wait
    if w is not None and w.decision.kind != "breath":
        raise InputError(f"S-G18: a fear check is rolled between breaths; it waits until {w.decision.actor}'s "
                         f"{w.decision.kind!r} is answered", field="name")
    if src.side == u.side or not u.able:
        raise InputError(f"{u.name} cannot be frightened by {src.name} (an able unit, an enemy source; S-G18)",
                         field="name")
    tn = st.opts.fear.tn
    _emit(st, f"{u.name} 恐怖抵抗判定 ({src.name}, 目標値{tn}, S-G18)", r, unit=u.id, source=src.id, tn=tn)
    st.wait = None

    def rolled(c: Any) -> None:
        ok = c.success
        st.emit("fear", "S-G18", f"{u.name} 恐怖抵抗 {src.name}: 2D10[{c.dice[0]},{c.dice[1]}]"
                f"{c.applied_modifier:+d}={c.total} {'≥' if ok else '<'} {tn} → "
                f"{'成功' if ok else '失敗: 次の一呼吸まで攻撃不可'}", unit=u.id, source=src.id,
                total=c.total, success=ok)
        if not ok:
            spec = EffectSpec(name=f"恐怖({src.name})", condition=cond, duration=Duration(clock="breath"),
                              note="S-G18: no attack maneuvers against the source")
            st.fx.book.add(u.id, spec, "S-G18")
            refresh_sig(st, u.id)

    st.check(u, u.ab["yu"], tn, f"恐怖抵抗 ({src.name})", rolled, relevance="success")


def fear_refusal(st: Any, u: Any, action: str) -> RuleViolation | None:
    """S-G18: an attack on a unit ``u`` fears is refused naming the rule."""
    target = action.partition(">")[2].partition("+")[0]
    if action.startswith("use:") and target in st.fx.feared(u.id):
        t = st.by_id[target]
        return RuleViolation("S-G18", "000 恐怖抵抗", f"{u.name} fears {t.name}: no attack maneuvers against it "
                             "until its next breath")
    return None


def _add_unit(st: Any, r: Any) -> None:
    from ikusa.systems.maai.encounter import UnitSpec, _resolve_unit
    from ikusa.systems.maai.units import Unit, UnitStart

    try:
        spec = UnitSpec.model_validate(r.unit)
    except Exception as exc:  # pydantic's ValidationError: every problem in one line
        errors = getattr(exc, "errors", None)
        problems = "; ".join(f"unit.{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg')}"
                             for e in errors()) if callable(errors) else str(exc)
        raise InputError(problems, field="unit") from None
    if spec.id in st.by_id:
        raise InputError(f"unit id {spec.id!r} is already in the battle", field="unit.id")
    sides = [s for s, _ in st.side_units]
    if spec.side not in sides:
        raise InputError(f"side {spec.side!r} is not one of sides {sides}", field="unit.side")
    zones = st.enc.zones
    if spec.zone is not None and spec.zone not in zones:
        raise InputError(f"zone {spec.zone!r} is not one of zones {zones}", field="unit.zone")
    if spec.operator is not None:
        raise InputError("a 式神/傀儡 (operator) cannot join mid-fight (S-G24)", field="unit.operator")
    origin = json.dumps(r.unit, ensure_ascii=False, sort_keys=True)
    # the same spec resolves to the same maneuver objects in every state of this encounter: its memos
    # are keyed by their identity (a state's own, freed with it, could hand a later one a wrong cost)
    joined = st.caches.joined
    res = joined.get((origin, len(st.units)))
    if res is None:
        res = joined[(origin, len(st.units))] = _resolve_unit(st.enc.catalog, st.opts, spec, len(st.units),
                                                               "<ruling>")
    rank = sides.index(spec.side)
    u = Unit(UnitStart(spec, res, rank, st.opts), zones[0])
    u.changes = st.unit_changes  # its revision bumps go to the state's log (FlowBase.unit_changes)
    u.origin = origin
    st.fx.extra_resolved[u.id] = res
    st.units.append(u)
    st.by_id[u.id] = u
    st.side_units[rank][1].append(u)
    refresh_sig(st, u.id)
    st.memo[("guard_possible",)] = 1  # it may hold 護衛態勢: look for holders (always correct)
    _emit(st, f"{u.name} ({spec.side}) 参戦: 戦力{u.wounds} 活力{u.vigor} — カウント{u.vigor}で行動 (S-R35)", r,
          unit=u.id, side=spec.side, vigor=u.vigor, wounds=u.wounds)


def _remove_unit(st: Any, r: Any) -> None:
    u = unit_of(st.by_id, r.unit)
    _busy(st, u)
    if u.status == "離脱":
        raise InputError(f"{u.name} has already left the battle", field="unit")
    u.incapacitated = True
    u.urev += 1  # the attack lists on it (Unit.urev)
    u.named = False  # no survival roll: it left, it did not fall
    u.status = "離脱"
    u.vigor = 0
    u.reservations.clear()
    st.leave_shinpu(u)
    if st.actor is u:
        st.actor = None
        st.wait = None
    _emit(st, f"{u.name} が戦場を離脱", r, unit=u.id)


def _skip_turn(st: Any, r: Any) -> None:
    uid = r.unit or (st.actor.id if st.actor is not None else None)
    u = unit_of(st.by_id, uid)
    if not u.able:
        raise InputError(f"{u.name} cannot fight: it has no breath to skip", field="unit")
    if u.passed:
        raise InputError(f"{u.name} has already passed this 間合 (S-G21)", field="unit")
    w = st.wait
    if st.actor is u and w is not None and w.decision.kind != "breath":
        raise InputError(f"S-R53 (000 §3.7): {u.name}'s maneuver is being resolved ({w.decision.actor} answers "
                         f"{w.decision.kind!r}); skip its turn once it has resolved", field="unit")
    _emit(st, f"{u.name} の手番を飛ばす: この間合はパス (S-G21)", r, unit=u.id)
    if st.actor is u:
        st.wait = None
        st.do_pass(u)
    else:
        u.passed = True


def _end_turn(st: Any, r: Any) -> None:
    w = st.wait
    u = st.actor
    if u is None or w is None or w.decision.kind != "breath" or w.decision.actor != u.id:
        kind = w.decision.kind if w is not None else "none"
        raise InputError(f"no breath is being taken now (pending: {kind}); end_turn ends the acting unit's "
                         "breath (S-R35)", field="op")
    _emit(st, f"{u.name} の一呼吸を終了させる", r, unit=u.id)
    st.wait = None
    if u.acted:
        st.finish_breath(u)
    else:
        st.do_pass(u)


def _modifier(st: Any, r: Any) -> None:
    u = unit_of(st.by_id, r.unit)
    st.fx.next_mod.setdefault(u.id, []).append((r.value, r.reason))
    _emit(st, f"{u.name} の次の判定に {r.value:+d}", r, unit=u.id, value=r.value)


def _override(st: Any, r: Any) -> None:
    u = unit_of(st.by_id, r.unit) if r.unit is not None else None
    out = r.outcome.strip()
    if out not in OUTCOMES and not (out.isdigit() and 1 <= int(out) <= 100):
        names = ", ".join(dict.fromkeys(o.value for o in OUTCOMES.values()))
        raise InputError(f"unknown outcome {out!r}; a check's: {names} (or success, failure …), or a d100 "
                         "table result 1…100 (S-R11/S-G07)", field="outcome")
    st.fx.override[u.id if u is not None else ""] = (out if out.isdigit() else OUTCOMES[out].value, r.reason)
    who = u.name if u is not None else "次に振る者"
    what = f"d100表の結果を{out}に" if out.isdigit() else f"判定の結果を「{OUTCOMES[out].value}」に"
    _emit(st, f"{who} の次の{what}", r, unit=u.id if u is not None else None, outcome=out)


def _end(st: Any, r: Any) -> None:
    sides = [s for s, _ in st.side_units]
    if r.winner is not None and r.winner not in sides:
        raise InputError(f"winner {r.winner!r} is not one of sides {sides} (or null: a draw)", field="winner")
    st.winner = r.winner
    st.phase = "over"
    st.actor = None
    st.wait = None
    _emit(st, f"戦闘終了: 勝者 {r.winner or 'なし'}", r, winner=r.winner)
    st.emit("end", "GM", f"戦闘終了: 勝者 {r.winner or 'なし'} (第{st.maai}間合, GM裁定)", winner=r.winner,
            maai=st.maai)


_HANDLERS: dict[str, Callable[[Any, Any], None]] = {
    "set": _set, "effect": _effect, "remove_effect": _remove_effect, "condition": _condition,
    "add_unit": _add_unit, "remove_unit": _remove_unit, "skip_turn": _skip_turn, "end_turn": _end_turn,
    "modifier": _modifier, "override": _override, "end": _end,
}


def start_effects(st: Any) -> None:
    """The encounter's ``effects:``, put on as the battle starts."""
    for uid, spec in st.enc.start_effects:
        put_effect(st, st.by_id[uid], spec, "encounter effects:", "effect")


def effects_summary(st: Any) -> list[dict[str, Any]]:
    return [{"unit": e.target, "name": e.spec.name, "modifiers": dict(e.spec.modifiers),
             "left": e.left_label()} for e in st.fx.book.active]
