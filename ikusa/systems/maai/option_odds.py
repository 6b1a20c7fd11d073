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


def overload_note(st: Any, excess: int, tai: int) -> str:
    """The note of an option that overloads the breath by ``excess`` for a unit of 體 ``tai``
    (a pure function of the numbers, kept per encounter); ``""`` when it does not overload."""
    if excess <= 0:
        return ""
    notes: dict[tuple[object, ...], str] = st.caches.notes
    key = ("over", excess, tai)
    note = notes.get(key)
    if note is None:
        p = outcome_odds(max(-10, min(10, tai - excess)), st.opts.overload.tn).success
        note = notes[key] = f" [過負荷+{excess}: 判定 {percent_text(p, 0)}, 失敗→無防備]"
    return note


def _overload_note(st: Any, u: Any, o: Any) -> str:
    if o.data.get("within", True) or o.cost is None:
        return ""
    return overload_note(st, u.breath_spent + o.cost - u.cur_limit, u.ab["tai"])


#: at most this many attack options get the reaction note (see the module docstring)
REACTION_NOTE_MAX = 64


def _label(st: Any, u: Any, o: Option, react: bool, over: bool) -> str:
    """``o``'s label with its notes, worked out from the state as it is now (the decision is pending)."""
    label = o.label
    data = o.data
    if data.get("kind") == "attack" and "puppet" not in data:  # carries its overload note (breath_flow)
        tail = _overload_note(st, u, o)
        label = label.removesuffix(tail)
    else:
        tail = _overload_note(st, u, o) if over else ""
    return label + (_reaction_note(st, u, o) if react else "") + tail


def _reaction_note(st: Any, u: Any, o: Option) -> str:
    """:func:`_attack_note`, kept per encounter on everything it depends on (a table or a
    ``ikusa sim`` through the Combat reads every label: Combat fixes them before each entry)."""
    t = st.by_id.get(o.data.get("target"))
    if t is None:
        return ""
    st_u, st_t = u.stance, t.stance
    key = ("react", u.id, u.attacks_in_breath, u.sig, id(st_u) if st_u is not None else 0, u.hidden, o.key,
           t.vigor, t.defenceless, t.able, t.sig, t.dropped, t.broken, t.unaware, t.armour_rev, t.formation,
           id(st_t) if st_t is not None else 0, *[id(r) for r in t.reservations])
    notes: dict[tuple[object, ...], str] = st.caches.notes
    note = notes.get(key)
    if note is None:
        if len(notes) > 50_000:
            notes.clear()
        note = notes[key] = _attack_note(st, u, o)
    return note


#: which options of a breath list get a lazy label, and which notes: (index, reaction note, overload note)
Plan = tuple[tuple[int, bool, bool], ...]


#: runs of a breath list's own attack options: (start, end, within) (breath_flow.attack_spans)
Spans = list[tuple[int, int, bool | None]]


def outside(spans: Spans, n: int) -> list[int]:
    """The indices below ``n`` that lie in none of ``spans`` (ascending, not overlapping)."""
    out: list[int] = []
    i = 0
    for start, end, _ in spans:
        out.extend(range(i, start))
        i = end
    out.extend(range(i, n))
    return out


def annotation_plan(options: list[Option], room: int, attacks: int | None = None, spans: Spans | None = None) -> Plan:
    """Which of ``options`` (a breath's, with ``room`` 活力 left before the limit) get which
    notes: a pure function of the options and ``room``, so a cached breath list keeps its plan
    (breath_flow.ask_breath).  ``attacks``: how many of them are attacks, when the caller
    counted them (else they are counted here if it matters); ``spans``: where the breath's own
    attack options are, when the caller knows (a mass battle's breath then looks at the few
    other options only: its own attack options get no note, issue #12 target 3)."""
    # with at most REACTION_NOTE_MAX options there are at most that many attacks: no count
    if attacks is None and len(options) > REACTION_NOTE_MAX:
        attacks = [x.data.get("kind") for x in options].count("attack")
    react_notes = len(options) <= REACTION_NOTE_MAX or attacks is None or attacks <= REACTION_NOTE_MAX
    plan = []
    indices = range(len(options)) if react_notes or spans is None else outside(spans, len(options))
    for i in indices:
        o = options[i]
        cost = o.cost
        over = cost is not None and cost > room
        if not (over or react_notes):
            continue  # a mass battle's breath: most options need nothing
        data = o.data
        attack = data.get("kind") == "attack"
        if attack and not react_notes and "puppet" not in data:
            continue  # a mass battle's own attack option: it carries its overload note
        react = react_notes and attack
        # the breath's own attack options carry their overload note already (breath_flow)
        over = over and not data.get("within", True) and not (attack and "puppet" not in data)
        if react or over:
            plan.append((i, react, over))
    return tuple(plan)


class NotedOption(Option):
    """A breath option whose label gets its notes (:func:`_label`) when first read: an
    :meth:`Option.lazy <ikusa.engine.protocol.Option.lazy>` made in one call (issue #12)."""

    __slots__ = ("_base", "_over", "_react", "_st", "_u")

    def __init__(self, st: Any, u: Any, base: Option, react: bool, over: bool) -> None:
        self.key = base.key
        self._label = None
        self._make = None
        self.cost = base.cost
        self.odds = base.odds
        self.data = base.data
        self._st = st
        self._u = u
        self._base = base
        self._react = react
        self._over = over

    @property
    def label(self) -> str:
        t = self._label
        if t is None:
            t = self._label = _label(self._st, self._u, self._base, self._react, self._over)
            self._st = self._u = None  # the label is made: the state is no longer needed
        return t


def apply_plan(st: Any, u: Any, options: list[Option], plan: Plan) -> list[Option]:
    """``options`` (changed in place) with the lazy labels of ``plan`` (:func:`annotation_plan`)."""
    for i, react, over in plan:
        options[i] = NotedOption(st, u, options[i], react, over)
    return options


def annotate(st: Any, u: Any, options: list[Option], attacks: int | None = None,
             spans: Spans | None = None) -> list[Option]:
    """``options`` of ``u``'s breath, those that get a note above with a lazy label: the notes
    are worked out when the label is first read (issue #12: the AIs never read labels; a
    person's menu reads them while the decision is pending).  ``attacks``: how many of them are
    attacks, when the caller counted them (else they are counted here if it matters), and
    ``spans`` where they are (:func:`annotation_plan`)."""
    return apply_plan(st, u, options, annotation_plan(options, u.cur_limit - u.breath_spent, attacks, spans))
