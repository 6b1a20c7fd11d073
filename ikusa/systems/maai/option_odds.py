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

Labels are for people: decisions taken, events and the bench hashes do not change.  An option
that gets a note carries a lazy label (:meth:`ikusa.engine.protocol.Option.lazy`): the note is
worked out when the label is first read, from the state while the decision is pending (the core
fixes labels before it applies an entry), so the AIs, which never read labels, never pay for it
(issue #12).  A breath
with more than :data:`REACTION_NOTE_MAX` attack options (a mass battle, where nobody reads the
menu option by option) gets the overload notes only: the reaction note costs a defence search
per option, which made a 400-unit battle ten times slower (bench/bench_large.py, issue #12).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ikusa.dice.odds import percent_text
from ikusa.engine.protocol import Option
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
    rmod = st.defence_modifier(t, r)
    crit = bool(m.crit_extension or u.crit_ext)
    # versus_reaction enumerates 100 × 100 rolls: its text is kept per encounter on the numbers
    key = ("versus_reaction", mod, dfn, rmod, crit)
    memo: dict[tuple[object, ...], str] = st.caches.notes
    text = memo.get(key)
    if text is None:
        text = memo[key] = percent_text(versus_reaction(mod, dfn, rmod, crit)[0], 0)
    how = "予約" if reserved else "即興"
    return f" [{r.name}{how}に対し {text}]"


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


def _label(st: Any, u: Any, o: Option, react: bool, over: bool) -> str:
    """``o``'s label with its notes, worked out from the state as it is now (the decision is pending)."""
    return o.label + (_attack_note(st, u, o) if react else "") + (_overload_note(st, u, o) if over else "")


def annotate(st: Any, u: Any, options: list[Option]) -> list[Option]:
    """``options`` of ``u``'s breath, those that get a note above with a lazy label: the notes
    are worked out when the label is first read (issue #12: the AIs never read labels; a
    person's menu reads them while the decision is pending)."""
    out = options
    react_notes: bool | None = None
    room = u.cur_limit - u.breath_spent
    for i, o in enumerate(options):
        data = o.data
        react = data.get("kind") == "attack"
        if react and react_notes is None:
            react_notes = sum(1 for x in options if x.data.get("kind") == "attack") <= REACTION_NOTE_MAX
        react = react and bool(react_notes)
        cost = o.cost
        over = cost is not None and cost > room and not data.get("within", True)
        if not (react or over):
            continue
        if out is options:
            out = list(options)
        out[i] = Option.lazy(o.key, partial(_label, st, u, o, react, over), cost, o.odds, data)
    return out
