"""The maai combat state (the GameState of 000 §3.4): ① 間合開始 → ② カウント進行 → ③ 小康
(S-R33…S-R36), every breath, reaction, lull, the end and the survival rolls.

``pending()`` says what the state waits for; ``apply(key, dice)`` applies one decision and
returns the events it caused; nothing else mutates the state.
"""

from __future__ import annotations

from typing import Any

from ikusa.dice.source import DiceSource
from ikusa.engine.errors import RuleViolation
from ikusa.engine.events import Event
from ikusa.engine.protocol import Decision
from ikusa.systems.maai import rulings
from ikusa.systems.maai.breath_flow import BreathFlow
from ikusa.systems.maai.encounter import MaaiEncounter

_GUARD = 100_000



#: the rule that governs each decision kind, cited when an action is not one of its options
_KIND_RULES: dict[str, tuple[str, str]] = {
    "breath": ("S-R35", "000 §3.4 カウント進行"),
    "fate": ("S-R14", "000 §3.1 運命介入"),
    "reaction": ("S-R53", "000 §3.6 防御技法"),
    "lull": ("S-R36", "000 §3.4 小康"),
    "gm_table": ("S-G07", "001 天命/業報 d100"),
    "gm_event": ("S-R36", "000 §3.4 小康"),
    "count_tie": ("S-G49", "000 §3.4 カウント進行"),
}

class MaaiState(BreathFlow):
    """A maai battle in progress."""

    def __init__(self, enc: MaaiEncounter) -> None:
        super().__init__(enc)
        parts = " ".join(f"{u.name}{u.vigor}" for u in self.units)
        self.emit("maai", "S-R33,S-R34", f"第1間合 開始: 活力 {parts}", maai=1)
        if self.caches.start_effects:  # issue #8: the encounter's effects: (maai/rulings.py)
            rulings.start_effects(self)
        self._advance()

    # -- protocol ---------------------------------------------------------------------------
    def pending(self) -> Decision | None:
        return self.wait  # the pending Wait is the Decision itself

    def apply(self, action: str, dice: DiceSource) -> list[Event]:
        w = self.wait
        if w is None:
            raise RuleViolation("S-G25", "000 §3.8", "the combat is over; no decision is pending")
        for o in w.options:  # w.legal(action): a native loop (compiled), the same key first
            k = o.key
            if k is action or k == action:
                break
        else:
            raise self.explain_illegal(action)
        self.dice = dice
        self.wait = None
        w.handler(action)
        # pending(), not self.wait: mypy (and so mypyc) still narrows the attribute to None here
        if self.pending() is None:
            self._advance()
        out, self.ev = self.ev, []
        return out

    def apply_ruling(self, ruling: Any, dice: DiceSource) -> list[Event]:
        """A GM ruling (issue #8 §2; the ops are maai/rulings.py's); refused → InputError."""
        self.count_index = None  # a ruling may raise a count (maai/count_index.py)
        self.two_sides_able = False  # … or down or remove a unit
        return rulings.apply_ruling(self, ruling, dice)

    def summary(self) -> dict[str, Any]:
        out = self._summary()
        if self.fx.book.active:  # only then: plain battles keep their JSON byte for byte
            out["effects"] = rulings.effects_summary(self)
        return out

    def _summary(self) -> dict[str, Any]:
        return {
            "units": [
                {
                    "id": u.id, "name": u.name, "side": u.side, "wounds": u.wounds, "vigor": u.vigor,
                    "defenceless": u.defenceless, "stance": u.stance.id if u.stance else None,
                    "reservations": [r.id for r in u.reservations], "incapacitated": u.incapacitated,
                    "fate_left": u.fate_left, "status": u.status, "zone": u.zone, "shinpu": sorted(u.shinpu),
                }
                for u in self.units
            ],
            "winner": self.winner,
            "maai": self.maai,
        }

    def roster(self) -> list[tuple[str, str, str]]:
        """(id, name, side) of every unit (issue #8 control)."""
        return [(u.id, u.name, u.side) for u in self.units]

    def events_so_far(self) -> list[Event]:
        """The events of the decision being applied (an action stopped for typed dice)."""
        return list(self.ev)

    # -- flow -------------------------------------------------------------------------------
    def _advance(self) -> None:
        """Work out the next decision after a handler left none (S-R33…S-R36)."""
        for _ in range(_GUARD):
            if self.wait is not None:
                return
            phase = self.phase
            if phase != "count":
                if phase == "over":
                    return
                if phase == "survival":
                    self._next_survival()
                else:  # lull
                    self._next_lull()
                continue
            if not self.two_sides_able:  # known since the last fall (FlowBase.two_sides_able): no scan
                if self.sides_able_count() <= 1:
                    self.end_combat()
                    continue
                self.two_sides_able = True
            a = self.actor
            if a is not None:
                if not a.incapacitated:  # a.able
                    self.ask_breath(a)
                    continue
                self.actor = None
            u = self.next_actor()  # S-R35 (count_ties.py, maai/count_index.py)
            if u is None:
                self.start_lull()
                continue
            self.begin_turn(u)
        if self.wait is None:  # pragma: no cover - would be an engine bug
            raise RuntimeError("maai flow did not reach a decision")

    # -- refusals ---------------------------------------------------------------------------
    def explain_illegal(self, action: str) -> RuleViolation:
        """Name the rule an action breaks when it is not one of the pending options."""
        w = self.wait
        if w is None:
            return RuleViolation("S-G25", "000 §3.8", "the combat is over")
        d = w.decision
        u = self.by_id.get(d.actor)
        verb, _, rest = action.partition(":")
        mid, _, arg = rest.partition(">")
        arg, _, aim_txt = arg.partition("+aim")
        legal = ", ".join(d.keys()[:10])
        if u is not None and u.sig and d.kind == "breath":
            feared = rulings.fear_refusal(self, u, action)
            if feared is not None:
                return feared
        gap = self.explain_gap(u, d.kind, action)
        if gap is not None:
            return gap
        if u is not None and verb in ("use", "reserve", "stance", "improv", "react"):
            m = next((x for x in u.moves if x.id == mid), None)
            if m is None and verb != "react":
                return RuleViolation("S-G11", "000 §3.3", f"{u.name} has no maneuver {mid!r}")
            if d.kind != "breath" and verb in ("use", "reserve", "stance"):
                return RuleViolation("S-R35", "000 §3.4 カウント進行",
                                     f"{u.name} is not taking a breath now ({d.kind}); legal: {legal}")
            if m is not None:
                if m.zero_cost and verb == "use":
                    refusal = self.zero_refusal(u, m)
                    if refusal is not None:
                        return refusal
                if verb in ("reserve", "stance", "improv") and u.defenceless:
                    return RuleViolation("S-R64", "000 §3.8 無防備",
                                         f"{u.name} is 無防備: no reservations, stances or evasion/counter defences")
                if verb == "reserve" and not m.reservable:
                    return RuleViolation("S-R39", "000 §3.4 予約", f"{m.name} cannot be reserved")
                if not u.weapon_usable(m):
                    return RuleViolation("S-R10", "001 失着", f"{u.name}'s weapon is dropped or broken: "
                                         f"{m.name} needs it (pick it up first)")
                if verb != "improv" and u.shinpu and m.ranged and self.opts.shinpu.ranged == "forbidden":
                    return RuleViolation("S-G12", "000 §3.9 心府", f"{m.name}: ranged weapons cannot be used in 心府")
                cost = self.improv_cost(u, m) if verb == "improv" else self.cost_now(u, m)
                if cost > u.vigor and not self.opts.vigor.allow_overspend:
                    return RuleViolation("S-G33", "000 §3.3 活力",
                                         f"{m.name} costs {cost} but {u.name} has {u.vigor} 活力 left")
                if aim_txt:
                    cap = self.aim_cap(u, m)
                    if not m.aim_focus or not aim_txt.isdigit() or int(aim_txt) > cap:
                        return RuleViolation("S-G08", "001 照準集中", f"照準集中 {aim_txt} not allowed for {m.name} "
                                             f"(cap {cap}: N ≤ 技, S-R51)")
                if m.kind == "attack" and arg:
                    t = self.by_id.get(arg)
                    if t is None or not t.able:
                        return RuleViolation("S-R61", "000 §3.8", f"{arg!r} is not a target able to fight")
                    if t.side == u.side:
                        return RuleViolation("S-R41", "000 §3.5", f"{t.name} is on {u.name}'s own side")
                    if not self.in_reach(u, m, t):
                        return RuleViolation("S-G15", "000 §3.5 区域", f"{t.name} is not in {u.name}'s zone")
                if m.kind == "movement" and u.shinpu and m.effect not in ("exit_shinpu", "pick_up", "enter_shinpu"):
                    return RuleViolation("S-G12", "000 §3.9 心府", f"{u.name} is in 心府: leave it with 離脱 first")
                if m.limit_per_round is not None and not m.zero_cost and \
                        u.round_uses.get(m.id, 0) >= m.limit_per_round:
                    return RuleViolation("S-G40", "000 §3.7", f"{m.name} may be used {m.limit_per_round}× per 間合")
                if m.needs_load and not u.loaded:
                    return RuleViolation("S-G20", "000 §3.4 小康 装填", f"{m.name}: not loaded (reload in 小康)")
        if verb == "react" and u is not None and d.kind == "reaction":
            return RuleViolation("S-R38", "000 §3.4 予約", f"{u.name} holds no reservation {mid!r} (one use each)")
        if d.kind == "fate" and verb == "fate":
            return RuleViolation("S-R16", "000 §3.1 運命介入",
                                 f"{action!r} is not a legal intervention (a die stays within 1…10; legal: {legal})")
        if action == "end" and d.kind == "breath":
            return RuleViolation("S-G21", "000 §3.4", f"nothing done yet in this breath: use 'pass'; legal: {legal}")
        rule, section = _KIND_RULES.get(d.kind, ("S-R35", "000 §3.4 カウント進行"))
        return RuleViolation(rule, section, f"{action!r} is not legal for {d.actor} ({d.kind}) now; "
                             f"legal: {legal}{' …' if len(d.options) > 10 else ''}")
