"""What a breath option's label tells a player about its odds (#13 "odds users ask for").

An option's ``odds`` stays the chance that the attack roll reaches 防備 (what the AIs read);
the label, which the play menus and the web table both show, adds:

* against the defender's **best available reaction** (S-R37/S-R40/S-R53): a reserved defence
  (0 活力), else the best improvised one it can pay (1.5×, S-R40) — the exact chance that the hit
  lands (odds.versus_reaction), e.g. ``[受け流し予約に対し 41%]``; nothing when the defender
  cannot react (無防備 with ``defenseless.blocks = all_defenses``, 強化奇襲, no 活力);
* for an option past the breath limit (``within`` false): that it **overloads** the breath and
  the chance of the overload check ``2d10 + 體 − excess ≥ overload.tn`` (S-R29), e.g.
  ``[過負荷+2: 判定 55%, 失敗→無防備]``.

Labels are for people: decisions taken, events and the bench hashes do not change.  A breath
with more than :data:`REACTION_NOTE_MAX` attack options (a mass battle, where nobody reads the
menu option by option) gets the overload notes only: the reaction note costs a defence search
per option, which made a 400-unit battle ten times slower (bench/bench_large.py, issue #12).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ikusa.dice.odds import percent_text
from ikusa.systems.maai.odds import outcome_odds, versus_reaction


def best_reaction(st: Any, t: Any) -> tuple[Any, bool] | None:
    """(defence move, reserved?) with the highest roll modifier ``t`` can use against a hit now."""
    if not t.able or (t.defenceless and st.opts.defenseless.blocks == "all_defenses"):
        return None
    best: tuple[int, Any, bool] | None = None
    for m in t.reservations:
        if m.kind == "defence" and t.weapon_usable(m):
            mod = st.defence_modifier(t, m)
            if best is None or (mod, True) > (best[0], best[2]):
                best = (mod, m, True)
    if best is None:
        for m in t.defence_moves:
            if t.defenceless and m.defence_type != "parry":
                continue
            if not t.weapon_usable(m) or st.improv_cost(t, m) > t.vigor:
                continue
            mod = st.defence_modifier(t, m)
            if best is None or mod > best[0]:
                best = (mod, m, False)
    return None if best is None else (best[1], best[2])


def _attack_note(st: Any, u: Any, o: Any) -> str:
    tid = o.data.get("target")
    mid = o.data.get("move")
    t = st.by_id.get(tid) if isinstance(tid, str) else None
    m = u.move_by_id.get(mid) if isinstance(mid, str) else None
    if t is None or m is None or u.hidden:
        return ""
    react = best_reaction(st, t)
    if react is None:
        return ""
    r, reserved = react
    aim = int(o.key.partition("+aim")[2] or 0)
    dfn = st.defence_of(t, m, aim, u.ab["gi"]) + st.tanpaku_value(t)
    mod = st.attack_modifier(u, m, t, u.attacks_in_breath + 1)
    hit, _crit = versus_reaction(mod, dfn, st.defence_modifier(t, r), m.crit_extension or u.crit_ext)
    how = "予約" if reserved else "即興"
    return f" [{r.name}{how}に対し {percent_text(hit, 0)}]"


def _overload_note(st: Any, u: Any, o: Any) -> str:
    if o.data.get("within", True) or o.cost is None:
        return ""
    excess = u.breath_spent + o.cost - u.cur_limit
    if excess <= 0:
        return ""
    p = outcome_odds(max(-10, min(10, u.ab["tai"] - excess)), st.opts.overload.tn).success
    return f" [過負荷+{excess}: 判定 {percent_text(p, 0)}, 失敗→無防備]"


#: at most this many attack options get the reaction note (see the module docstring)
REACTION_NOTE_MAX = 64


def annotate(st: Any, u: Any, options: list[Any]) -> list[Any]:
    """``options`` of ``u``'s breath with the notes above added to their labels (the notes are
    memoised per encounter on everything they depend on: the AIs run many battles)."""
    out = []
    by_id = st.by_id
    notes: dict[tuple[object, ...], str] = st.memo.setdefault(("option_odds",), {})  # per encounter
    labelled: dict[tuple[object, ...], Any] = st.caches.labelled
    mine = (u.id, u.attacks_in_breath, u.sig, id(u.stance) if u.stance is not None else 0, u.hidden)
    react_notes = sum(1 for o in options if o.data.get("kind") == "attack") <= REACTION_NOTE_MAX
    for o in options:
        data = o.data
        note = ""
        if react_notes and data.get("kind") == "attack":
            t = by_id.get(data.get("target"))
            if t is not None:
                key = (*mine, o.key, t.vigor, t.defenceless, t.able, t.sig, t.dropped, t.broken, t.unaware,
                       t.armour_rev, t.formation, id(t.stance) if t.stance is not None else 0,
                       *map(id, t.reservations))
                note_a = notes.get(key)
                if note_a is None:
                    if len(notes) > 50_000:
                        notes.clear()
                    note_a = notes[key] = _attack_note(st, u, o)
                note = note_a
        if not data.get("within", True) and o.cost is not None:
            excess = u.breath_spent + o.cost - u.cur_limit
            if excess > 0:
                k2 = ("over", excess, u.ab["tai"], st.opts.overload.tn)
                over = notes.get(k2)
                if over is None:
                    over = notes[k2] = _overload_note(st, u, o)
                note += over
        if not note:
            out.append(o)
            continue
        # (option's data id, key, label, cost, odds, note) → the annotated option (immutable values),
        # per encounter (issue #12: no module-level cache); the cached option keeps o.data alive,
        # so its id cannot be reused while the entry exists
        k3 = (id(data), o.key, o.label, o.cost, o.odds, note)
        new = labelled.get(k3)
        if new is None:
            if len(labelled) > 50_000:
                labelled.clear()
            new = labelled[k3] = replace(o, label=o.label + note)
        out.append(new)
    return out
