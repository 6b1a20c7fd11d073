"""護衛態勢 (侍 [構え]) auto-counter (S-G16, S-G61, S-R59; 000 §3.7 L321-323).

S-G61 default: 護衛態勢 is a [構え] (maintained, one stance at a time); while it is held the
holder may answer a melee attack with an automatic counter that needs no reservation and
costs 0 活力 — a 0-活力 [型] effect, so it is once per 間合 (S-R59 "間合1回自動付与", S-G40) and
counts toward the shared cap of 2 0-活力 uses per 間合.

Trigger (as 一閃, S-G38): an enemy's melee attack that hit (nullified or not) — against the
holder or, with ``stances.guard_counter_protects = "zone_allies"`` (default, invented: 護衛
= escort), an ally in the holder's zone.  Not when the holder is 無防備 (S-R64) or down, not
against ranged attacks unless ``counter.vs_ranged``.  The counter is one of the holder's melee
attack maneuvers: ``2d10 + ability + skill + bonus ≥ the attacker's 防備``, counter damage
(S-R56/S-R60).  The holder decides (a ``reaction`` decision: ``guard:MOVE`` or ``noreact``).
"""

from __future__ import annotations

from collections.abc import Callable

from ikusa.engine.errors import RuleViolation
from ikusa.engine.protocol import Option
from ikusa.systems.maai.check import Check
from ikusa.systems.maai.damage import Damage
from ikusa.systems.maai.event_text import dice_text
from ikusa.systems.maai.flow_base import p_success
from ikusa.systems.maai.moves import Move
from ikusa.systems.maai.options import CheckKind
from ikusa.systems.maai.puppets import PuppetFlow
from ikusa.systems.maai.rules_link import check_zero_vigor_use
from ikusa.systems.maai.units import Unit

#: the catalog stance effect that grants the auto-counter (data/stances.yaml 護衛態勢)
GUARD_EFFECT = "auto_counter_zero_vigor"


class GuardFlow(PuppetFlow):
    """The 護衛態勢 auto-counter (mixed into the state)."""

    # hooks implemented by the attack flow
    def lethal_counter_fate(self, attacker: Unit, m: Move, rolled: Callable[[Check], None]) -> Callable[[Check], None]:
        """After the counter's own fate: S-G51's lethal-hit exception also lets the attacker,
        about to be downed by a counter (一閃-type or 護衛態勢), spend its fate on that roll."""

        def own_fate_done(c: Check) -> None:
            if (c.success and self.damage_of(m, c, "counter").target >= attacker.wounds and attacker.fate_left > 0
                    and self.rules.fate_lethal_exception):
                self.offer_fate(attacker, c, rolled, own=False)
                return
            rolled(c)

        return own_fate_done

    def defence_of(self, target: Unit, move: Move | None, aim: int = 0, gi: int = 0) -> int:  # pragma: no cover
        raise NotImplementedError

    def damage_of(self, m: Move, c: Check, kind: CheckKind = "attack") -> Damage:  # pragma: no cover
        raise NotImplementedError

    def make_defenceless(self, u: Unit, why: str) -> None:  # pragma: no cover
        raise NotImplementedError

    # -- conditions ---------------------------------------------------------------------
    def guard_stance(self, u: Unit) -> Move | None:
        """The unit's held stance when it grants the 護衛態勢 auto-counter (S-G61)."""
        st = u.stance
        if st is None:
            return None
        key = ("guard", st.id)
        v = self.memo.get(key)
        if v is None:
            cat = self.enc.catalog.stances.get(st.id)
            v = self.memo[key] = int(cat is not None and GUARD_EFFECT in cat.effects)
        return st if v else None

    def guard_possible(self) -> bool:
        """Whether any unit of the encounter can ever hold 護衛態勢 (its starting stance or a
        stance maneuver it knows grants the auto-counter): when none can, no holder is looked
        for.  Memoised per encounter (its units and their maneuvers never change)."""
        key = ("guard_possible",)
        v = self.memo.get(key)
        if v is None:
            stances = self.enc.catalog.stances
            ids: set[str] = set()
            for u in self.units:
                st = self.resolved_of(u.id).stance
                if st is not None:
                    ids.add(st.id)
                ids.update(m.id for m in u.moves if m.kind == "stance")
            v = self.memo[key] = int(any((cat := stances.get(i)) is not None and GUARD_EFFECT in cat.effects
                                         for i in ids))
        return bool(v)

    def guard_refusal(self, g: Unit) -> RuleViolation | None:
        """S-R59/S-G40/S-G61: the auto-counter is a 0-活力 [型] effect: once per 間合, within the cap."""
        st = self.guard_stance(g)
        if st is None:
            return RuleViolation("S-G61", "000 §3.7 護衛態勢", f"{g.name} does not hold 護衛態勢")
        try:
            check_zero_vigor_use(len(g.zero_used), g.zero_used.count(st.id), options=self.opts)
        except RuleViolation as exc:
            return exc
        return None

    def guard_moves(self, g: Unit, attacker: Unit) -> list[Move]:
        """The holder's melee attack maneuvers usable against ``attacker`` now."""
        return [m for m in g.breath_moves if m.kind == "attack" and m.melee and g.weapon_usable(m)
                and self.in_reach(g, m, attacker)]

    def guard_options(self, g: Unit, attacker: Unit) -> list[Option]:
        out = []
        for m in self.guard_moves(g, attacker):
            mod = max(-10, min(10, g.ab[m.ability] + g.skill(m.skill) + m.bonus))
            out.append(Option(f"guard:{m.id}", f"護衛態勢 自動反撃 {m.name} → {attacker.name} (0活力[型])", cost=0,
                              odds=p_success(mod, self.defence_of(attacker, m)),
                              data={"kind": "react", "move": m.id, "reserved": False, "guard": True}))
        if out:
            out.append(Option("noreact", "自動反撃しない", cost=0, data={"kind": "noreact"}))
        return out

    def guard_counter(self, attacker: Unit, target: Unit, move: Move, hit: bool, then: Callable[[], None]) -> None:
        """After an enemy melee attack on ``target`` resolved: offer the 護衛態勢 auto-counter to
        each eligible holder in turn (the target first), then ``then()``."""
        if (not hit or (move.ranged and not self.opts.counter.vs_ranged) or not move.kind == "attack"
                or not self.guard_possible()):
            then()
            return
        protects = self.opts.stances.guard_counter_protects
        holders = [g for g in self.units if g.side == target.side and g.able and not g.defenceless
                   and self.guard_stance(g) is not None
                   and (g is target or (protects == "zone_allies" and g.zone == target.zone))]
        holders.sort(key=lambda g: g is not target)
        self._next_guard(attacker, holders, then)

    def _next_guard(self, attacker: Unit, holders: list[Unit], then: Callable[[], None]) -> None:
        while holders:
            g = holders.pop(0)
            if not attacker.able or not g.able or g.defenceless or self.guard_refusal(g) is not None:
                continue
            opts = self.guard_options(g, attacker)
            if not opts:
                continue

            def handle(key: str, g: Unit = g) -> None:
                if key == "noreact":
                    self._next_guard(attacker, holders, then)
                    return
                m = next(x for x in g.breath_moves if x.id == key[6:])
                self._guard_roll(g, attacker, m, lambda: self._next_guard(attacker, holders, then))

            def again(g: Unit = g) -> None:  # a GM ruling: the same holder is asked anew (issue #8 §2)
                self._next_guard(attacker, [g, *holders], then)

            self.ask(g.id, "reaction", f"{g.name}: 護衛態勢 — {attacker.name} に自動反撃? "
                     f"(0活力[型] {len(g.zero_used)}/{self.opts.zero_cost.cap})", opts, handle, again)
            return
        then()

    def _guard_roll(self, g: Unit, a: Unit, m: Move, then: Callable[[], None]) -> None:
        st = self.guard_stance(g)
        assert st is not None
        g.zero_used.append(st.id)
        mod = g.ab[m.ability] + g.skill(m.skill) + m.bonus
        dfn = self.defence_of(a, m)

        def rolled(c: Check) -> None:
            self.emit("guard_counter", "S-G61,S-R59,S-R56",
                      f"{g.name} 護衛態勢 自動反撃 {m.name} → {a.name} (0活力[型] {len(g.zero_used)}/"
                      f"{self.opts.zero_cost.cap}): {dice_text(c)} {'≥' if c.success else '<'} 防備{dfn} "
                      f"{c.outcome.value if c.doubles else ''}{'命中' if c.success else '失敗'}",
                      unit=g.id, target=a.id, move=m.id, dice=list(c.dice), total=c.total, defence=dfn,
                      zero_used=len(g.zero_used))
            if c.success:
                self.wound(a, self.damage_of(m, c, "counter").target, "S-R56,S-R60", f"護衛態勢 {m.name}")
            elif c.outcome.fumbled and "counter" in self.opts.doubles.fumble_checks:
                self.make_defenceless(g, "自動反撃の失着 (S-R10)")
            then()

        self.check(g, mod, dfn, f"護衛態勢 {m.name} 反撃", self.lethal_counter_fate(a, m, rolled),
                   m.crit_extension or g.crit_ext)

    # -- the gap rules' entry points used by the breath flow and the refusals -------------
    def gap_breath_options(self, u: Unit) -> list[Option]:
        """Breath options of the rules added here: 式神/傀儡 operation (S-G24) and the 鉄砲
        reload maneuver (``ranged.gun_reload = "maneuver"``, S-G20)."""
        out = self.operation_options(u)
        if self.opts.ranged.gun_reload == "maneuver" and not u.loaded:
            out.extend(self.reload_breath_options(u, {m.id: self.cost_now(u, m) for m in u.moves
                                                      if m.effect == "reload"}))
        return out

    def gap_breath_action(self, u: Unit, key: str) -> None:
        if key.startswith("op:"):
            self.operate(u, key)
            return
        m = next(x for x in u.moves if x.id == key[7:])
        paid = self.pay(u, self.cost_now(u, m))
        u.loaded = True
        self.emit("reload", "S-G20", f"{u.name} {m.name}: 装填 ({paid})", unit=u.id, vigor=u.vigor)

    def explain_gap(self, u: Unit | None, kind: str, action: str) -> RuleViolation | None:
        """Name the rule an action of the gap rules breaks (S-G24, S-R59, S-G61, S-G20, S-R36, S-G49)."""
        verb = action.partition(":")[0]
        if verb == "first":
            if kind != "count_tie":
                return RuleViolation("S-G49", "000 §3.4 カウント進行", "no count tie is waiting for a choice")
            return RuleViolation("S-G49", "000 §3.4 カウント進行", f"{action[6:]!r} is not one of the tied units")
        if u is None:
            return None
        if verb == "op":
            if kind != "breath":
                return RuleViolation("S-R35", "000 §3.4", f"{u.name} operates 式神 only in its own breath")
            return self.explain_operation(u, action)
        if verb == "guard":
            if kind != "reaction":
                return RuleViolation("S-G61", "000 §3.7 護衛態勢",
                                     "the 護衛態勢 auto-counter answers an enemy melee attack (a reaction)")
            refusal = self.guard_refusal(u)
            if refusal is not None:
                return refusal
            return RuleViolation("S-G61", "000 §3.7 護衛態勢", f"{action[6:]!r} is not a melee attack of {u.name} "
                                 "that reaches the attacker")
        return self.explain_maintenance(u, kind, action)

    def is_puppet(self, u: Unit) -> bool:
        return any(u.id in ps for ps in self.puppets.values())
