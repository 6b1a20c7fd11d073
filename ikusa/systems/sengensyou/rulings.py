"""GM rulings in 千幻抄 (issue #8 §2): ``SengensyouState.apply_ruling`` hands every op but the
core's (``control``, ``note``) to :func:`apply_ruling` here.

* ``set``: ``hp`` (HP 0…max; 0 = 気絶, G-R22/G-G23; above 0 wakes a fainted character),
  ``dp`` (DP 0…200, the dice limit of one roll), ``graze`` (グレイズ 0…99), ``reiryoku``
  (霊力 0…max, G-G23);
* ``effect`` / ``remove_effect``: sengensyou/effects.py's keys, ``turn`` or ``permanent``;
* ``condition``: ``DP回復停止`` (no_dp_recovery, G-G03/G-G08) until removed;
* ``add_unit``: a character as in the encounter (same schema and checks); it arrives as a
  reinforcement at the start of the next turn with DP = DP回復数 × 2 (G-R28);
  ``remove_unit``: it leaves the battle;
* ``skip_turn``: the character's next action this battle is skipped (this one if it is
  choosing it now); ``end_turn``: the acting character's turn ends now (not 待機);
* ``modifier``: ±N on the character's next check's 判定値 (shown as ``+2(GM修正)``);
* ``override``: the next check's 達成値 becomes the number given (checks are compared by
  each rule, so the GM states the 達成値);
* ``end``: the battle ends now with the winner; the scene ends (G-R12: graze is lost).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ikusa.dice.source import DiceSource
from ikusa.engine.errors import InputError
from ikusa.engine.events import Event
from ikusa.systems.gm_support import effect_of, remove_named_effect, resolve_alias, ruling_event, unit_of
from ikusa.systems.sengensyou.effects import CLOCKS, CONDITIONS, GM_END, GM_REFRESH, MODIFIER_KEYS

RESOURCES: dict[str, str] = {
    "hp": "hp", "HP": "hp",
    "dp": "dp", "DP": "dp",
    "graze": "graze", "グレイズ": "graze",
    "reiryoku": "reiryoku", "霊力": "reiryoku",
}
OPS = ("set", "effect", "remove_effect", "condition", "add_unit", "remove_unit", "skip_turn", "end_turn",
       "modifier", "override", "end")
DP_MAX = 200
GRAZE_MAX = 99


def apply_ruling(st: Any, r: Any, dice: DiceSource) -> list[Event]:
    """Apply one ruling to the 千幻抄 state ``st``; the events it caused."""
    handler = _HANDLERS.get(r.op)
    if handler is None:
        raise InputError(f"op {r.op!r} is not a sengensyou ruling; sengensyou rulings: {', '.join(OPS)}",
                         field="op")
    if st._pending is None:
        raise InputError("the battle is over", field="op")
    st.dice = dice
    resume = handler(st, r)
    d = st._pending
    if resume is None and d is not None and d.kind == "action" and r.op != "end":
        resume = GM_REFRESH  # the acting character's options follow what the ruling changed
    if resume is not None and d is not None and d.kind == "action":
        st._pending = st._step(resume)
    elif resume is None and d is not None and r.op != "end" and st._pending is d:
        # a defence, a barrage … being answered: asked anew from the changed state (state.ask)
        st._pending = st._step(GM_REFRESH)
    out: list[Event]
    out, st.out = st.out, []
    return out


def _emit(st: Any, r: Any, text: str, **data: Any) -> None:
    e = ruling_event(text, r.reason, r.op, **data)
    st.out.append(e)


def _acting(st: Any, fid: str) -> bool:
    d = st._pending
    return d is not None and d.kind == "action" and d.actor == fid


def _busy(st: Any, f: Any) -> None:
    """G-R22 (003 気絶): a character knocked out or gone takes no part in what it is answering
    now (its defence, its graze …), so that question is answered first; every other ruling on
    it is made at once and the question asked anew (state.ask)."""
    d = st._pending
    if d is not None and d.actor == f.id and d.kind != "action":
        raise InputError(f"G-R22 (003 気絶): {f.name} is answering {d.kind!r} now; it can be knocked out or "
                         "removed once that is answered", field="unit")


def _set(st: Any, r: Any) -> str | None:
    f = unit_of(st.fighters, r.unit)
    res = resolve_alias(r.resource, RESOURCES, "sengensyou resource", "resource")
    v = r.value
    limits = {"hp": (0, f.hp_max, "HP", "G-G23"), "dp": (0, DP_MAX, "DP", "G-R01: one die per DP"),
              "graze": (0, GRAZE_MAX, "グレイズ", "G-R12"), "reiryoku": (0, f.reiryoku_max, "霊力", "G-G23")}
    lo, hi, label, rule = limits[res]
    if not lo <= v <= hi:
        raise InputError(f"{label} of {f.name} must be {lo}…{hi} ({rule}), not {v}", field="value")
    if res == "hp" and v == 0:
        _busy(st, f)
    before = getattr(f, res)
    setattr(f, res, v)
    _emit(st, r, f"{f.name} {label} {before}→{v}", who=f.id, resource=res, before=before, value=v)
    if res == "hp":
        if v == 0 and not f.down:
            f.down = True
            st.emit("fainted", "G-R22,G-G23", f"{f.name} 気絶 (HP0)", who=f.id)
            st.update_end()
            return GM_END if _acting(st, f.id) else None
        if v > 0 and f.down and not f.escaped:
            f.down = f.spared = False
            st.emit("revive", "GM", f"{f.name} 戦線復帰 (HP{v})", who=f.id)
    return None


def _effect(st: Any, r: Any) -> None:
    f = unit_of(st.fighters, r.unit)
    spec = effect_of(r, st.fx.homebrew, MODIFIER_KEYS, CLOCKS, CONDITIONS)
    put_effect(st, f, spec, r.reason)


def put_effect(st: Any, f: Any, spec: Any, reason: str) -> None:
    st.fx.book.add(f.id, spec, "GM")
    mods = " ".join(f"{k}{v:+d}" for k, v in spec.modifiers.items())
    cond = " DP回復停止" if spec.condition else ""
    st.out.append(ruling_event(f"{f.name} に効果「{spec.name}」{mods}{cond} ({spec.duration.label()})", reason,
                               "effect", who=f.id, effect=spec.name, modifiers=dict(spec.modifiers),
                               condition=spec.condition, clock=spec.duration.clock, n=spec.duration.n))


def _remove_effect(st: Any, r: Any) -> None:
    f = unit_of(st.fighters, r.unit)
    remove_named_effect(st.fx.book, f.id, f.name, r.name)
    _emit(st, r, f"{f.name} の効果「{r.name}」を解除", who=f.id, effect=r.name)


def _condition(st: Any, r: Any) -> None:
    from ikusa.engine.effects import EffectSpec

    f = unit_of(st.fighters, r.unit)
    cid = resolve_alias(r.name, CONDITIONS, "sengensyou condition", "name")
    held = [e.spec.name for e in st.fx.book.on(f.id) if e.spec.condition == cid]
    if r.on:
        st.fx.book.add(f.id, EffectSpec(name="DP回復停止", condition=cid), "GM")
    elif not held:
        raise InputError(f"{f.name} does not have DP回復停止", field="name")
    else:
        for n in held:
            st.fx.book.remove(f.id, n)
    _emit(st, r, f"{f.name} DP回復停止 {'付与' if r.on else '解除'} (G-G03/G-G08)", who=f.id, condition=cid,
          on=r.on)


def _add_unit(st: Any, r: Any) -> None:
    from pydantic import ValidationError

    from ikusa.systems.sengensyou.character import CharacterSpec, new_fighter
    from ikusa.systems.sengensyou.encounter import _check_character, by_ids

    try:
        spec = CharacterSpec.model_validate(by_ids({"characters": [r.unit]})["characters"][0])
    except ValidationError as exc:
        problems = "; ".join(f"unit.{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg')}"
                             for e in exc.errors())
        raise InputError(problems, field="unit") from None
    if spec.id in st.fighters:
        raise InputError(f"character id {spec.id!r} is already in the battle", field="unit.id")
    if spec.side not in st.enc.sides:
        raise InputError(f"side {spec.side!r} is not one of sides {st.enc.sides}", field="unit.side")
    _check_character(spec, "unit", "<ruling>")
    if st.turn + 1 > st.opt.max_turns:
        raise InputError(f"turn {st.turn} is the last (max_turns={st.opt.max_turns}): a reinforcement would "
                         "never arrive (G-R28)", field="unit")
    f = new_fighter(spec, st.opt)
    f.in_battle = False
    st.fighters[spec.id] = f
    st.arrivals[spec.id] = st.turn + 1
    _emit(st, r, f"{f.name} ({spec.side}) が第{st.turn + 1}ターン開始時に増援として参戦予定 (G-R28: DP = DP回復数 × 2)",
          who=f.id, side=spec.side, turn=st.turn + 1)


def _remove_unit(st: Any, r: Any) -> str | None:
    f = unit_of(st.fighters, r.unit)
    _busy(st, f)
    if f.escaped or (not f.in_battle and f.id not in st.arrivals):
        raise InputError(f"{f.name} has already left the battle", field="unit")
    f.escaped = True
    st.arrivals.pop(f.id, None)
    _emit(st, r, f"{f.name} が戦場を離脱", who=f.id)
    st.update_end()
    return GM_END if _acting(st, f.id) else None


def _skip_turn(st: Any, r: Any) -> str | None:
    d = st._pending
    uid = r.unit or (d.actor if d is not None and d.kind == "action" else None)
    f = unit_of(st.fighters, uid)
    if not f.active and f.in_battle:
        raise InputError(f"{f.name} is out of the battle", field="unit")
    _emit(st, r, f"{f.name} の手番を飛ばす", who=f.id)
    if _acting(st, f.id):
        return GM_END
    st.fx.skip.add(f.id)
    return None


def _end_turn(st: Any, r: Any) -> str:
    d = st._pending
    if d is None or d.kind != "action":
        raise InputError(f"no character is choosing its action now (pending: {d.kind if d else 'none'})",
                         field="op")
    f = st.f(d.actor)
    _emit(st, r, f"{f.name} の手番を終了させる", who=f.id)
    return GM_END


def _modifier(st: Any, r: Any) -> None:
    f = unit_of(st.fighters, r.unit)
    st.fx.next_mod.setdefault(f.id, []).append((r.value, r.reason))
    _emit(st, r, f"{f.name} の次の判定に {r.value:+d}", who=f.id, value=r.value)


def _override(st: Any, r: Any) -> None:
    f = unit_of(st.fighters, r.unit) if r.unit is not None else None
    out = r.outcome.strip()
    if not out.lstrip("-").isdigit() or not -100 <= int(out) <= 1300:
        raise InputError(f"unknown outcome {r.outcome!r}: a 千幻抄 check is overruled by its 達成値, a whole "
                         "number (G-R01: 判定値 + the dice)", field="outcome")
    st.fx.override[f.id if f is not None else ""] = (int(out), r.reason)
    who = f.name if f is not None else "次に判定する者"
    _emit(st, r, f"{who} の次の判定の達成値を{int(out)}に", who=f.id if f else None, total=int(out))


def _end(st: Any, r: Any) -> None:
    from ikusa.systems.sengensyou.turn import end_scene

    if r.winner is not None and r.winner not in st.enc.sides:
        raise InputError(f"winner {r.winner!r} is not one of sides {st.enc.sides} (or null: a draw)",
                         field="winner")
    st.finished = True
    st.winner = r.winner
    _emit(st, r, f"戦闘終了: 勝者 {r.winner or 'なし'}", winner=r.winner)
    st.emit("end", "GM", f"戦闘終了: 勝者 {r.winner or 'なし'} (GM裁定)", winner=r.winner, turn=st.turn)
    end_scene(st)
    st._flow.close()
    st._pending = None


_HANDLERS: dict[str, Callable[[Any, Any], str | None]] = {
    "set": _set, "effect": _effect, "remove_effect": _remove_effect, "condition": _condition,
    "add_unit": _add_unit, "remove_unit": _remove_unit, "skip_turn": _skip_turn, "end_turn": _end_turn,
    "modifier": _modifier, "override": _override, "end": _end,
}


def start_effects(st: Any) -> None:
    for fid, spec in st.enc.start_effects:
        put_effect(st, st.fighters[fid], spec, "encounter effects:")


def effects_summary(st: Any) -> list[dict[str, Any]]:
    return [{"id": e.target, "name": e.spec.name, "modifiers": dict(e.spec.modifiers),
             "condition": e.spec.condition, "left": e.left_label()} for e in st.fx.book.active]
