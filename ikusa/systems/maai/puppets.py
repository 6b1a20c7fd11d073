"""式神/傀儡 operation (S-R31, S-R59, S-G24, S-G62; 000 §3.3 L136, §3.7 L321).

S-G24 default: 式神/傀儡 are units with no 活力 of their own (an encounter unit with
``operator: CASTER_ID``): they never reach a count and cannot pay improvised reactions.  In its
own breath the caster may *operate* one of them: the puppet makes one attack or movement
maneuver, its cost paid from the caster's 活力 (S-R31 "式神/傀儡 actions paid from the caster's
活力"; it counts toward the caster's breath, so overload applies).  Every operation counts
toward the caster's shared 0-活力 cap (2 per 間合, S-R59 "式神・傀儡を操る術者の操縦アクション
もこの2回上限を共有する", however many puppets); by S-G62 (``zero_cost.puppets_exempt_per_effect``,
default true) it is exempt from the per-effect limit of 1.  Keys: ``op:PUPPET:MOVE>TARGET``
(attack), ``op:PUPPET:MOVE>ZONE`` (move).
"""

from __future__ import annotations

from ikusa.engine.errors import RuleViolation
from ikusa.engine.protocol import Option
from ikusa.systems.maai.fumble import FumbleFlow
from ikusa.systems.maai.moves import Move
from ikusa.systems.maai.rules_link import check_zero_vigor_use
from ikusa.systems.maai.units import Unit

#: the 0-活力 effect id an operation records on the caster (S-R59 cap)
OPERATE = "式神操縦"


class PuppetFlow(FumbleFlow):
    """Operating 式神/傀儡 (mixed into the state)."""

    #: puppet id → (caster, caster's breath number, 間合) of its last operation
    _op_marks: dict[str, tuple[str, int, int]]

    # hooks implemented further down the mixin chain
    def cost_now(self, u: Unit, m: Move) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    def pay(self, u: Unit, cost: int) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def start_attack(self, u: Unit, m: Move, target: Unit, aim: int = 0) -> None:  # pragma: no cover
        raise NotImplementedError

    def do_movement(self, u: Unit, m: Move, arg: str, paid: str) -> None:  # pragma: no cover
        raise NotImplementedError

    def movement_options(self, u: Unit, m: Move, cost: int, within: bool) -> list[Option]:  # pragma: no cover
        raise NotImplementedError

    def in_reach(self, u: Unit, m: Move, t: Unit) -> bool:  # pragma: no cover
        raise NotImplementedError

    def hit_odds(self, u: Unit, m: Move, target: Unit, aim: int = 0) -> float:  # pragma: no cover
        raise NotImplementedError

    # -- rules ------------------------------------------------------------------------------
    def puppets_of(self, u: Unit) -> list[Unit]:
        return [self.by_id[p] for p in self.puppets.get(u.id, ()) if self.by_id[p].able]

    def puppets_leave(self, caster: Unit) -> None:
        """``puppets.fall_with_caster`` (S-G24/S-G25, invented): the caster is 戦闘不能, so its
        式神/傀儡 can no longer act; they leave the battle (no survival roll)."""
        for p in self.puppets_of(caster):
            p.incapacitated = True
            p.urev += 1  # the attack lists on it (Unit.urev)
            p.named = False
            p.reservations.clear()
            self.leave_shinpu(p)
            self.emit("down", "S-G24,S-G25", f"{p.name} 術者 {caster.name} 戦闘不能 → 式神/傀儡 退場", unit=p.id)

    def leave_shinpu(self, u: Unit) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def operation_refusal(self, u: Unit) -> RuleViolation | None:
        """S-R59/S-G40/S-G62 (costs.check_zero_vigor_use, puppet=True): one more operation?"""
        try:
            check_zero_vigor_use(len(u.zero_used), u.zero_used.count(OPERATE), puppet=True, options=self.opts)
        except RuleViolation as exc:
            return exc
        return None

    def operation_options(self, u: Unit) -> list[Option]:
        """The caster's operations this breath: each puppet's attacks and moves, paid by ``u``."""
        if u.id not in self.puppets or self.operation_refusal(u) is not None:
            return []
        out: list[Option] = []
        v = u.vigor
        left = u.cur_limit - u.breath_spent
        over = self.opts.breath.max_over_limit
        for p in self.puppets_of(u):
            weapon_ok = not (p.dropped or p.broken)
            for m in p.breath_moves:
                if m.kind not in ("attack", "movement") or not (weapon_ok or p.weapon_usable(m)):
                    continue
                cost = self.cost_now(p, m)
                if (cost > v and not self.opts.vigor.allow_overspend) or (over is not None and cost > left + over):
                    continue
                if m.limit_per_round is not None and p.round_uses.get(m.id, 0) >= m.limit_per_round:
                    continue
                within = cost <= left
                if m.kind == "attack":
                    if m.needs_load and not p.loaded:
                        continue
                    for t in self.units:
                        if t.side != p.side and t.able and self.in_reach(p, m, t):
                            out.append(Option(f"op:{p.id}:{m.id}>{t.id}", f"式神操縦 {p.name} {m.name} → {t.name} "
                                              f"({u.name}の活力{cost})", cost=cost, odds=self.hit_odds(p, m, t),
                                              data={"kind": "attack", "move": m.id, "target": t.id, "within": within,
                                                    "puppet": p.id}))
                else:
                    for o in self.movement_options(p, m, cost, within):
                        out.append(Option("op:" + p.id + ":" + o.key[4:], f"式神操縦 {p.name} {o.label}", cost=cost,
                                          odds=o.odds, data={**o.data, "puppet": p.id}))
        return out

    def operate(self, u: Unit, key: str) -> None:
        """Carry out ``op:PUPPET:MOVE>ARG`` for caster ``u`` (S-R31/S-R59/S-G24)."""
        _, _, rest = key.partition(":")
        pid, _, rest = rest.partition(":")
        mid, _, arg = rest.partition(">")
        p = self.by_id[pid]
        m = next(x for x in p.breath_moves if x.id == mid)
        cost = self.cost_now(p, m)
        paid = self.pay(u, cost)
        if p.collapse:
            paid += f" 構え崩し+{p.collapse} (S-T51)"
            p.collapse = 0
        if m.limit_per_round is not None:
            p.round_uses[m.id] = p.round_uses.get(m.id, 0) + 1
        u.zero_used.append(OPERATE)
        mark = (u.id, u.breaths_taken, self.maai)
        try:
            marks = self._op_marks
        except AttributeError:
            marks = self._op_marks = {}
        if marks.get(p.id) != mark:
            # 連撃疲労 (S-R66) counts the puppet's attacks within one of the caster's breaths
            marks[p.id] = mark
            p.attacks_in_breath = 0
        self.emit("operate", "S-R31,S-R59,S-G24,S-G62",
                  f"{u.name} 式神操縦 → {p.name} {m.name} ({paid}; 0活力上限 {len(u.zero_used)}/"
                  f"{self.opts.zero_cost.cap})",
                  unit=u.id, puppet=p.id, move=m.id, cost=cost, vigor=u.vigor, zero_used=len(u.zero_used))
        if m.kind == "attack":
            self.start_attack(p, m, self.by_id[arg], 0)
        else:
            self.do_movement(p, m, arg, paid)

    def explain_operation(self, u: Unit, action: str) -> RuleViolation:
        """Why ``op:…`` is not legal now (S-G24 / S-R59 / S-G33)."""
        _, _, rest = action.partition(":")
        pid, _, rest = rest.partition(":")
        p = self.by_id.get(pid)
        if p is None or pid not in self.puppets.get(u.id, ()):
            return RuleViolation("S-G24", "000 §3.3 式神/傀儡", f"{pid!r} is not a 式神/傀儡 operated by {u.name}")
        if not p.able:
            return RuleViolation("S-R61", "000 §3.8", f"{p.name} is 戦闘不能")
        refusal = self.operation_refusal(u)
        if refusal is not None:
            return refusal
        mid = rest.partition(">")[0]
        m = next((x for x in p.breath_moves if x.id == mid), None)
        if m is None or m.kind not in ("attack", "movement"):
            return RuleViolation("S-G24", "000 §3.3 式神/傀儡", f"{p.name} has no attack or movement {mid!r}")
        cost = self.cost_now(p, m)
        if cost > u.vigor:
            return RuleViolation("S-G33", "000 §3.3 活力", f"{m.name} costs {cost} but {u.name} has {u.vigor} "
                                 "活力 left (式神の行動は術者の活力で払う, S-R31)")
        return RuleViolation("S-G24", "000 §3.3 式神/傀儡", f"{action!r} is not legal now (target out of reach?)")
