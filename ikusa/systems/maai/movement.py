"""Zones, movement, 心府 and 突破 in a breath (S-G12, S-G13, S-G15: all invented defaults of
ANALYSIS, the options under ``shinpu.*``, ``breakthrough.*``, ``zones.*``).

* Zones form a line in the listed order; a move reaches a neighbour (隠密移動 keeps the unit
  hidden: moving in unseen and attacking is 強化奇襲, S-G17).
* 心府 is a pairwise relation between two opposing units in one zone: 踏み込み enters it (no
  roll), 離脱 leaves it with ``2d10 + 技 ≥ 11`` (failure: 無防備, S-R63).  In 心府 short weapons
  cost −1 (floored) with one-step fatigue mitigation, long weapons +1, ranged weapons cannot be
  used (costs.shinpu_modifiers, fatigue.mitigation_sources).  A unit in 心府 cannot simply walk
  away: it must 離脱 first.
* 突破 moves two zones through a zone holding enemies: ``2d10 + 勇 ≥ 11 + 2 per extra blocker``;
  failure stops the unit in the enemy zone, 無防備.
"""

from __future__ import annotations

from ikusa.engine.errors import RuleViolation
from ikusa.engine.protocol import Option
from ikusa.systems.maai.attack_flow import AttackFlow
from ikusa.systems.maai.check import Check
from ikusa.systems.maai.costs import shinpu_modifiers, squad_command_cost
from ikusa.systems.maai.event_text import dice_text
from ikusa.systems.maai.fatigue import mitigation_sources
from ikusa.systems.maai.flow_base import p_success
from ikusa.systems.maai.moves import ABILITY_ALIASES, Move
from ikusa.systems.maai.rules_link import final_cost, improvised_cost
from ikusa.systems.maai.units import Unit

#: a cost that no unit can pay: a maneuver that cannot be used here (S-G12 ranged in 心府)
UNUSABLE = 10**6


class MovementFlow(AttackFlow):
    """Movement maneuvers (mixed into the state)."""

    # -- costs ----------------------------------------------------------------------------
    def move_cost(self, u: Unit, m: Move) -> int:
        """S-R30/S-R31/S-R32: final cost with the floor 1 (a 0-活力 [型] may cost 0), with the
        心府 modifiers when the unit is in 心府 (memoised on what it depends on)."""
        in_shinpu = bool(u.shinpu)
        if not in_shinpu and m.kind != "command":
            c = self.plain_cost.get(id(m))
            if c is not None:
                return c
        key = ("cost", id(m), u.id if in_shinpu or m.kind == "command" else "")
        c = self.memo.get(key)
        if c is None:
            mods = []
            if in_shinpu and m.src is not None:
                try:
                    mods = shinpu_modifiers(m.src, self.enc.catalog, in_shinpu=True, feats=u.feat_ids,
                                            schools=u.school_ids, options=self.opts)
                except RuleViolation:
                    self.memo[key] = UNUSABLE
                    return UNUSABLE
            base = squad_command_cost(u.ab["chi"], self.opts) if m.kind == "command" else self.base_cost(m)
            c = self.memo[key] = final_cost(base, mods, "zero_vigor_kata" if m.zero_cost else None, self.opts)
            if not in_shinpu and m.kind != "command":
                self.plain_cost[id(m)] = c
        return c

    def base_cost(self, m: Move) -> int:
        """The base 活力 of ``m``: the catalog's, except where an option sets it — 踏み込み/離脱
        (``shinpu.enter_cost``/``exit_cost``, S-G12) and the basic move (``zones.move_cost``, S-G15)."""
        if m.effect == "enter_shinpu":
            return self.opts.shinpu.enter_cost
        if m.effect == "exit_shinpu":
            return self.opts.shinpu.exit_cost
        if m.id == "move.basic":
            return self.opts.zones.move_cost
        return m.cost

    def improv_cost(self, u: Unit, m: Move) -> int:
        """S-R40 / S-G34: improvised reaction cost from the final cost (memoised); with
        ``costs.improvised_base = "base_cost"`` from the base cost instead."""
        key = ("improv", id(m), u.id if u.shinpu else "")
        c = self.memo.get(key)
        if c is None:
            base = self.base_cost(m) if self.opts.costs.improvised_base == "base_cost" else self.move_cost(u, m)
            c = self.memo[key] = improvised_cost(base, self.opts)
        return c

    def fatigue_mitigations(self, u: Unit, m: Move) -> list[str]:
        """S-R67/S-R68 (fatigue.mitigation_sources): short weapons / 修羅の印 in 心府."""
        if not u.shinpu or m.src is None:
            return []
        return mitigation_sources(m.src, self.enc.catalog, in_shinpu=True, feats=u.feat_ids, options=self.opts)

    # -- reach ----------------------------------------------------------------------------
    def in_reach(self, u: Unit, m: Move, t: Unit) -> bool:
        """S-G15 (invented): melee needs the same zone; ranged reaches N zones (−1 anywhere)."""
        if m.reach == 0:
            return t.zone == u.zone
        if m.reach < 0:
            return True
        zs = self.enc.zones
        return abs(zs.index(t.zone) - zs.index(u.zone)) <= m.reach

    def adjacent_zones(self, zone: str) -> list[str]:
        zs = self.enc.zones
        i = zs.index(zone)
        return [zs[j] for j in (i - 1, i + 1) if 0 <= j < len(zs)]

    def blockers(self, u: Unit, zone: str) -> list[Unit]:
        return [t for t in self.units if t.side != u.side and t.able and t.zone == zone]

    # -- options ----------------------------------------------------------------------------
    def movement_options(self, u: Unit, m: Move, cost: int, within: bool) -> list[Option]:
        e = m.effect
        out: list[Option] = []
        if e == "enter_shinpu":
            for t in self.units:
                if t.side != u.side and t.able and t.zone == u.zone and t.id not in u.shinpu:
                    out.append(Option(f"use:{m.id}>{t.id}", f"{m.name} → {t.name} (心府, 活力{cost})", cost=cost,
                                      data={"kind": "move", "move": m.id, "target": t.id, "within": within}))
        elif e == "exit_shinpu":
            if u.shinpu:
                p = p_success(u.ab[self._exit_ability()], self.opts.shinpu.exit_tn)
                out.append(Option(f"use:{m.id}", f"{m.name} (心府から, 活力{cost})", cost=cost, odds=p,
                                  data={"kind": "move", "move": m.id, "within": within}))
        elif e == "pick_up":
            if u.dropped:
                out.append(Option(f"use:{m.id}", f"{m.name} (活力{cost})", cost=cost,
                                  data={"kind": "move", "move": m.id, "within": within}))
        elif u.shinpu:
            return out  # S-G12: leave 心府 with 離脱 first
        elif e == "breakthrough":
            zs = self.enc.zones
            i = zs.index(u.zone)
            for j in (i - 2, i + 2):
                if 0 <= j < len(zs):
                    mid = zs[(i + j) // 2]
                    n = len(self.blockers(u, mid))
                    if n:
                        tn = self.breakthrough_tn(n)
                        out.append(Option(f"use:{m.id}>{zs[j]}", f"{m.name} {mid}を抜けて → {zs[j]} (目標値{tn}, "
                                          f"活力{cost})", cost=cost, odds=p_success(u.ab["yu"], tn),
                                          data={"kind": "move", "move": m.id, "zone": zs[j], "within": within}))
        else:
            memo = self.caches.options  # the encounter's (breath_flow empties it when full)
            for z in self.adjacent_zones(u.zone):
                ck = ("zone", m.id, m.name, z, cost, within)
                o = memo.get(ck)
                if o is None:  # options are immutable values: one per distinct move, reused
                    o = memo[ck] = Option(f"use:{m.id}>{z}", f"{m.name} → {z} (活力{cost})", cost=cost,
                                          data={"kind": "move", "move": m.id, "zone": z, "within": within})
                out.append(o)
        return out

    def _exit_ability(self) -> str:
        return ABILITY_ALIASES.get(self.opts.shinpu.exit_ability, "gi")

    def breakthrough_tn(self, blockers: int) -> int:
        b = self.opts.breakthrough
        return b.tn + b.tn_per_extra_blocker * max(0, blockers - 1)

    # -- resolution -------------------------------------------------------------------------
    def do_movement(self, u: Unit, m: Move, arg: str, paid: str) -> None:
        e = m.effect
        if e == "enter_shinpu":
            t = self.by_id[arg]
            u.shinpu.add(t.id)
            t.shinpu.add(u.id)
            self.emit("shinpu", "S-G12", f"{u.name} {m.name} → {t.name} と心府に入る ({paid})", unit=u.id, target=t.id)
        elif e == "exit_shinpu":
            self._exit_shinpu(u, m, paid)
        elif e == "pick_up":
            u.dropped = False
            self.emit("pick_up", "S-R10,S-T51", f"{u.name} {m.name}: 武器を拾う ({paid})", unit=u.id)
        elif e == "breakthrough":
            self._breakthrough(u, m, arg, paid)
        else:
            u.zone = arg
            u.urev += 1  # the attack lists on it (Unit.urev)
            if m.stealth:
                u.hidden = True
            self.emit("move", "S-G15", f"{u.name} {m.name} → {arg}{' (隠密)' if m.stealth else ''} ({paid})",
                      unit=u.id, zone=arg, vigor=u.vigor)

    def _exit_shinpu(self, u: Unit, m: Move, paid: str) -> None:
        tn = self.opts.shinpu.exit_tn
        ab = self._exit_ability()

        def rolled(c: Check) -> None:
            ok = c.success
            self.emit("shinpu", "S-G12", f"{u.name} {m.name} ({paid}): {dice_text(c)} {'≥' if ok else '<'} {tn} → "
                      f"{'心府を離れる' if ok else '離脱失敗'}", unit=u.id, total=c.total, success=ok)
            if ok:
                self.leave_shinpu(u)
            else:
                self.make_defenceless(u, "心府離脱の失敗 (S-R63)")

        self.check(u, u.ab[ab], tn, f"{m.name}", rolled, relevance="no_crit")

    def leave_shinpu(self, u: Unit) -> None:
        for oid in u.shinpu:
            self.by_id[oid].shinpu.discard(u.id)
        u.shinpu.clear()

    def _breakthrough(self, u: Unit, m: Move, dest: str, paid: str) -> None:
        zs = self.enc.zones
        mid = zs[(zs.index(u.zone) + zs.index(dest)) // 2]
        tn = self.breakthrough_tn(len(self.blockers(u, mid)))

        def rolled(c: Check) -> None:
            ok = c.success
            u.zone = dest if ok else mid
            u.urev += 1  # the attack lists on it (Unit.urev)
            self.emit("breakthrough", "S-G13", f"{u.name} {m.name} ({paid}): {dice_text(c)} {'≥' if ok else '<'} "
                      f"{tn} → {'突破して' + dest if ok else mid + 'で止まる'}", unit=u.id, total=c.total,
                      success=ok, zone=u.zone)
            if not ok:
                self.make_defenceless(u, "突破失敗 (S-R63)")

        self.check(u, u.ab["yu"], tn, m.name, rolled, relevance="no_crit")
