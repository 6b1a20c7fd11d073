"""③ 小康 and ① 間合開始 (S-R33, S-R34, S-R36), the end of combat and the survival rolls
(S-R61, S-R62, S-G25)."""

from __future__ import annotations

from ikusa.engine.protocol import Option
from ikusa.systems.maai.check import Check
from ikusa.systems.maai.flow_base import FlowBase, dice_text
from ikusa.systems.maai.rules_link import survival_check
from ikusa.systems.maai.units import Unit


class LullFlow(FlowBase):
    """小康, the next 間合 and the end of combat."""

    def wound(self, t: Unit, dmg: int, rule: str, what: str) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    # -- ③ 小康 -----------------------------------------------------------------------------
    def start_lull(self) -> None:
        """S-R36: 無防備 cleared, reservations gone, per-間合 counters reset; then 整備."""
        self.phase = "lull"
        for u in self.units:
            u.defenceless = False
            u.reservations.clear()
            u.zero_used.clear()
            u.passed = False
            u.formation = 0
            u.round_uses.clear()
        self.emit("lull", "S-R36", f"小康 (第{self.maai}間合): 無防備解除・予約消滅・間合N回カウンタ初期化",
                  maai=self.maai)
        self.lull_queue = [u for u in self.units if u.able and self._maintenance_options(u)]
        self._next_lull()

    def _maintenance_options(self, u: Unit) -> list[Option]:
        out: list[Option] = []
        for m in u.moves:
            if m.kind != "maintenance":
                continue
            if m.effect == "reload":
                if not u.loaded:
                    out.append(Option(f"maint:{m.id}", f"{m.name} (装填)", cost=0, data={"kind": "maint"}))
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
        self.new_maai()

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
        if self.maai >= self.enc.max_maai:
            self.phase = "over"
            self.winner = None
            self.emit("draw", "cfg:max_maai", f"第{self.maai}間合で上限 (max_maai={self.enc.max_maai}): 引き分け",
                      maai=self.maai)
            return
        self.maai += 1
        self.phase = "count"
        for u in self.units:
            if u.able:
                u.vigor = u.max_vigor
            if not self.opts.overload.carry_over:
                u.narrowed = False
        parts = " ".join(f"{u.name}{u.vigor}" for u in self.units if u.able)
        self.emit("maai", "S-R33,S-R34", f"第{self.maai}間合 開始: 活力 {parts}", maai=self.maai)
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
        chk = survival_check(self.roll2(f"{u.name} 生死判定"), u.ab["tai"], u.ab["un"], 0, self.opts).check
        self.offer_fate(u, chk, done, own=True, allow_down=True, relevance="success")
