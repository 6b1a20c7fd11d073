"""The state-machine core of a maai combat: the pending decision ("wait"), event emission,
dice checks with fate intervention, and the end-of-combat test.

Every decision the state waits for is a :class:`Wait`: the :class:`Decision` shown to the
GM/player/AI and the handler that continues the flow with the chosen key.  A handler may set
the next wait (another decision) or leave none, in which case :meth:`FlowBase._advance`
works out what comes next (the same breath, the next count, 小康 …).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from itertools import compress
from typing import Any

from ikusa.dice.source import DiceSource, RandomSource
from ikusa.engine.events import Event
from ikusa.engine.protocol import Decision, Option
from ikusa.systems.maai.check import BY_RANK, Check, clamp_modifier, outcome_rank
from ikusa.systems.maai.damage import Damage
from ikusa.systems.maai.effects import MaaiFx, gm_check
from ikusa.systems.maai.encounter import MaaiEncounter, ResolvedUnit
from ikusa.systems.maai.event_text import fate_prompt
from ikusa.systems.maai.moves import Move
from ikusa.systems.maai.rules_snapshot import RulesSnapshot
from ikusa.systems.maai.units import Unit, UnitStart

Handler = Callable[[str], None]
Then = Callable[[Check], None]

#: checks kept per encounter at most (EncounterCaches.checks; emptied when full)
CHECKS_MAX = 50_000

#: P(2d10 >= k) for k in -40..60 (S-R02), indexed by k + 40
GE_2D10 = [sum(1 for a in range(1, 11) for b in range(1, 11) if a + b >= k) / 100 for k in range(-40, 61)]
_GE = GE_2D10


def p_success(modifier: int, target: int) -> float:
    """P(2d10 + modifier ≥ target) (S-R01), modifier already clamped."""
    k = target - modifier
    if k <= -40:
        return 1.0
    if k >= 60:
        return 0.0
    return _GE[k + 40]


#: an outcome's text by its OUTCOME_RANK (業報 0 … 天命 5)
_OUTCOME_TEXT = tuple(o.value for o in BY_RANK)


def _relevant(rank: int, relevance: str) -> int:
    """What of an outcome a roll's fate question is about (S-G28): success only, or no 会心."""
    if relevance == "success":
        return 1 if rank >= 3 else 0
    if relevance == "no_crit":
        return 3 if rank >= 3 else (2 if rank == 2 else 1)
    return rank


def _fate_alternatives(dice: tuple[int, int], modifier: int, target: int, crit_extension: bool, relevance: str,
                       own: bool, every: bool = False) -> tuple[tuple[int, int, bool, str, int], ...]:
    """The single-die ±1 interventions that change what a roll means (all legal ones with
    ``every``): a pure function of the roll, as (die, delta, better for the chooser, outcome,
    total), in Check.fate_choices' order (tests/systems/maai/test_fate_filter.py
    checks it against Check.with_fate)."""
    a, b = dice
    m = clamp_modifier(modifier)
    base = _relevant(outcome_rank(a, b, m, target, crit_extension), relevance)
    out = []
    for i in (0, 1):
        for d in (-1, 1):
            na, nb = (a + d, b) if i == 0 else (a, b + d)
            if not (1 <= na <= 10 and 1 <= nb <= 10):
                continue  # S-R16: a die stays within 1…10
            full = outcome_rank(na, nb, m, target, crit_extension)
            rank = _relevant(full, relevance)
            if rank != base or every:
                out.append((i, d, rank > base if own else rank < base, _OUTCOME_TEXT[full], na + nb + m))
    return tuple(out)


@lru_cache(maxsize=65536)
def _fate_offer(dice: tuple[int, int], modifier: int, target: int, crit_extension: bool, relevance: str,
                own: bool, every: bool) -> tuple[Option, ...]:
    """The options of a fate question on this roll (empty: no question), memoised: the
    interventions of :func:`_fate_alternatives` and ``nofate``.  Options are immutable, so
    one tuple serves every state.  (The table itself is no longer memoised: in integers it
    costs less than its lookup did, and only a miss here reads it.)"""
    alts = _fate_alternatives(dice, modifier, target, crit_extension, relevance, own, every)
    if not alts:
        return ()
    was = _OUTCOME_TEXT[outcome_rank(dice[0], dice[1], clamp_modifier(modifier), target, crit_extension)]
    options = [Option(f"fate:{i}{'+1' if d > 0 else '-1'}", f"運命介入 {i + 1}個目 {dice[i]}→{dice[i] + d}"
                      f" ({outcome}, 合計{total})", cost=1,
                      data={"kind": "fate", "better": better, "outcome": outcome, "was": was, "own": own})
               for i, d, better, outcome, total in alts]
    options.append(Option("nofate", "運命介入しない", data={"kind": "fate", "better": False}))
    return tuple(options)


def fate_cannot_matter(c: Check) -> bool:
    """Whether no single fate use can change what ``c`` means, whatever the relevance (S-R14,
    S-G27, S-G28): one die ±1 moves the total by 1 and the dice's difference by 1, so with the
    total at least 1 above or 2 below the TN and the dice 3 or more apart, success, doubles
    (会心/失着/天命/業報) and 会心拡張 all stay as they are.  A cheap test before the offer's table
    (tests/systems/maai/test_fate_filter.py checks it against :func:`_fate_alternatives`)."""
    diff = c.total - c.target
    if -2 < diff < 1:
        return False
    a, b = c.dice
    return a - b >= 3 or b - a >= 3


class Wait(Decision):
    """A pending decision: the :class:`Decision` itself (what ``pending()`` returns, shown to
    the GM/player/AI), with the handler that continues the flow with the chosen key, and
    ``again``: how to ask the same question anew from the state as it is now (a GM ruling
    changed the numbers its options came from; issue #8 §2), or None where the question does
    not depend on them.  One object per decision (issue #12); it pickles and copies as the
    plain Decision (Decision.__reduce__), never its handler."""

    __slots__ = ("again", "handler")

    def __init__(self, actor: str, kind: str, prompt: str | None, fmt: Callable[..., str] | None,
                 args: tuple[Any, ...], options: tuple[Option, ...], handler: Handler,
                 again: Callable[[], None] | None = None) -> None:
        # Decision's fields (Decision.lazy's when ``prompt`` is None), set here in one call
        self.actor = actor
        self.kind = kind
        self._prompt = prompt
        self._fmt = fmt
        self._args = args
        self.options = options
        self.handler = handler
        self.again = again

    @property
    def decision(self) -> Decision:
        return self

    def legal(self, key: str) -> bool:
        """``key`` is one of the pending options (a scan: option lists are short)."""
        for o in self.options:
            if o.key == key:
                return True
        return False

    @property
    def by_key(self) -> dict[str, Option]:
        return {o.key: o for o in self.options}


class EncounterCaches:
    """What every new state of one encounter reads from it, fetched once (the encounter's
    private attributes are slow to reach through pydantic), and the flow's caches of immutable
    values built from it.  One object per encounter (:meth:`MaaiEncounter.flow_caches`), shared
    by its states; no module-level cache (issue #12)."""

    __slots__ = ("attacks", "breath_cache", "checks", "damages", "fear_aura", "homebrew_effects", "joined", "limits",
                 "memo", "noncorporeal", "notes", "options", "opts", "plain_cost", "plans", "puppets", "react_cache",
                 "rules", "sides", "simple_units", "start_effects", "starts", "table_keys", "tables", "units", "zones")

    def __init__(self, enc: MaaiEncounter) -> None:
        self.opts = opts = enc.opts
        #: the options read on the hot path, as plain values (options never change in a battle)
        self.rules = RulesSnapshot(opts, enc.max_maai)
        self.memo = enc.memo
        #: breath option lists of plain situations, keyed on all they depend on (breath_flow)
        self.breath_cache: dict[tuple[object, ...], list[Option]] = {}
        #: id of a breath_cache list → (the list, which of its options get which label notes:
        #: option_odds.annotation_plan), emptied with breath_cache
        self.plans: dict[int, tuple[list[Option], tuple[tuple[int, bool, bool], ...]]] = {}
        #: (a joining unit's spec as JSON, its index) → its resolution (rulings._add_unit): one per spec
        #: for the encounter's lifetime, because the memos above key maneuvers by identity, and a
        #: maneuver freed with its state would let a later state's new one take its address
        self.joined: dict[tuple[str, int], ResolvedUnit] = {}
        #: unit id → its maneuvers allow the cached breath options (breath_flow.simple_unit)
        self.simple_units: dict[str, bool] = {}
        #: reaction option lists, keyed on all they depend on (attack_flow.reaction_options)
        self.react_cache: dict[tuple[object, ...], list[Option]] = {}
        #: every distinct breath / move / reaction option built so far, keyed on all it shows
        #: (options are immutable values: one object serves every state)
        self.options: dict[tuple[object, ...], Option] = {}
        #: attack options: (maneuver id, name, cost, within the limit) → (target id, name, odds) → option
        self.attacks: dict[tuple[object, ...], dict[tuple[object, ...], Option]] = {}
        #: the encounter's units holding a fear aura / 非実体 (fear.aura_sources, noncorporeal.ids)
        self.fear_aura: tuple[str, ...] | None = None
        self.noncorporeal: frozenset[str] | None = None
        #: option label notes by the numbers they show (option_odds: versus_reaction's text)
        self.notes: dict[tuple[object, ...], str] = {}
        #: breath limits by (narrowed, extensions) (breath.breath_limit, S-R27/S-R28/S-G32)
        self.limits: dict[tuple[object, ...], int] = {}
        #: hit damage by (outcome, the maneuver's damage numbers, kind) (damage.hit_damage)
        self.damages: dict[tuple[object, ...], Damage] = {}
        #: (dice, modifier, TN, 会心拡張) → (the check, no fate use can matter) (FlowBase.roll_check)
        self.checks: dict[tuple[object, ...], tuple[Check, bool]] = {}
        self.plain_cost: dict[int, int] = enc.plain_cost
        self.puppets: dict[str, tuple[str, ...]] = enc.puppets
        #: the encounter's own objects (read through pydantic once, not per state)
        self.zones: list[str] = enc.zones
        self.homebrew_effects: dict[str, Any] = enc.homebrew_effects
        self.start_effects: list[tuple[str, Any]] = enc.start_effects
        #: the d100 tables in force and the ones the options set (fumble.table_roll, maai/tables.py)
        self.tables: Any = enc.tables
        self.table_keys: frozenset[str] = frozenset(enc.options.get("tables") or {})
        self.sides: list[str] = enc.sides
        side_rank = {s: i for i, s in enumerate(self.sides)}
        self.units = [(s, enc.resolved(s.id), side_rank[s.side]) for s in enc.units]
        #: each unit's starting values, in the encounter's order: what a new state's Units copy
        self.starts = [UnitStart(s, res, rank, opts) for s, res, rank in self.units]


def encounter_caches(enc: MaaiEncounter) -> EncounterCaches:
    """``enc``'s :class:`EncounterCaches`: made by its first state (MaaiEncounter.flow_caches),
    then read straight from the model's private storage, not through pydantic's ``__getattr__``
    (a failed lookup and a Python call per state)."""
    private = enc.__pydantic_private__
    c = private.get("_flow_caches") if private is not None else None
    if c is None:
        c = enc.flow_caches(EncounterCaches)
    assert isinstance(c, EncounterCaches)
    return c


class AttackList:
    """A breath's melee attack list kept per state (breath_flow.build_breath_options): the
    enemies (``targets``, in the battle's order; ``index``: id → position), each one's attack
    option or None (``found``), the options listed (``listed``: ``found`` without the Nones;
    ``listed_targets``: their targets), and how far it has read the state's change log ``log``
    (``seen``; FlowBase.unit_changes)."""

    __slots__ = ("found", "index", "listed", "listed_targets", "log", "n_units", "seen", "targets")

    def __init__(self, n_units: int, targets: list[Unit], found: list[Option | None], log: list[Unit]) -> None:
        self.n_units = n_units
        self.targets = targets
        self.index = {t.id: i for i, t in enumerate(targets)}
        self.found = found
        self.listed: list[Option] = list(filter(None, found))  # (C level)
        self.listed_targets: list[Unit] = list(compress(targets, found))
        self.log = log
        self.seen = len(log)


class FlowBase:
    """Shared state and machinery of :class:`~ikusa.systems.maai.state.MaaiState`."""

    def __init__(self, enc: MaaiEncounter) -> None:
        self.enc = enc
        setup = encounter_caches(enc)
        self.caches = setup
        self.opts = setup.opts
        #: the hot-path options as plain values (rules_snapshot.py)
        self.rules = setup.rules
        self.memo = setup.memo
        self.plain_cost: dict[int, int] = setup.plain_cost
        #: caster id → its 式神/傀儡 ids (S-G24): the encounter's, fetched once
        self.puppets: dict[str, tuple[str, ...]] = setup.puppets
        self.breath_cache = setup.breath_cache
        self.simple_units = setup.simple_units
        self.react_cache = setup.react_cache
        zone = setup.zones[0]
        self.units: list[Unit] = [Unit(t, zone) for t in setup.starts]
        self.by_id: dict[str, Unit] = {u.id: u for u in self.units}
        self.side_units = [(s, [u for u in self.units if u.side == s]) for s in setup.sides]
        #: (attacker's side, maneuver, cost, room, zone, modifier …) → a breath's melee attack list,
        #: where only the enemies that changed are redone (breath_flow)
        self.attack_lists: dict[tuple[object, ...], AttackList] = {}
        #: every unit whose revision (Unit.urev) was bumped, in order (each Unit.changes is this
        #: list); an attack list redoes the units logged since it last looked (breath_flow)
        self.unit_changes: list[Unit] = []
        for u in self.units:
            u.changes = self.unit_changes
        #: how many attack options the last breath_options listed (None: not counted)
        self.attack_count: int | None = None
        #: the cached list the last breath_options copied (None: it built the options anew)
        self.breath_hit: list[Option] | None = None
        self.maai = 1
        self.phase = "count"  # count | lull | survival | over
        #: True: at least two sides are known to have a unit able to fight (the flow's end test,
        #: state._advance, then needs no scan); every fall (a unit made 戦闘不能 or removed: wound,
        #: lose_cohesion, any GM ruling) sets it back to False; a revival only adds able units
        self.two_sides_able = False
        self.actor: Unit | None = None
        self.wait: Wait | None = None
        self.ev: list[Event] = []
        self.dice: DiceSource | None = None
        self.winner: str | None = None
        self.cohesion: dict[str, int] = {}
        self.survivors_pending: list[Unit] = []
        self.lull_queue: list[Unit] = []
        #: GM effects, one-off modifiers and overrides (issue #8; maai/effects.py)
        self.fx = MaaiFx(homebrew=dict(setup.homebrew_effects))

    def resolved_of(self, uid: str) -> ResolvedUnit:
        """The catalog data of a unit: the encounter's, or a GM-added unit's (issue #8 §2)."""
        r = self.fx.extra_resolved.get(uid)
        return r if r is not None else self.enc.resolved(uid)

    # -- events ---------------------------------------------------------------------------
    def emit(self, kind: str, rule: str, text: str, **data: Any) -> None:
        self.ev.append(Event(kind, rule, text, data))

    def emit_lazy(self, kind: str, rule: str, fmt: Callable[..., str], args: tuple[Any, ...], **data: Any) -> None:
        """:meth:`emit` with the text ``fmt(*args)`` formatted when first read (maai/event_text.py)."""
        self.ev.append(Event.lazy(kind, rule, fmt, args, data))

    # -- waits ----------------------------------------------------------------------------
    def ask(self, actor: str, kind: str, prompt: str, options: Sequence[Option], handler: Handler,
            again: Callable[[], None] | None = None) -> None:
        self.wait = Wait(actor, kind, prompt, None, (), tuple(options), handler, again)

    def ask_lazy(self, actor: str, kind: str, fmt: Callable[..., str], args: tuple[Any, ...],
                 options: Sequence[Option], handler: Handler, again: Callable[[], None] | None = None) -> None:
        """:meth:`ask` with the prompt ``fmt(*args)`` made when first read (maai/event_text.py)."""
        self.wait = Wait(actor, kind, None, fmt, args, tuple(options), handler, again)

    def roll2(self, purpose: str, roller: str = "") -> tuple[int, int]:
        assert self.dice is not None
        d = self.dice.roll(10, 2, purpose, roller=roller)
        return d[0], d[1]

    def check(self, unit: Unit, modifier: int, target: int, purpose: str, then: Then,
              crit_extension: bool = False, relevance: str = "all") -> None:
        """Roll a 2d10 check for ``unit`` and offer its fate intervention (S-R14…S-R17)."""
        chk = self.roll_check(unit, modifier, target, purpose, "", crit_extension, relevance, then, ())
        if chk is not None:
            then(chk)

    def roll_check(self, unit: Unit, modifier: int, target: int, what: str, suffix: str, crit_extension: bool,
                   relevance: str, then: Callable[..., None], args: tuple[Any, ...]) -> Check | None:
        """:meth:`check` as straight-line code (issue #12): roll ``unit``'s 2d10 (purpose
        ``"{name} {what}{suffix}"``, made only for a source that shows it) and return the check
        when nobody has to decide anything about it (no fate use can matter, S-R14/S-G27), so
        the caller goes on inline; otherwise ask the fate question and return ``None``: the flow
        goes on with ``then(*args, check)`` once it is answered (or at once, before this
        returns, when it turns out no option is offered)."""
        dice = self.dice
        if type(dice) is RandomSource:  # a seeded source ignores the purpose: the same draws
            d = dice.pair(10)
        else:
            assert dice is not None
            r = dice.roll(10, 2, f"{unit.name} {what}{suffix}", roller=unit.id)
            d = (r[0], r[1])
        fx = self.fx
        if fx.next_mod or fx.override:  # issue #8: a GM one-off modifier or overruled outcome
            modifier, forced = gm_check(self, unit, d, modifier, target, f"{what}{suffix}", crit_extension)
            if forced is not None:
                return forced
        # the check and whether a fate use could matter (fate_cannot_matter), kept per encounter:
        # immutable values of these four numbers (2d10 × the few modifiers and TNs of a battle)
        key = (d, modifier, target, crit_extension)
        checks = self.caches.checks
        hit = checks.get(key)
        if hit is None:
            if len(checks) >= CHECKS_MAX:
                checks.clear()
            c = Check(d, modifier, target, crit_extension)
            hit = checks[key] = (c, fate_cannot_matter(c))
        chk, trivial = hit
        if unit.fate_left <= 0 or unit.incapacitated:  # offer_fate's first tests, inlined
            return chk
        if trivial and self.rules.fate_max_uses_per_roll == 1:  # the common roll asks nothing
            return chk
        self.offer_fate(unit, chk, partial(then, *args) if args else then, own=True, relevance=relevance)
        return None

    def offer_fate(self, owner: Unit, chk: Check, then: Then, own: bool, allow_down: bool = False,
                   relevance: str = "all", used: int = 0) -> None:
        """Ask ``owner`` whether to spend a fate use (±1 on one die) on ``chk``.

        Only interventions that change what the outcome means are offered (S-G27: one use per
        roll); when none does, no question is asked.  ``relevance`` (S-G28): ``"all"`` for
        attacks and counters (天命/会心/成功/失敗/失着/業報), ``"no_crit"`` for defence and
        overload checks (会心 has no effect there, 失着 does), ``"success"`` for the survival
        roll.  ``own`` = False is the lethal-hit exception (S-G51): the target moves a die of the
        attacker's roll.  With ``fate.max_uses_per_roll`` > 1 every legal move is offered (a
        first step may not change the result yet) and the question repeats up to that many uses."""
        if owner.fate_left <= 0 or (owner.incapacitated and not allow_down):
            then(chk)
            return
        limit = self.rules.fate_max_uses_per_roll
        if used >= limit:
            then(chk)
            return
        if limit == 1 and fate_cannot_matter(chk):  # the common roll: no table lookup
            then(chk)
            return
        options = _fate_offer(chk.dice, chk.modifier, chk.target, chk.crit_extension, relevance, own, limit > 1)
        if not options:
            then(chk)
            return

        def handle(key: str) -> None:
            if key == "nofate":
                then(chk)
                return
            i, d = int(key[5]), int(key[6:])
            new = chk.with_fate(i, d)
            owner.fate_left -= 1
            rule = "S-R14" if own else "S-G51"
            self.emit("fate", rule, f"{owner.name} 運命介入: {i + 1}個目 {chk.dice[i]}→{new.dice[i]} "
                      f"({chk.total}→{new.total}, {new.outcome._value_}) 残り{owner.fate_left}",
                      unit=owner.id, die=i, delta=d, total=new.total, fate_left=owner.fate_left)
            if used + 1 < limit:
                self.offer_fate(owner, new, then, own, allow_down, relevance, used + 1)
            else:
                then(new)

        what = "自分の判定" if own else "致命の一撃 (S-G51)"
        self.ask_lazy(owner.id, "fate", fate_prompt, (owner.name, what, chk, owner.fate_left), options, handle,
                      lambda: self.offer_fate(owner, chk, then, own, allow_down, relevance, used))

    # -- end of combat --------------------------------------------------------------------
    def sides_able(self) -> list[str]:
        out = []
        for s, us in self.side_units:
            for u in us:
                if not u.incapacitated:
                    out.append(s)
                    break
        return out

    def sides_able_count(self, stop: int = 2) -> int:
        """How many sides still have a unit able to fight, counting no further than ``stop``."""
        n = 0
        for _, us in self.side_units:
            for u in us:  # a native loop (compiled: a plain read of each unit's flag)
                if not u.incapacitated:  # one able unit
                    n += 1
                    if n >= stop:
                        return n
                    break
        return n

    # -- hooks the flow modules implement ------------------------------------------------
    def _advance(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def move_cost(self, u: Unit, m: Move) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    def improv_cost(self, u: Unit, m: Move) -> int:  # pragma: no cover - overridden
        raise NotImplementedError
