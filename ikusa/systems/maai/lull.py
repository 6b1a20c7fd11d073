"""③ 小康 and ① 間合開始 (S-R33, S-R34, S-R36), the end of combat and the survival rolls
(S-R61, S-R62, S-G25).

小康 offers each unit one 整備 (no 活力): 鉄砲 再装填 (S-R36/S-G20: a fired gun stays unloaded
until reloaded), 戦場の花, 応急補修 …; then, with ``tables.ambush_encounter``, the GM rules an
environment event (S-R36 "GM environment events": 妖魔乱入 on the d100 遭遇表, 火災・霧・崩壊).
S-G07 leaves the tables out: they are data (maai/tables.py; the shipped placeholders in
data/tables/d100.yaml): a battlefield change is an effect on every able unit for the coming
間合, a 妖魔乱入 band brings in the encounter's reinforcements (maai/reinforcements.py);
headless default: the question is not asked (``tables.ambush_encounter`` off)."""

from __future__ import annotations

from ikusa.engine.errors import RuleViolation
from ikusa.engine.protocol import Option
from ikusa.systems.maai import noncorporeal
from ikusa.systems.maai.check import Check
from ikusa.systems.maai.conditions import grow_per_maai
from ikusa.systems.maai.effects import tick_effects
from ikusa.systems.maai.event_text import dice_text
from ikusa.systems.maai.flow_base import FlowBase
from ikusa.systems.maai.reinforcements import apply_environment, environment_band
from ikusa.systems.maai.rules_link import survival_check
from ikusa.systems.maai.units import Unit

#: S-R36 environment events the GM may rule at 小康 (000 L201); their effects and the 妖魔乱入
#: table are data (maai/tables.py, data/tables/d100.yaml)
ENV_EVENTS = {
    "none": "何も起きない",
    "ambush": "妖魔乱入 (d100 遭遇表: 表は欠落 S-G07, GMが遭遇を裁定)",
    "fire": "戦場変化: 火災",
    "fog": "戦場変化: 霧",
    "collapse": "戦場変化: 崩壊",
}


class LullFlow(FlowBase):
    """小康, the next 間合 and the end of combat."""

    #: the GM's environment question was asked in this 小康
    env_asked: bool = False

    def wound(self, t: Unit, dmg: int, rule: str, what: str) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    # -- ③ 小康 -----------------------------------------------------------------------------
    def start_lull(self) -> None:
        """S-R36: 無防備 cleared, reservations gone, per-間合 counters reset; then 整備."""
        self.phase = "lull"
        for u in self.units:
            u.defenceless = False
            u.urev += 1  # (Unit.urev)
            u.reservations.clear()
            u.zero_used.clear()
            u.passed = False
            u.formation = 0
            u.urev += 1  # the attack lists on it (Unit.urev)
            u.round_uses.clear()
        self.emit("lull", "S-R36", f"小康 (第{self.maai}間合): 無防備解除・予約消滅・間合N回カウンタ初期化",
                  maai=self.maai)
        self.lull_queue = [u for u in self.units if u.able and self._maintenance_options(u)]
        self.env_asked = False
        self._next_lull()

    def _maintenance_options(self, u: Unit) -> list[Option]:
        out: list[Option] = []
        for m in u.moves:
            if m.kind != "maintenance":
                continue
            if m.effect == "reload":
                if not u.loaded:
                    out.append(Option(f"maint:{m.id}", f"{m.name} (装填)", cost=0, data={"kind": "maint"}))
            elif m.effect == "replace_puppet":
                for pid in self.puppets.get(u.id, ()):
                    p = self.by_id[pid]
                    if p.incapacitated:
                        out.append(Option(f"maint:{m.id}>{pid}", f"{m.name} → {p.name} (戦力{p.max_wounds}, {u.zone})",
                                          cost=0, data={"kind": "maint", "target": pid}))
            elif m.effect == "heal_wound":
                for t in self.units:
                    if t.side == u.side and t.able and t.wounds < t.max_wounds:
                        out.append(Option(f"maint:{m.id}>{t.id}", f"{m.name} → {t.name} 戦力+1", cost=0,
                                          data={"kind": "maint", "target": t.id}))
            elif m.effect == "field_repair":
                for i, a in enumerate(u.armour):
                    if a.damage and a.field_repairs < self.opts.repair.field_uses_per_armor:
                        out.append(Option(f"maint:{m.id}>{i}", f"{m.name} {a.name} (−{a.damage} 回復)", cost=0,
                                          data={"kind": "maint", "armour": i}))
            elif m.effect == "cohesion" and u.squad and self.cohesion.get(u.squad, self.opts.squad.cohesion_start) < \
                    self.opts.squad.cohesion_start:
                out.append(Option(f"maint:{m.id}", f"{m.name} → 結束力+1", cost=0, data={"kind": "maint"}))
        return out

    def _next_lull(self) -> None:
        while self.lull_queue:
            u = self.lull_queue.pop(0)
            opts = self._maintenance_options(u)
            if not opts:
                continue
            opts.append(Option("done", "整備しない", data={"kind": "done"}))

            def handle(key: str, u: Unit = u) -> None:
                if key != "done":
                    self._maintain(u, key)
                self._next_lull()

            self.ask(u.id, "lull", f"小康: {u.name} の整備 (1つまで, 活力なし)", opts, handle)
            return
        if self.rules.tables_ambush_encounter and not self.env_asked:
            self.env_asked = True
            self._ask_environment()
            return
        self.new_maai()

    def _ask_environment(self) -> None:
        """S-R36 / S-G07: the GM rules an environment event at 小康 (``env:none`` first)."""
        options = [Option(f"env:{k}", label, data={"kind": "gm_event", "event": k}) for k, label in ENV_EVENTS.items()]

        def handle(key: str) -> None:
            ev = key[4:]
            band = None
            if ev == "ambush":
                assert self.dice is not None
                (r,) = self.dice.roll(100, 1, "妖魔乱入遭遇表", roller="GM")
                band = self.enc.tables.env(r)
                self.emit("environment", "S-R36,S-G07", f"小康: 妖魔乱入 d100={r} → {band.text or band.event}",
                          event=ev, roll=r, maai=self.maai, outcome=band.event)
            elif ev != "none":
                band = environment_band(self.enc.tables, ev)
                self.emit("environment", "S-R36", f"小康: {band.text if band else ENV_EVENTS[ev]} (GMの裁定)",
                          event=ev, maai=self.maai)
            self.new_maai()
            if band is not None and self.phase != "over":  # S-R36: the change holds in the coming 間合
                apply_environment(self, band)

        self.ask("GM", "gm_event", f"GM裁定: 第{self.maai}間合の小康 — 環境変化?", options, handle)

    # -- 鉄砲 reload as a breath maneuver (S-G20 alt) -----------------------------------------
    def reload_breath_options(self, u: Unit, cost_of: dict[str, int]) -> list[Option]:
        """``ranged.gun_reload = "maneuver"`` (invented alt of S-G20): reloading in a breath at
        the cost floor (``cost_of``: move id → cost now)."""
        if self.opts.ranged.gun_reload != "maneuver" or u.loaded:
            return []
        return [Option(f"reload:{m.id}", f"{m.name} (装填, 活力{cost_of[m.id]})", cost=cost_of[m.id],
                       data={"kind": "feat", "move": m.id, "within": cost_of[m.id] <= u.cur_limit - u.breath_spent})
                for m in u.moves if m.effect == "reload" and m.id in cost_of
                and (cost_of[m.id] <= u.vigor or self.opts.vigor.allow_overspend)]

    def explain_maintenance(self, u: Unit, kind: str, action: str) -> RuleViolation | None:
        """Refusals of 整備 and reload keys (S-R36, S-G20), and of physical attacks on 非実体
        units (S-G05, maai/noncorporeal.py: the last link of the flow's refusal chain)."""
        if kind == "breath" and noncorporeal.any_in(self):
            refused = noncorporeal.refusal(self, u, action)
            if refused is not None:
                return refused
        verb, _, rest = action.partition(":")
        mid = rest.partition(">")[0]
        m = next((x for x in u.moves if x.id == mid), None)
        if verb == "maint":
            if kind != "lull":
                return RuleViolation("S-R36", "000 §3.4 小康", "整備 maneuvers are performed only in 小康")
            if m is not None and m.effect == "reload" and u.loaded:
                return RuleViolation("S-G20", "000 §3.4 小康 装填", f"{u.name}'s 鉄砲 is already loaded")
        if verb == "reload":
            if self.opts.ranged.gun_reload != "maneuver":
                return RuleViolation("S-G20", "000 §3.4 小康 装填",
                                     "鉄砲 is reloaded only as a 整備 in 小康 (ranged.gun_reload = lull_only)")
            if u.loaded:
                return RuleViolation("S-G20", "000 §3.4 小康 装填", f"{u.name}'s 鉄砲 is already loaded")
        if verb == "use" and m is not None and m.needs_load and not u.loaded:
            how = "in 小康 or with a reload maneuver" if self.opts.ranged.gun_reload == "maneuver" else "in 小康 (整備)"
            return RuleViolation("S-G20", "000 §3.4 小康 装填", f"{m.name}: the 鉄砲 fired and is not loaded; "
                                 f"reload it {how}")
        if verb == "env" and kind != "gm_event":
            return RuleViolation("S-R36", "000 §3.4 小康 環境変数",
                                 "environment events are ruled only at 小康 (with tables.ambush_encounter)")
        return None

    def _maintain(self, u: Unit, key: str) -> None:
        body = key[6:]
        mid, _, tid = body.partition(">")
        m = next(x for x in u.moves if x.id == mid)
        if m.effect == "reload":
            u.loaded = True
            self.emit("maintenance", "S-R36,S-G20", f"{u.name} {m.name}: 装填", unit=u.id)
        elif m.effect == "field_repair":
            i = int(tid)
            pieces = list(u.armour)
            old = pieces[i]
            pieces[i] = old.field_repair(self.opts)
            u.set_armour(tuple(pieces))
            self.emit("maintenance", "S-R50,S-G09", f"{u.name} {m.name}: {old.name} 防備 {old.current}→"
                      f"{pieces[i].current}", unit=u.id, armour=old.id)
        elif m.effect == "replace_puppet":
            # S-R36 "陰陽師の式神再配置" / S-G24 (details invented): back at full 戦力 in the caster's zone
            p = self.by_id[tid]
            p.incapacitated = False
            p.urev += 1  # the attack lists on it (Unit.urev)
            p.wounds = p.max_wounds
            p.zone = u.zone
            p.urev += 1
            p.status = ""
            self.emit("maintenance", "S-R36,S-G24", f"{u.name} {m.name} → {p.name} 再配置 (戦力{p.wounds}, {p.zone})",
                      unit=u.id, target=p.id, wounds=p.wounds)
        elif m.effect == "heal_wound":
            t = self.by_id[tid]
            before = t.wounds
            t.wounds = min(t.max_wounds, t.wounds + 1)
            self.emit("maintenance", "S-R36", f"{u.name} {m.name} → {t.name} 戦力 {before}→{t.wounds}",
                      unit=u.id, target=t.id, wounds=t.wounds)
        else:
            sq = u.squad or ""
            start = self.opts.squad.cohesion_start
            before = self.cohesion.get(sq, start)
            self.cohesion[sq] = min(start, before + 1)
            self.emit("maintenance", "S-R36,S-G14", f"{u.name} {m.name} → 分隊{sq} 結束力 {before}→{before + 1}",
                      unit=u.id, squad=sq)

    # -- ① 間合開始 -------------------------------------------------------------------------
    def new_maai(self) -> None:
        """S-R34: every 活力 back to max; carried overload penalties stay for the first breath
        (S-G32).  The round cap (invented, ``max_maai``) ends an undecided battle as a draw."""
        if self.maai >= self.rules.max_maai:
            self.phase = "over"
            self.winner = None
            self.emit("draw", "cfg:max_maai", f"第{self.maai}間合で上限 (max_maai={self.rules.max_maai}): 引き分け",
                      maai=self.maai)
            return
        if self.fx.book.active:  # issue #8: N-間合 effects count down as the 間合 ends
            tick_effects(self, "maai", None)
        self.maai += 1
        self.phase = "count"
        for u in self.units:
            if u.able:
                u.vigor = u.max_vigor
            if not self.rules.overload_carry_over:
                u.narrowed = False
        parts = " ".join(f"{u.name}{u.vigor}" for u in self.units if u.able)
        self.emit("maai", "S-R33,S-R34", f"第{self.maai}間合 開始: 活力 {parts}", maai=self.maai)
        if self.fx.book.active:  # S-G43 alt: 毎間合 防備 −N grows (maai/conditions.py)
            grow_per_maai(self)
        for u in self.units:
            if u.bleeding and u.able:
                self.wound(u, 1, "S-G19", "出血")

    # -- end of combat ----------------------------------------------------------------------
    def end_combat(self) -> None:
        """S-G25: the battle ends when at most one side can still fight; PCs and named NPCs at
        0 戦力 then make the survival roll (S-R62)."""
        sides = self.sides_able()
        self.winner = sides[0] if len(sides) == 1 else None
        self.actor = None
        self.phase = "survival"
        self.emit("end", "S-G25", f"戦闘終了: 勝者 {self.winner or 'なし'} (第{self.maai}間合)",
                  winner=self.winner, maai=self.maai)
        self.survivors_pending = [u for u in self.units if u.incapacitated and u.named]
        self._next_survival()

    def _next_survival(self) -> None:
        if not self.survivors_pending:
            self.phase = "over"
            return
        u = self.survivors_pending.pop(0)

        def done(c: Check, u: Unit = u) -> None:
            ok = c.success
            u.status = "重傷" if ok else "死亡"
            self.emit("survival", "S-R62", f"{u.name} 生死判定: {dice_text(c)} {'≥' if ok else '<'} {c.target} → "
                      f"{'生存 (重傷)' if ok else '死亡'}", unit=u.id, total=c.total, survived=ok)
            self._next_survival()

        # fate may be used on this roll (S-R62): the unit is down but still the roller
        chk = survival_check(self.roll2(f"{u.name} 生死判定", u.id), u.ab["tai"], u.ab["un"], 0, self.opts).check
        self.offer_fate(u, chk, done, own=True, allow_down=True, relevance="success")
