"""One attack, from the hit roll to damage and counters (000 §3.5–§3.9, 001).

Sequence (S-G36): hit roll → attacker's fate → target's lethal-hit fate (S-G51) → on a hit
the defender's reaction (reserved at 0, improvised at 1.5×, 緊急回避; none when 無防備 or
against 強化奇襲) → defence roll and its fate → damage (1, 会心 2, special crits) → counter
(一閃 model).  失着 → 無防備; 天命/業報 → d100 table (S-G07 placeholder tables).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Final

from ikusa.engine.events import Event
from ikusa.engine.protocol import Option
from ikusa.systems.maai import fear, noncorporeal
from ikusa.systems.maai.catalog import Tag
from ikusa.systems.maai.check import _FUMBLED, Check, Outcome
from ikusa.systems.maai.costs import aim_focus, aim_focus_cap
from ikusa.systems.maai.damage import Damage
from ikusa.systems.maai.effects import ROLL_KEYS, defence_effects, effect_notes
from ikusa.systems.maai.equipment import resolve_break
from ikusa.systems.maai.event_text import attack_text, damage_text, defence_text, dice_text, reaction_prompt
from ikusa.systems.maai.flow_base import p_success
from ikusa.systems.maai.guard import GuardFlow
from ikusa.systems.maai.moves import Move
from ikusa.systems.maai.options import CheckKind
from ikusa.systems.maai.rules_link import compute_defence, emergency_evasion, fatigue_penalty, hit_damage
from ikusa.systems.maai.units import Unit


class AttackCtx:
    """The attack being resolved."""

    __slots__ = ("attacker", "chk", "defence", "enhanced", "evasion", "move", "nullified", "target")

    def __init__(self, attacker: Unit, target: Unit, move: Move, defence: int, enhanced: bool) -> None:
        self.attacker = attacker
        self.target = target
        self.move = move
        self.defence = defence
        self.enhanced = enhanced
        self.chk: Check | None = None
        self.nullified = False
        self.evasion = False


#: the outcomes _resolve_hit tests, read once: an Enum class attribute goes through EnumType's
#: ``__getattr__`` hook (about a thousand instructions a read from compiled code)
_TENMEI: Final = Outcome.TENMEI
_GOUHOU: Final = Outcome.GOUHOU
#: S-G23: the TN a 聖人 check is rolled against (2d10 − 10 can never be below it)
SAINT_TN = -100
#: S-G05: the 防備 of a target immune to [霊体] attacks (2d10 + 10 never reaches it)
SPIRIT_IMMUNE = 100


def _done() -> None:
    return None


def defence_key(move: Move | None, aim: int, gi: int) -> object:
    """What of the attacking maneuver a 防備 depends on: its tags (the catalog's tuple, one object
    for every unit with the maneuver), or with 照準集中 the catalog maneuver, N and 技."""
    if move is None:
        return 0
    if aim and move.src is not None:
        return (id(move.src), aim, gi)
    return id(move.tags)


#: Event.lazy, fetched once: an event line formatted when first read (maai/event_text.py)
_lazy_event = Event.lazy

_NOREACT = Option("noreact", "防御しない", cost=0, data={"kind": "noreact"})


class AttackFlow(GuardFlow):
    """Attack resolution (mixed into the state)."""

    def defence_of(self, target: Unit, move: Move | None, aim: int = 0, gi: int = 0) -> int:
        """防備 of ``target`` against ``move`` (S-R44…S-R48, S-G42; defence.compute_defence),
        with 照準集中 ``aim`` added to the move's tag (S-R51, costs.aim_focus); memoised on what
        it depends on: the unit's stance and 無防備, the move's tags (shared by every unit with the
        maneuver: the catalog's tuple; with 照準集中 the maneuver, N and 技) and the aim."""
        st = target.stance
        key = (target.id, st.id if st is not None else "", target.defenceless, defence_key(move, aim, gi),
               target.armour_rev, target.formation, target.sig)
        v = self.memo.get(key)
        if v is None:
            tags: tuple[Tag, ...] = ()
            if move is not None:
                tags = move.tags
                if aim and move.src is not None:
                    tags = aim_focus(move.src, aim, gi, options=self.opts).tags
            n = self.resolved_of(target.id).numbers
            bonuses, debuffs = defence_effects(self.fx, target)  # issue #8: 防備 ±N effects (S-R48)
            res = compute_defence(
                target.base_def, target.armour_parts, target.defence_bonuses() + bonuses, tags,
                defenceless=target.defenceless, debuffs=debuffs, taima_tier=n.get("taima"),
                spirit_defence=n.get("spirit_defence", 0), options=self.opts)
            # S-G05: from 退魔 免許 a [霊体] attack fails: an unreachable 防備
            v = self.memo[key] = SPIRIT_IMMUNE if res.immune else res.final
        return v

    def saint_target(self, u: Unit, m: Move, target: int, opposed: bool) -> int:
        """S-G23: a check with a 聖人 skill succeeds whatever the TN (doubles still 会心, never
        失着): it is rolled against an unreachable-low TN.  Opposed rolls (a parry against a hit
        total) only with ``skills.saint_auto_success_scope = "all"`` (default)."""
        if m.skill is None or m.skill not in u.saint:
            return target
        if opposed and self.opts.skills.saint_auto_success_scope != "all":
            return target
        return SAINT_TN

    def aim_cap(self, u: Unit, m: Move) -> int:
        """S-G08/S-G53 (costs.aim_focus_cap): the largest 照準集中 N for ``m`` now."""
        if not m.aim_focus:
            return 0
        room = u.cur_limit - u.breath_spent
        return aim_focus_cap(u.ab["gi"], m.cost, room, self.opts)

    def attack_modifier(self, u: Unit, m: Move, target: Unit, fatigue_index: int) -> int:
        """S-R41/S-R52: ability + proficiency + fixed bonus + stance attack bonus + 連撃疲労
        (S-R66) + basic surprise +2 on the target's first incoming attack (S-R13)."""
        mod = self.attack_modifier_base(u, m, fatigue_index)
        if target.unaware:
            mod += self.rules.surprise_bonus
        return mod

    def attack_modifier_base(self, u: Unit, m: Move, fatigue_index: int) -> int:
        """:meth:`attack_modifier` without the target's part (the surprise bonus)."""
        mod = u.static_mod.get(id(m))
        if mod is None:  # static per unit and maneuver: worked out once
            mod = u.static_mod[id(m)] = u.ab[m.ability] + u.skill(m.skill) + m.bonus
        st = u.stance
        if st is not None:
            mod += st.attack_bonus
        if u.sig:  # issue #8: 命中 effects
            mod += self.fx.total(u.id, ROLL_KEYS["attack"])
        if m.kind == "attack" and m.reach == 0:  # melee
            # below fatigue.start_at the penalty is 0 whatever mitigates it (fatigue_penalty)
            if not 0 < fatigue_index < self.rules.fatigue_start_at:
                mod += fatigue_penalty(fatigue_index, self.fatigue_mitigations(u, m), self.opts)
        return mod

    def fatigue_mitigations(self, u: Unit, m: Move) -> list[str]:  # pragma: no cover - overridden
        raise NotImplementedError

    def leave_shinpu(self, u: Unit) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def hit_odds(self, u: Unit, m: Move, target: Unit, aim: int = 0) -> float:
        mod = self.attack_modifier(u, m, target, u.attacks_in_breath + 1)
        dfn = self.defence_of(target, m, aim, u.ab["gi"])
        if target.reservations:  # tanpaku_value is 0 without reservations
            dfn += self.tanpaku_value(target)
        if noncorporeal.any_in(self):  # S-G05 alt: 非実体 防備 +4 against a physical attack
            dfn += noncorporeal.defence_bonus(self, u, m, target)
        return p_success(-10 if mod < -10 else 10 if mod > 10 else mod, dfn)

    def tanpaku_value(self, t: Unit) -> int:
        """S-G39 alt (``counter.tanpaku_bonus_applies_to = "defense_value"``): while 一刀短拍's
        counter is held its +2 raises the 防備 the attack roll must reach (default: the defence roll)."""
        if self.rules.counter_tanpaku_bonus_applies_to != "defense_value" or not t.reservations:
            return 0
        return max((r.defence_roll_bonus for r in t.reservations if r.kind == "counter"), default=0)

    # -- declaration ------------------------------------------------------------------------
    def start_attack(self, u: Unit, m: Move, target: Unit, aim: int = 0) -> None:
        enhanced = u.hidden
        melee = m.kind == "attack" and m.reach == 0  # m.melee
        if melee:
            u.attacks_in_breath += 1
        mod = self.attack_modifier_base(u, m, u.attacks_in_breath)  # attack_modifier, inlined
        if target.unaware:
            mod += self.rules.surprise_bonus
        notes = []
        if melee and u.attacks_in_breath >= 4:
            pen = fatigue_penalty(u.attacks_in_breath, self.fatigue_mitigations(u, m), self.opts)
            notes.append(f"連撃疲労{pen} (S-R66)")
        if target.unaware:
            notes.append("奇襲+2 (S-R13)")
            target.unaware = False
            target.urev += 1  # the attack lists on it (Unit.urev)
        if enhanced:
            # S-G17: the target cannot defend against it and becomes 無防備, on declaration
            # (default: −4 applies to this attack) or after the attack (option)
            u.hidden = False
            if self.rules.surprise_defenceless_on_declare:
                self.make_defenceless(target, "強化奇襲の対象 (S-R55/S-R63)")
            notes.append("強化奇襲")
        if m.needs_load:
            u.loaded = False
        if aim:
            notes.append(f"照準集中{aim} (S-R51)")
        if u.sig or target.sig or self.fx.next_mod:
            notes.extend(effect_notes(self.fx, u, target))
        dfn = self.defence_of(target, m, aim, u.ab["gi"])
        if target.reservations:  # tanpaku_value is 0 without reservations
            dfn += self.tanpaku_value(target)
        if noncorporeal.any_in(self):  # S-G05 alt: 非実体 防備 +4 against a physical attack
            dfn += noncorporeal.defence_bonus(self, u, m, target)
        ctx = AttackCtx(u, target, m, dfn, enhanced)
        extra = f" [{' '.join(notes)}]" if notes else ""
        tn = self.saint_target(u, m, dfn, opposed=False) if u.saint else dfn
        # straight on to the hit unless a fate question is asked (issue #12: no continuation made)
        c = self.roll_check(u, mod, tn, m.name, " 命中", m.crit_extension or u.crit_ext, "all",
                            self._after_attacker_fate, (ctx, extra))
        if c is not None:
            self._after_attacker_fate(ctx, extra, c)

    def _after_attacker_fate(self, ctx: AttackCtx, extra: str, c: Check) -> None:
        ctx.chk = c
        t = ctx.target
        if (c.success and t.fate_left > 0 and self.rules.fate_lethal_exception
                and self.damage_of(ctx.move, c).target >= t.wounds):

            def moved(c2: Check) -> None:
                ctx.chk = c2
                self._resolve_hit(ctx, extra)

            self.offer_fate(t, c, moved, own=False)
            return
        self._resolve_hit(ctx, extra)

    def damage_of(self, m: Move, c: Check, kind: CheckKind = "attack") -> Damage:
        """S-R41/S-R43/S-R60 (damage.hit_damage): hit = damage; 会心 = the catalog's crit damage
        (2, special crits 斬馬刀/野太刀 3, 鉄砲 2 + 1 behind)."""
        key = (c.outcome, m.damage, m.crit_damage, m.behind_damage, m.crit_behind_damage, kind)
        damages = self.caches.damages
        d = damages.get(key)
        if d is None:
            d = damages[key] = hit_damage(c.outcome, m.damage, m.crit_damage, m.behind_damage, m.crit_behind_damage,
                                          kind, self.opts)
        return d

    # -- hit or miss ------------------------------------------------------------------------
    def _resolve_hit(self, ctx: AttackCtx, extra: str) -> None:
        c = ctx.chk
        assert c is not None
        a, t, m = ctx.attacker, ctx.target, ctx.move
        out = c.outcome
        ov = out._value_  # (Enum.value is a Python-level property: the plain attribute, hot path)
        ok = c.success  # = out.succeeded (a ForcedCheck's too)
        if c.target == SAINT_TN:
            extra += " [聖人 自動成功 S-G23]"
        self.ev.append(_lazy_event("attack", "S-R41", attack_text, (a.name, m.name, t.name, c, ctx.defence, extra),
                                   {"attacker": a.id, "target": t.id, "move": m.id, "dice": list(c.dice),
                                    "total": c.total, "defence": ctx.defence, "outcome": ov}))
        if not ok:
            if ctx.enhanced and self.rules.surprise_defenceless_after:
                self.make_defenceless(t, "強化奇襲の対象 (S-R55/S-R63)")
            # S-G38 alt (counter.issen_triggers = any_melee): a counter also answers a miss
            after: Callable[[], None] = _done
            if self.rules.counter_issen_any_melee:
                after = partial(self._counter, ctx)
            if out.fumbled and self.rules.doubles_fumble_attack:
                self.make_defenceless(a, "失着 (S-R10)")
                if out is _GOUHOU and self.rules.doubles_table_attack:
                    self.table_roll(a, "致命的失敗表", after)
                else:
                    self.fumble_extras(a, after)
            else:
                after()
            return
        if out is _TENMEI and self.rules.doubles_table_attack:
            self.table_roll(a, "決定的瞬間表", lambda: self._ask_reaction(ctx))
            return
        self._ask_reaction(ctx)

    # -- reaction ---------------------------------------------------------------------------
    def reaction_options(self, t: Unit, ctx: AttackCtx) -> list[Option]:
        """S-R37…S-R40, S-R53…S-R55, S-G35, S-G58, S-G60."""
        parry_only = False
        if ctx.enhanced or t.incapacitated:
            return []
        if t.defenceless:
            if self.rules.defenseless_blocks_all:
                return []
            parry_only = True  # S-G60 alt: only evasion/counter types are blocked
        c = ctx.chk
        assert c is not None
        # the list depends only on these (costs: 心府 or not; usable: weapon in hand; odds: the
        # hit total), so each distinct list is built once per encounter
        key = (t.id, c.total, parry_only, t.vigor, not t.shinpu, t.dropped, t.broken, t.sig,
               *[id(r) for r in t.reservations])
        cache = self.react_cache
        hit = cache.get(key)
        if hit is None:
            if len(cache) >= 20_000:
                cache.clear()
            hit = cache[key] = self._build_reaction_options(t, c.total, parry_only)
        return list(hit)

    def _build_reaction_options(self, t: Unit, total: int, parry_only: bool) -> list[Option]:
        out: list[Option] = []
        seen: set[str] = set()
        memo = self.caches.options  # immutable values, reused: keyed on all they show
        for r in t.reservations:
            if r.kind == "defence" and r.id not in seen and t.weapon_usable(r) and (
                    not parry_only or r.defence_type == "parry"):
                seen.add(r.id)
                p = p_success(self.defence_modifier(t, r), total)
                ck: tuple[object, ...] = ("react", r.id, r.name, p)
                o = memo.get(ck)
                if o is None:
                    o = memo[ck] = Option(f"react:{r.id}", f"{r.name} (予約済み, 活力0)", cost=0, odds=p,
                                                 data={"kind": "react", "move": r.id, "reserved": True})
                out.append(o)
        for m in t.defence_moves:  # the unit's defence maneuvers, in order
            if not t.weapon_usable(m) or (parry_only and m.defence_type != "parry"):
                continue
            cost = self.improv_cost(t, m)
            if cost <= t.vigor or (self.rules.vigor_allow_overspend and not self.is_puppet(t)):
                p = p_success(self.defence_modifier(t, m), total)
                ck = ("improv", m.id, m.name, cost, p)
                o = memo.get(ck)
                if o is None:
                    o = memo[ck] = Option(f"improv:{m.id}", f"{m.name} (即興, 活力{cost})", cost=cost, odds=p,
                                                 data={"kind": "react", "move": m.id, "reserved": False})
                out.append(o)
        if out:
            out.append(_NOREACT)
        return out

    def defence_modifier(self, t: Unit, m: Move) -> int:
        """S-R53/S-G37: 2d10 + 技 (+ the weapon skill once for parries) + fixed bonus."""
        mod = t.ab[m.ability] + m.bonus
        if m.defence_type == "parry":
            mod += t.skill(m.skill)
        if t.sig:  # issue #8: 防御 effects
            mod += self.fx.total(t.id, ROLL_KEYS["defence"])
        return -10 if mod < -10 else 10 if mod > 10 else mod

    def _ask_reaction(self, ctx: AttackCtx) -> None:
        t = ctx.target
        opts = self.reaction_options(t, ctx)
        if not opts:
            self._apply_damage(ctx)
            return
        c = ctx.chk
        assert c is not None
        self.ask_lazy(t.id, "reaction", reaction_prompt, (t.name, ctx.attacker.name, ctx.move.name, c.total), opts,
                      partial(self._reaction_chosen, ctx), partial(self._ask_reaction, ctx))

    def _reaction_chosen(self, ctx: AttackCtx, key: str) -> None:
        if key == "noreact":
            self._apply_damage(ctx)
            return
        t = ctx.target
        mid = key.split(":", 1)[1]
        if key.startswith("react:"):
            for m in t.reservations:
                if m.id == mid:
                    break
            t.reservations.remove(m)
            how = "予約発動 活力0 (S-R37)"
        else:
            m = t.move_by_id[mid]  # the first maneuver with the id
            cost = self.improv_cost(t, m)
            before = t.vigor
            t.vigor -= cost
            how = f"即興 活力{cost} {before}→{t.vigor} (S-R40)"
        self._defend(ctx, m, how)

    def _defend(self, ctx: AttackCtx, m: Move, how: str) -> None:
        t = ctx.target
        c = ctx.chk
        assert c is not None
        # S-G39: 一刀短拍 (defence and counter at once): +2 on the defence roll while its counter is held
        school = 0
        if t.reservations and self.rules.counter_tanpaku_bonus_applies_to == "defense_roll":
            school = max((r.defence_roll_bonus for r in t.reservations if r.kind == "counter"), default=0)
        tn = self.saint_target(t, m, c.total, opposed=True) if m.defence_type == "parry" and t.saint else c.total
        d = self.roll_check(t, self.defence_modifier(t, m) + school, tn, m.name, " 防御", False, "no_crit",
                            self._defence_rolled, (ctx, m, how))
        if d is not None:
            self._defence_rolled(ctx, m, how, d)

    def _defence_rolled(self, ctx: AttackCtx, m: Move, how: str, d: Check) -> None:
        t = ctx.target
        c = ctx.chk
        assert c is not None
        ok = d.success
        self.ev.append(_lazy_event("defence", "S-R53,S-R54" if m.defence_type == "evasion" else "S-R53", defence_text,
                                   (t.name, m.name, how, d, c.total), {"unit": t.id, "move": m.id,
                                                                      "dice": list(d.dice), "total": d.total,
                                                                      "success": ok}))
        if ok:
            ctx.nullified = True
        else:
            ctx.evasion = m.defence_type == "evasion"
            if d.outcome in _FUMBLED and self.rules.doubles_fumble_defense:
                self.make_defenceless(t, "防御の失着 (S-G28)")
        self._apply_damage(ctx)

    # -- damage -----------------------------------------------------------------------------
    def _apply_damage(self, ctx: AttackCtx) -> None:
        c = ctx.chk
        assert c is not None
        if not ctx.nullified:
            self._break(ctx)
            d = self.damage_of(ctx.move, c)
            dmg = d.target
            rule = d.rule + ",S-R60"
            if ctx.evasion:
                dmg = emergency_evasion(dmg)
                rule = "S-R54,S-R60"
            self.wound(ctx.target, dmg, rule, ctx.move.name)
            if ctx.move.bleed and ctx.target.able and self.rules.status_bleed and not ctx.target.bleeding:
                ctx.target.bleeding = True
                self.emit("bleed", "S-G19", f"{ctx.target.name} 出血 (毎間合開始に戦力−1, 止血まで)",
                          unit=ctx.target.id)
            if ctx.move.src is not None and ctx.move.src.effects:  # S-G18: a fear maneuver (maai/fear.py)
                fear.after_hit(self, ctx.target, ctx.attacker, ctx.move)
            behind = d.behind
            if behind:
                # S-R43 / S-G15 / S-G65: one other enemy in the target's zone (the attacker's pick:
                # the first listed; zones.pass_through_selection = random: a die) takes the
                # pass-through damage, no roll
                behind_units = [x for x in self.units if x.side == ctx.target.side and x.able
                                and x is not ctx.target and x.zone == ctx.target.zone]
                other = behind_units[0] if behind_units else None
                if len(behind_units) > 1 and self.rules.zones_pass_through_random:
                    assert self.dice is not None
                    (i,) = self.dice.roll(len(behind_units), 1, f"{ctx.move.name} 背後の敵", roller="GM")
                    other = behind_units[i - 1]
                if other is not None:
                    self.wound(other, behind, "S-R43,S-G65", f"{ctx.move.name} 背後")
        if ctx.enhanced and self.rules.surprise_defenceless_after:
            self.make_defenceless(ctx.target, "強化奇襲の対象 (S-R55/S-R63)")
        if not ctx.target.reservations and not self.guard_possible():
            return  # no reserved counter and no 護衛態勢 anywhere: _counter and guard_counter do nothing
        self._counter(ctx, partial(self.guard_counter, ctx.attacker, ctx.target, ctx.move, True, _done))

    def _break(self, ctx: AttackCtx) -> None:
        """S-R49 / S-G45 (equipment.resolve_break): [貫通 N] + [破壊] on a hit makes the armour
        reduction permanent when the weapon's grade ≥ the armour's grade."""
        m, t = ctx.move, ctx.target
        if not t.armour:
            return
        memo = self.memo
        key = ("breaks", id(m.tags))  # the catalog's tuple, shared by every unit with the maneuver
        breaks = memo.get(key)
        if breaks is None:
            breaks = memo[key] = int(any(tag.kind == "break" for tag in m.tags))
        if not breaks:
            return
        weapon = m.src.weapon if m.src is not None else None
        grade = ctx.attacker.weapon_grades.get(weapon, "補給") if weapon else "補給"
        res = resolve_break(m.tags, grade, t.armour, hit=True, options=self.opts)
        if res.losses:
            t.set_armour(res.pieces)
        self.emit("break", "S-R49", f"{t.name} {res.text} (武器等級{grade})", unit=t.id, losses=res.losses,
                  immune=list(res.immune))

    def wound(self, t: Unit, dmg: int, rule: str, what: str) -> None:
        """S-R60/S-R61: lose 戦力 (never below 0); 0 → 戦闘不能, removed from its zone; a 主
        going down costs its squad 1 結束力."""
        before = t.wounds
        after = before - dmg if dmg > 0 else before  # apply_wounds (S-R60), inlined: never below 0
        if after < 0:
            after = 0
        t.wounds = after
        self.ev.append(_lazy_event("damage", rule, damage_text, (t.name, before, after, what, dmg),
                                   {"unit": t.id, "damage": dmg, "wounds": after}))
        if after == 0 and not t.incapacitated:
            t.incapacitated = True
            self.two_sides_able = False  # the end test scans again (FlowBase.two_sides_able)
            t.urev += 1  # the attack lists on it (Unit.urev)
            t.reservations.clear()
            self.leave_shinpu(t)
            t.stance = None
            t.urev += 1
            t.vigor = 0
            self.emit("down", "S-R61", f"{t.name} 戦闘不能", unit=t.id)
            if t.grade == "主" and t.squad:
                self.lose_cohesion(t.squad, f"主 {t.name} 戦闘不能")
            if self.rules.puppets_fall_with_caster:
                self.puppets_leave(t)

    def lose_cohesion(self, squad: str, why: str) -> None:
        """S-R61 / S-G14: 結束力 −1; at ``squad.rout_at`` the squad routs: its 雑/卒 leave the
        battle (戦闘不能 without a survival roll)."""
        sq = self.opts.squad
        cur = self.cohesion.get(squad, sq.cohesion_start)
        self.cohesion[squad] = cur - 1
        self.emit("cohesion", "S-R61,S-G14", f"{why} → 分隊{squad} 結束力 {cur}→{cur - 1}", squad=squad,
                  cohesion=cur - 1)
        if cur - 1 <= sq.rout_at:
            for u in self.units:
                if u.squad == squad and u.able and u.grade in ("雑", "卒"):
                    u.incapacitated = True
                    self.two_sides_able = False  # the end test scans again (FlowBase.two_sides_able)
                    u.urev += 1  # the attack lists on it (Unit.urev)
                    u.vigor = 0
                    u.reservations.clear()
                    self.leave_shinpu(u)
                    self.emit("rout", "S-G14", f"{u.name} 潰走 (分隊{squad} 結束力{cur - 1})", unit=u.id)

    def make_defenceless(self, u: Unit, why: str) -> None:
        """S-R63/S-R64/S-G41: 無防備: stance dissolved, reservations voided, 防備 −4."""
        if u.incapacitated:
            return
        u.defenceless = True
        u.urev += 1  # the attack lists on it (Unit.urev)
        dropped = []
        if u.stance is not None:
            dropped.append(f"構え{u.stance.name}解除")
            u.stance = None
            u.urev += 1
        if u.reservations and self.rules.defenseless_voids_reservations:
            dropped.append("予約消滅")
            u.reservations.clear()
        more = f" ({'・'.join(dropped)})" if dropped else ""
        self.emit("defenceless", "S-R63,S-R64", f"{u.name} 無防備: {why}{more}", unit=u.id)

    # -- counters ---------------------------------------------------------------------------
    def _counter(self, ctx: AttackCtx, then: Callable[[], None] = _done) -> None:
        """S-R56/S-R57/S-G38: a reserved counter triggers on a melee attack that hit (whether
        nullified or not; also on a miss with ``counter.issen_triggers = any_melee``, the only
        way this is reached after a miss), or only after a nullification for school 反撃 (一刀切断);
        not at 0 戦力.  ``then`` continues the flow (the 護衛態勢 auto-counter, S-G61)."""
        t, a = ctx.target, ctx.attacker
        if (not t.reservations or (ctx.move.ranged and not self.rules.counter_vs_ranged) or t.incapacitated
                or a.incapacitated or t.defenceless):  # no reservation: no counter can trigger
            then()
            return

        def triggers(r: Move) -> bool:
            if r.kind != "counter" or not t.weapon_usable(r):
                return False
            if ctx.nullified:
                return True
            return not r.counter_only_after_nullify  # hit, or a miss under any_melee

        m = next((r for r in t.reservations if triggers(r)), None)
        if m is None:
            then()
            return
        t.reservations.remove(m)
        mod = t.ab[m.ability] + t.skill(m.skill) + m.bonus + m.counter_bonus
        if t.sig:  # issue #8: 命中 effects on the counter's hit roll
            mod += self.fx.total(t.id, ROLL_KEYS["attack"])
        dfn = self.defence_of(a, m)

        def rolled(c: Check) -> None:
            self.emit("counter", "S-R56", f"{t.name} {m.name} 反撃 → {a.name}: {dice_text(c)} "
                      f"{'≥' if c.success else '<'} 防備{dfn} {c.outcome.value if c.doubles else ''}"
                      f"{'命中' if c.success else '失敗'}", unit=t.id, target=a.id, move=m.id,
                      dice=list(c.dice), total=c.total, defence=dfn)
            if c.success:
                self.wound(a, self.damage_of(m, c, "counter").target, "S-R56,S-R60", m.name)
                if c.outcome.value == "天命" and self.rules.doubles_table_counter:
                    self.table_roll(t, "決定的瞬間表", then)
                    return
            elif c.outcome.fumbled and self.rules.doubles_fumble_counter:
                self.make_defenceless(t, "反撃の失着 (S-R10)")
                if c.outcome.value == "業報" and self.rules.doubles_table_counter:
                    self.table_roll(t, "致命的失敗表", then)
                    return
            then()

        self.check(t, mod, self.saint_target(t, m, dfn, opposed=False), f"{m.name} 反撃",
                   self.lethal_counter_fate(a, m, rolled), m.crit_extension)
