"""一呼吸 (a breath), built maneuver by maneuver (000 §3.3–§3.4, §3.7).

Each breath decision lists the legal maneuvers with their 活力 cost and hit odds, plus
``end`` (or ``pass`` before anything was done, S-G21).  Spending past the breath limit is
allowed (S-G52) and triggers the overload check when the breath ends (S-R29); a 0-活力
[型] is limited to once per effect and twice in all per 間合 (S-R59).
"""

from __future__ import annotations

from collections.abc import Callable

from ikusa.engine.errors import RuleViolation
from ikusa.engine.protocol import Option
from ikusa.systems.maai import fear, noncorporeal, option_odds
from ikusa.systems.maai.attack_flow import defence_key
from ikusa.systems.maai.breath_memo import BreathList, BreathWait, noted_options
from ikusa.systems.maai.breath_options import END, PASS, simple_option
from ikusa.systems.maai.check import Check
from ikusa.systems.maai.effects import tick_effects, without_feared
from ikusa.systems.maai.event_text import (
    breath_end_text,
    breath_prompt,
    breath_text,
    dice_text,
    maneuver_text,
    paid_text,
)
from ikusa.systems.maai.flow_base import GE_2D10, AttackList
from ikusa.systems.maai.movement import MovementFlow
from ikusa.systems.maai.moves import Move
from ikusa.systems.maai.option_odds import overload_note
from ikusa.systems.maai.rules_link import (
    breath_limit,
    check_zero_vigor_use,
    overload_check,
    overload_excess,
)
from ikusa.systems.maai.units import Unit

#: the breath-list cache serves battles of at most this many units: its key holds every enemy's
#: state, so in a larger battle it costs O(N) per breath, hardly ever hits and fills memory
BREATH_CACHE_UNITS = 12

#: the unit change log (FlowBase.unit_changes) grows to at most this many entries per unit, then
#: starts anew (its attack lists are then built again: amortised O(1) per change)
LOG_MAX_PER_UNIT = 4

#: options memoised per encounter at most (EncounterCaches.options; emptied when full)
OPTION_MEMO_MAX = 200_000


class BreathFlow(MovementFlow):
    """Breaths (mixed into the state)."""

    #: where the last build_breath_options put its own attack options: per maneuver (start, end,
    #: within) of a run of them in the list (within None: some are within the limit, some not);
    #: None when not known (a cached list, 式神 options added).  What a mass battle's breath reads
    #: instead of passing over every option (option_odds.annotation_plan, policies; issue #12)
    attack_spans: list[tuple[int, int, bool | None]] | None = None
    #: per span of ``attack_spans``, the targets of its options in order (None: not kept)
    attack_span_targets: list[list[Unit] | None] | None = None

    def cost_now(self, u: Unit, m: Move) -> int:
        """The cost of ``m`` for ``u`` now: final cost + a pending 構え崩し (S-T51)."""
        if u.collapse:
            return self.move_cost(u, m) + u.collapse
        return self.move_cost(u, m)

    def breath_limit_of(self, extensions: dict[str, int], narrowed: bool) -> int:
        """S-R27/S-R28/S-G32 (breath.breath_limit), kept per encounter (a pure function of these
        and the encounter's options)."""
        key = (narrowed is not None and narrowed is not False, *extensions.items())
        limits = self.caches.limits
        v = limits.get(key)
        if v is None:
            v = limits[key] = breath_limit(extensions, narrowed, self.opts)
        return v

    def zero_cap(self) -> int:
        return self.opts.zero_cost.cap

    def zero_refusal(self, u: Unit, m: Move) -> RuleViolation | None:
        """S-R59 / S-G40 (costs.check_zero_vigor_use): each 0-活力 effect once per 間合, all of
        them at most twice; the refusal, or ``None`` when one more use is legal."""
        try:
            check_zero_vigor_use(len(u.zero_used), u.zero_used.count(m.id), effect_limit=m.limit_per_round,
                                 options=self.opts)
        except RuleViolation as exc:
            return exc
        return None

    def zero_ok(self, u: Unit, m: Move) -> bool:
        return self.zero_refusal(u, m) is None

    # -- the breath -------------------------------------------------------------------------
    def start_breath(self, u: Unit) -> None:
        """S-R35 step 3: ``u`` takes a breath at its count.  Its old reservations expire
        (S-R38) and its 無防備 ends (S-R65) as the breath begins."""
        count = u.count_value()
        first = u.breaths_taken == 0 and u.first_bonus > 0
        self.actor = u
        u.breath_spent = 0
        u.attacks_in_breath = 0
        u.acted = 0
        u.cur_limit = self.breath_limit_of(u.extensions, u.narrowed)
        u.narrowed = False
        notes = []
        if u.reservations:
            notes.append(f"予約{len(u.reservations)}件 失効 (S-R38)")
            u.reservations.clear()
        if u.defenceless:
            notes.append("無防備 解除 (S-R65)")
            u.defenceless = False
            u.urev += 1  # the attack lists on it (Unit.urev)
        if u.cur_limit > self.rules.breath_official_cap:
            notes.append(f"公式上限{self.rules.breath_official_cap}超過 (S-R28)")
        self.emit_lazy("breath", "S-R35", breath_text,
                       (count, u.name, u.vigor, u.first_bonus if first else 0, u.cur_limit, notes),
                       unit=u.id, count=count, vigor=u.vigor, limit=u.cur_limit, maai=self.maai)
        if self.fx.book.active:  # issue #8: effects lasting until this unit's next breath end
            tick_effects(self, "breath", u.id)
        if self.fx.fear_aura != ():  # S-G18: aura fear sources in the catalog (maai/fear.py)
            fear.at_breath_start(self, u)

    def simple_unit(self, u: Unit) -> bool:
        """Whether ``u``'s breath options depend only on what :meth:`breath_options` keys its
        cache on: no puppets, and only attacks (melee, no limit per 間合, no 照準集中, no
        loading, not 0-活力), defences, counters, stances, 離脱/拾う and 止血 (the last three
        offer nothing in the plain situations the cache serves)."""
        v = self.simple_units.get(u.id)
        if v is None:
            v = u.id not in self.puppets
            for m in u.breath_moves:
                k = m.kind
                if k in ("attack", "defence", "counter", "stance"):
                    if (m.limit_per_round is not None or m.zero_cost or m.needs_load or m.aim_focus
                            or (k == "attack" and m.reach != 0)):
                        v = False
                elif not ((k == "movement" and m.effect in ("exit_shinpu", "pick_up")) or k == "maintenance"):
                    v = False
            self.simple_units[u.id] = v
        return v

    def breath_options(self, u: Unit) -> list[Option]:
        """:meth:`build_breath_options`, served from a per-encounter cache in plain situations
        of small battles (at most :data:`BREATH_CACHE_UNITS` units; a simple unit, not in 心府,
        weapon in hand, not bleeding, no 構え崩し), keyed on every number the options show or
        depend on: the unit's 活力, room, acted, zone, attacks this breath, stance, 無防備,
        reservations and 装填, and each enemy's state that enters the hit odds (down, zone,
        奇襲, stance, 無防備, armour, 陣形, reservations)."""
        hit = self.cached_breath(u)
        return self.build_breath_options(u) if hit is None else list(hit)

    def cached_breath(self, u: Unit) -> BreathList | None:
        """The cached list of :meth:`breath_options` (not a copy: never change it), ``None``
        when ``u``'s situation is not one the cache serves."""
        simple = self.simple_units.get(u.id)
        self.breath_hit = None
        if (u.shinpu or u.dropped or u.broken or u.bleeding or u.collapse or u.origin
                or not (self.simple_unit(u) if simple is None else simple) or len(self.units) > BREATH_CACHE_UNITS):
            return None
        self.attack_count = None  # not counted (build_breath_options counts)
        self.attack_spans = None
        side = u.side
        st = u.stance
        key = (u.id, u.vigor, u.cur_limit - u.breath_spent, not u.acted, u.zone, u.attacks_in_breath,
               id(st) if st is not None else 0, u.defenceless, u.loaded, u.sig, *[id(r) for r in u.reservations], "|",
               *[(t.id, t.incapacitated, t.zone, t.unaware, id(t.stance) if t.stance is not None else 0,
                  t.defenceless, t.armour_rev, t.formation, t.sig, *[id(r) for r in t.reservations])
                 for t in self.units if t.side != side])
        cache = self.breath_cache
        hit = cache.get(key)
        if not isinstance(hit, BreathList):  # not cached yet (every list cached is one)
            if len(cache) >= 20_000:
                cache.clear()
            hit = cache[key] = BreathList(self.build_breath_options(u))
        self.breath_hit = hit
        return hit

    def build_breath_options(self, u: Unit) -> list[Option]:
        """Every legal choice of ``u``'s breath now (S-R27…S-R32, S-R37, S-R58, S-R59, S-G21).

        Speed: the options are immutable values, so each distinct one is built once and
        reused (the encounter's ``caches.options``, keyed on everything its key, label and data
        show); the plain (non-心府) cost comes straight from the encounter's cost memo."""
        caches = self.caches
        memo = caches.options
        attacks = caches.attacks
        if len(memo) > OPTION_MEMO_MAX:
            memo.clear()
            attacks.clear()
        log = self.unit_changes
        if len(log) > LOG_MAX_PER_UNIT * len(self.units) + 64:
            # a new log (the attack lists on the old one start anew): it stays short, so a copied
            # state (lab search: deepcopy) does not carry the whole battle's changes
            log = self.unit_changes = []
            for x in self.units:
                x.changes = log
        v = u.vigor
        left = u.cur_limit - u.breath_spent
        out: list[Option] = []
        n_attacks = 0  # how many attack options (option_odds.annotate's reaction-note limit)
        #: where they are: (start, end, within) of each maneuver's attack options in ``out``
        spans: list[tuple[int, int, bool | None]] = []
        #: per span, the targets of its options in order (None: not kept, the options say)
        span_targets: list[list[Unit] | None] = []
        enemies: list[Unit] | None = None
        weapon_ok = not (u.dropped or u.broken)
        rules = self.rules
        over = rules.breath_max_over_limit  # S-G52 alt: no breath beyond limit + N
        overspend = rules.vigor_allow_overspend  # S-G33 alt: 活力 may go below 0
        gun_maneuver = rules.ranged_gun_reload_maneuver  # S-G20 alt: reload in a breath
        surprise = rules.surprise_bonus
        duplicates = rules.reservations_allow_duplicates
        plain = None if u.shinpu else self.plain_cost
        collapse = u.collapse
        hit_odds = self.hit_odds
        defence_of = self.defence_of
        dmemo = self.memo
        ge = GE_2D10
        nc = noncorporeal.ids(self) if noncorporeal.any_in(self) else ()  # S-G05 非実体 units
        # attack lists are kept per state unless a target's reservations (一刀短拍 as 防備) or
        # 非実体 enter the odds (neither is tracked by Unit.rev)
        listable = not nc and rules.counter_tanpaku_bonus_applies_to != "defense_value"
        gi = u.ab["gi"]
        tai = u.ab["tai"]
        bleeding = u.bleeding
        shinpu = u.shinpu
        dropped = u.dropped
        for m in u.breath_moves:
            k = m.kind
            if (k == "maintenance" and not bleeding) or not (weapon_ok or u.weapon_usable(m)):
                continue
            if k == "movement":
                # movement_options offers nothing for these now: skip the cost work and the call
                e = m.effect
                if (e == "exit_shinpu" and not shinpu) or (e == "pick_up" and not dropped):
                    continue
            if k == "command":
                if not (u.squad and u.grade in ("主", "将")):
                    continue
                cost = self.cost_now(u, m)
            elif plain is not None:
                c = plain.get(id(m))
                cost = (self.move_cost(u, m) if c is None else c) + collapse
            else:
                cost = self.cost_now(u, m)
            if (cost > v and not overspend) or (over is not None and cost > left + over):
                continue
            if m.limit_per_round is not None and not m.zero_cost and u.round_uses.get(m.id, 0) >= m.limit_per_round \
                    and not (m.needs_load and gun_maneuver):
                continue
            within = cost <= left
            if k == "attack":
                if m.needs_load and not u.loaded:
                    continue
                cap = self.aim_cap(u, m) if m.aim_focus else 0
                melee = m.reach == 0
                zone = u.zone
                tags_key = defence_key(m, 0, gi)
                # one dict per maneuver, cost and breath room: target → its option, by what it shows
                # (past the limit the label tells the overload and its check's odds, option_odds)
                excess = 0 if within else cost - left
                sub_key = (m.id, m.name, cost, within, excess, tai)
                sub = attacks.get(sub_key)
                if sub is None:
                    sub = attacks[sub_key] = {}
                over_note = overload_note(self, excess, tai)
                base_mod = self.attack_modifier_base(u, m, u.attacks_in_breath + 1)

                def option_on(t: Unit, m: Move = m, cost: int = cost, within: bool = within, sub: dict[
                        tuple[object, ...], Option] = sub, over_note: str = over_note, base_mod: int = base_mod,
                        tags_key: object = tags_key) -> Option:
                    """The attack option of ``m`` on ``t`` (hit_odds(u, m, t) inlined: the 防備 memo
                    read here, defence_of computes a missing one)."""
                    mod = base_mod + surprise if t.unaware else base_mod
                    st = t.stance
                    dfn = dmemo.get((t.id, st.id if st is not None else "", t.defenceless, tags_key,
                                     t.armour_rev, t.formation, t.sig))
                    if dfn is None:
                        dfn = defence_of(t, m, 0, gi)
                    if t.reservations:
                        dfn += self.tanpaku_value(t)
                    if nc and t.id in nc:
                        dfn += noncorporeal.defence_bonus(self, u, m, t)
                    # p_success(clamped mod, dfn), inlined
                    kk = dfn - (-10 if mod < -10 else 10 if mod > 10 else mod)
                    odds = 1.0 if kk <= -40 else 0.0 if kk >= 60 else ge[kk + 40]
                    tk = (t.id, t.name, odds)
                    o = sub.get(tk)
                    if o is None:
                        o = sub[tk] = Option(
                            f"use:{m.id}>{t.id}", f"{m.name} → {t.name} (活力{cost}){over_note}", cost=cost,
                            odds=odds, data={"kind": "attack", "move": m.id, "target": t.id, "within": within})
                    return o

                start = len(out)  # this maneuver's attack options: out[start:] (a span)
                if melee and not cap and listable:
                    # the list per state (flow_base.AttackList): per enemy its option; only the
                    # enemies in the change log since its last look are redone, so a mass battle's
                    # breath costs O(changes) here, not O(enemies) (issue #12 target 3)
                    list_key = (u.side, m.id, m.name, tags_key, cost, within, excess, tai, zone, base_mod)
                    lists = self.attack_lists
                    got = lists.get(list_key)
                    n_units = len(self.units)
                    if got is not None and got.n_units == n_units and got.log is log:
                        end = len(log)
                        if got.seen != end:  # redo the enemies logged since (their Unit.urev changed)
                            index = got.index
                            found = got.found
                            listed = got.listed
                            for j in range(got.seen, end):
                                t = log[j]
                                at = index.get(t.id)  # None: not an enemy of this list
                                if at is not None:
                                    o = None if t.incapacitated or t.zone != zone else option_on(t)
                                    was = found[at]
                                    if o is not was:  # (options are memoised: the same one if unchanged)
                                        # its place in the listed options: the targets listed before it
                                        # (counted at C level)
                                        pos = at - found[:at].count(None)
                                        found[at] = o
                                        if o is None:  # it left (戦闘不能, another zone)
                                            del listed[pos]
                                            del got.listed_targets[pos]
                                        elif was is None:  # it came
                                            listed.insert(pos, o)
                                            got.listed_targets.insert(pos, t)
                                        else:  # another option for the same target
                                            listed[pos] = o
                            got.seen = end
                    else:
                        targets = [t for t in self.units if t.side != u.side]
                        found = [None if t.incapacitated or t.zone != zone else option_on(t) for t in targets]
                        if len(lists) >= 10_000:
                            lists.clear()
                        got = lists[list_key] = AttackList(n_units, targets, found, log)
                    listed = got.listed
                    if listed:
                        out.extend(listed)
                        n_attacks += len(listed)
                        spans.append((start, len(out), within))
                        span_targets.append(got.listed_targets[:])  # (a copy: the list changes later)
                    continue
                if enemies is None:
                    enemies = [t for t in self.units if t.side != u.side and not t.incapacitated]
                for t in enemies:
                    if (t.zone == zone) if melee else self.in_reach(u, m, t):
                        out.append(option_on(t))
                        for n in range(1, cap + 1):
                            if cost + n > v and not overspend:
                                break
                            odds = hit_odds(u, m, t, n)
                            w_n = cost + n <= left
                            ex_n = 0 if w_n else cost + n - left
                            ck = (m.id, m.name, t.id, t.name, n, cost, odds, w_n, ex_n, tai)
                            o = memo.get(ck)
                            if o is None:
                                o = memo[ck] = Option(
                                    f"use:{m.id}>{t.id}+aim{n}", f"{m.name} 照準集中{n} → {t.name} (活力{cost + n})"
                                    f"{overload_note(self, ex_n, tai)}",
                                    cost=cost + n, odds=odds,
                                    data={"kind": "attack", "move": m.id, "target": t.id, "aim": n, "within": w_n})
                            out.append(o)
                if len(out) > start:
                    n_attacks += len(out) - start
                    spans.append((start, len(out), None if cap else within))  # None: 照準集中 options differ
                    span_targets.append(None)
            elif k == "defence" or k == "counter":
                if (m.reservable and not u.defenceless and (not m.zero_cost or self.zero_ok(u, m))
                        and (duplicates or m not in u.reservations)):
                    out.append(simple_option(memo, "reserve", m, cost, within))
            elif k == "movement":
                out.extend(self.movement_options(u, m, cost, within))
            elif k == "stance":
                if not u.defenceless and u.stance is not m:
                    out.append(simple_option(memo, "stance", m, cost, within))
            elif k == "maintenance":
                out.append(simple_option(memo, "maintenance", m, cost, within))
            elif k == "command":
                out.append(Option(f"use:{m.id}", f"{m.name} (陣形 防備+{self.rules.squad_formation_bonus}, 活力{cost})",
                                  cost=cost, data={"kind": "command", "move": m.id, "within": within}))
            elif k == "feat":
                if not m.zero_cost or self.zero_ok(u, m):
                    out.append(simple_option(memo, "feat", m, cost, within))
        self.attack_count = n_attacks
        self.attack_spans = spans
        self.attack_span_targets = span_targets
        if u.id in self.puppets or (gun_maneuver and not u.loaded):  # else gap_breath_options offers nothing
            out.extend(self.gap_breath_options(u))
            self.attack_count = None  # 式神 attacks among them: not counted
            self.attack_spans = None
        st = u.stance
        if st is not None:
            rc = self.rules.stances_release_cost  # S-R58: free (0) by default
            if rc == 0:
                o = memo.get(("release", st.name))
                if o is None:
                    o = memo["release", st.name] = Option("release", f"構え {st.name} 解除 (活力0)", cost=0,
                                                          data={"kind": "release"})
                out.append(o)
            elif rc <= v or overspend:
                out.append(Option("release", f"構え {st.name} 解除 (活力{rc})", cost=rc,
                                  data={"kind": "release", "within": rc <= left}))
        out.append(END if u.acted else PASS)
        return out

    def ask_breath(self, u: Unit) -> None:
        fx = self.fx
        nc = fx.noncorporeal
        # S-G05: no physical attacks on 非実体 units (maai/noncorporeal.py; any_in, inlined)
        blocked = noncorporeal.any_in(self) if nc is None or fx.noncorporeal_units != len(self.units) else nc
        hit = self.cached_breath(u)
        if hit is not None and not u.sig and not blocked:
            # a cached list: its label plan is worked out once (#13: odds vs the best reaction,
            # overload; the noted options are this state's, breath_memo.noted_options)
            plan = hit.plan
            if plan is None:
                plan = hit.plan = option_odds.annotation_plan(hit, u.cur_limit - u.breath_spent)
            options = noted_options(self, u, hit, plan)
            if len(options) > 1:
                self.wait = BreathWait(u.id, breath_prompt, (u.name, u.vigor, u.breath_spent, u.cur_limit), options,
                                       self.breath_handler(u), None, hit)
                return
            opts = list(options)
        else:
            opts = self.build_breath_options(u) if hit is None else list(hit)
            listed, attacks = len(opts), self.attack_count
            if u.sig:  # issue #8/S-G18: no attacks on what the unit fears
                opts = without_feared(fx, u.id, opts)
            if blocked:
                opts = noncorporeal.without_blocked(self, u, opts)
            # #13: odds vs the best reaction, overload (labels only; the attack count, unless filtered)
            kept = hit is None and len(opts) == listed  # not filtered: the count and the spans still hold
            spans = self.attack_spans if kept else None
            opts = option_odds.annotate(self, u, opts, attacks if kept else None, spans)
        if len(opts) == 1:
            # nothing else is legal: end/pass without asking
            if opts[0].key == "end":
                self.finish_breath(u)
            else:
                self.do_pass(u)
            return
        self.wait = BreathWait(u.id, breath_prompt, (u.name, u.vigor, u.breath_spent, u.cur_limit), tuple(opts),
                               self.breath_handler(u), spans, None,
                               self.attack_span_targets if spans is not None else None)

    def breath_handler(self, u: Unit) -> Callable[[str], None]:
        """What applies the chosen key of ``u``'s breath decision."""
        return lambda key: self.breath_action(u, key)

    def pay(self, u: Unit, cost: int) -> str:
        """Spend ``cost`` 活力 of ``u``'s breath; what it paid, as text."""
        before = self.pay_vigor(u, cost)
        return paid_text(cost, before, u.vigor)

    def pay_vigor(self, u: Unit, cost: int) -> int:
        """Spend ``cost`` 活力 of ``u``'s breath; the 活力 before."""
        before = u.vigor
        u.vigor -= cost
        u.breath_spent += cost
        u.acted += 1
        return before

    def breath_action(self, u: Unit, key: str) -> None:
        if key == "end":
            self.finish_breath(u)
            return
        if key == "pass":
            self.do_pass(u)
            return
        if key.startswith(("op:", "reload:")):
            self.gap_breath_action(u, key)
            return
        if key == "release":
            name = u.stance.name if u.stance else ""
            u.stance = None
            u.urev += 1  # the attack lists on it (Unit.urev)
            rc = self.rules.stances_release_cost
            paid = self.pay(u, rc) if rc else "活力0"
            self.emit("stance", "S-R58,S-R31", f"{u.name} 構え {name} 解除 ({paid})", unit=u.id)
            return
        verb, _, rest = key.partition(":")
        mid, _, arg = rest.partition(">")
        m = u.move_by_id[mid]
        arg, _, aim_txt = arg.partition("+aim")
        aim = int(aim_txt) if aim_txt else 0
        collapse = u.collapse
        plain = None if collapse or u.shinpu or m.kind == "command" else self.plain_cost.get(id(m))
        cost = (self.cost_now(u, m) if plain is None else plain) + aim  # cost_now: the encounter's plain cost
        before = u.vigor  # pay_vigor, inlined
        u.vigor = before - cost
        u.breath_spent += cost
        u.acted += 1
        if m.limit_per_round is not None and not m.zero_cost:
            u.round_uses[m.id] = u.round_uses.get(m.id, 0) + 1
        if collapse:
            u.collapse = 0
        if verb not in ("reserve", "stance") and m.kind == "attack":  # the common case: a lazy line
            self.emit_lazy("maneuver", "S-R27", maneuver_text, (u.name, m.name, cost, before, u.vigor, collapse),
                           unit=u.id, move=m.id, cost=cost, vigor=u.vigor)
            self.start_attack(u, m, self.by_id[arg], aim)
            return
        paid = paid_text(cost, before, u.vigor, collapse)
        if verb == "reserve":
            if m.zero_cost:
                u.zero_used.append(m.id)  # S-R57: a 0-活力 counter counts toward the 0-活力 cap
            u.reservations.append(m)
            self.emit("reserve", "S-R37", f"{u.name} {m.name} を予約 ({paid})", unit=u.id, move=m.id, cost=cost,
                      vigor=u.vigor)
        elif verb == "stance":
            old = f" ({u.stance.name} 解除)" if u.stance else ""
            u.stance = m
            u.urev += 1  # the attack lists on it (Unit.urev)
            self.emit("stance", "S-R58,S-G16", f"{u.name} 構え {m.name}{old} ({paid})", unit=u.id, move=m.id,
                      vigor=u.vigor)
        elif m.kind == "movement":
            self.do_movement(u, m, arg, paid)
        elif m.kind == "maintenance":
            u.bleeding = False
            self.emit("bind_wound", "S-G19", f"{u.name} {m.name}: 出血が止まる ({paid})", unit=u.id)
        elif m.kind == "command":
            bonus = self.rules.squad_formation_bonus
            members = [x for x in self.units if x.squad == u.squad and x.able]
            for x in members:
                x.formation = bonus
                x.urev += 1  # the attack lists on it (Unit.urev)
            self.emit("command", "S-R22,S-G14", f"{u.name} {m.name}: 分隊{u.squad} 陣形 防備+{bonus} "
                      f"({len(members)}人, 小康まで) ({paid})", unit=u.id, squad=u.squad)
        else:  # feat
            if m.zero_cost:
                u.zero_used.append(m.id)
                self.emit("feat", "S-R59", f"{u.name} {m.name} (0活力[型] {len(u.zero_used)}/{self.zero_cap()})",
                          unit=u.id, move=m.id, zero_used=len(u.zero_used))
            else:
                self.emit("feat", "S-R58", f"{u.name} {m.name} ({paid})", unit=u.id, move=m.id, vigor=u.vigor)

    def do_pass(self, u: Unit) -> None:
        """S-G21: a passed unit takes no more breaths this 間合 but keeps its 活力 for reactions."""
        u.passed = True
        u.breaths_taken += 1
        self.actor = None
        if not self.rules.count_pass_keeps_vigor:
            u.vigor = 0
        self.emit("pass", "S-G21", f"{u.name} パス (活力{u.vigor} 保持)", unit=u.id, vigor=u.vigor)

    def finish_breath(self, u: Unit) -> None:
        """S-R29: a breath that spent more than the limit ends with the overload check
        2d10 + 體 − excess ≥ 11 (its maneuvers have already happened)."""
        excess = overload_excess(u.breath_spent, u.cur_limit)
        if excess <= 0 or not u.able:
            self._close_breath(u, "")
            return
        tai = u.ab["tai"]

        def rolled(c: Check) -> None:
            res_ = overload_check(c.dice, tai, excess, u.cur_limit, self.opts)
            if res_.success:
                u.narrowed = True
                res = f"成功 → 次の一呼吸の限界{res_.next_limit} (S-G32)"
            else:
                lost = u.vigor
                u.vigor = 0
                res = f"失敗 → 残り活力{lost}喪失"
            self.emit("overload", "S-R29",
                      f"{u.name} 過負荷判定 (消費{u.breath_spent} > 限界{u.cur_limit}, 超過{excess}): "
                      f"{dice_text(c)} {'≥' if c.success else '<'} {self.rules.overload_tn} {res}", unit=u.id,
                      excess=excess, total=c.total, success=c.success, vigor=u.vigor)
            if not c.success:
                self.make_defenceless(u, "過負荷失敗 (S-R29)")
            self._close_breath(u, "")

        first = overload_check(self.roll2(f"{u.name} 過負荷判定", u.id), tai, excess, u.cur_limit, self.opts)
        self.offer_fate(u, first.check, rolled, own=True, relevance="no_crit")

    def _close_breath(self, u: Unit, note: str) -> None:
        u.breaths_taken += 1
        u.hidden = False
        self.actor = None
        self.emit_lazy("breath_end", "S-R35", breath_end_text, (u.name, u.breath_spent, u.vigor, note),
                       unit=u.id, spent=u.breath_spent, vigor=u.vigor)
