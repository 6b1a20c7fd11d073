"""失着 extras and the d100 tables (S-R10, S-R11, S-G07, S-T51).

天命 ([10,10] success) and 業報 ([1,1] failure) roll d100 on tables the texts do not contain.
``tables.headless_mode = "placeholder"`` (default) applies the S-G07 placeholder bands
(options.tables.gouhou); ``"gm"`` asks the GM, who picks any outcome (the rolled band is
suggested).  In GM mode an ordinary 失着 also asks the GM for the optional extras of S-R10.

Effects: 武器落とし — weapon maneuvers unusable until 武器を拾う (1 活力, S-T51); 構え崩し —
the next maneuver costs +1 活力 (costs.fumble_extra_modifier, S-T51); 足滑り — narrative
(forced move: the GM moves the unit); 同士討ち — 1 戦力 to an ally in the same zone (the first
listed: the GM's pick in GM mode is the same unit); 武器破損 — weapon maneuvers unusable for
the rest of the combat.
"""

from __future__ import annotations

from collections.abc import Callable

from ikusa.engine.protocol import Option
from ikusa.systems.maai.costs import fumble_extra_modifier
from ikusa.systems.maai.count_ties import CountTieFlow
from ikusa.systems.maai.effects import table_override
from ikusa.systems.maai.units import Unit

LABELS = {
    "weapon_drop": "武器落とし (拾うのに活力1)",
    "stance_collapse": "構え崩し (次の行動+1活力)",
    "stance_collapse_slip": "構え崩し・足滑り (次の行動+1活力)",
    "slip": "足滑り (GMが移動させる)",
    "friendly_fire": "同士討ち (同じ区域の味方に1戦力)",
    "weapon_broken": "武器破損 (修理まで使用不可)",
    "narrative": "会心以上の効果なし (GMが演出)",
    "none": "追加効果なし",
}


class FumbleFlow(CountTieFlow):
    """d100 tables and fumble extras (mixed into the state)."""

    def table_roll(self, u: Unit, table: str, then: Callable[[], None]) -> None:
        """S-R11 / S-G07: roll d100 on 決定的瞬間表 (天命) or 致命的失敗表 (業報)."""
        assert self.dice is not None
        (r,) = self.dice.roll(100, 1, f"{u.name} {table}", roller=u.id)
        if self.fx.override:  # issue #8: the GM overrules the d100 result
            r = table_override(self, u, r, table)
        key = "gouhou" if table == "致命的失敗表" else "tenmei"
        caches = self.caches
        given = key in caches.table_keys  # the options' bands win when set (maai/tables.py)
        bands = caches.tables.bands(key, self.opts, given)
        suggested = next((name for hi, name in bands if r <= hi), bands[-1][1])
        self.emit("table", "S-R11,S-G07", f"{u.name} {table} d100={r}: 仮表 → {LABELS.get(suggested, suggested)}",
                  unit=u.id, table=table, roll=r, suggested=suggested)
        if self.rules.tables_headless_gm:
            names = [name for _, name in bands]
            if "none" not in names:
                names.append("none")
            self._ask_gm(u, f"{table} d100={r} (仮表: {LABELS.get(suggested, suggested)})", names, suggested, then)
            return
        self.apply_extra(u, suggested)
        then()

    def fumble_extras(self, u: Unit, then: Callable[[], None]) -> None:
        """S-R10: on a 失着 the GM may add a weapon drop, a stance collapse or a slip (GM mode)."""
        if not self.rules.tables_headless_gm:
            then()
            return
        self._ask_gm(u, "失着の追加効果 (S-R10)", ["none", "weapon_drop", "stance_collapse", "slip"], "none", then)

    def _ask_gm(self, u: Unit, what: str, names: list[str], suggested: str, then: Callable[[], None]) -> None:
        opts = [Option(f"gm:{n}", LABELS.get(n, n) + (" ←仮表" if n == suggested else ""),
                       data={"kind": "gm", "outcome": n, "suggested": n == suggested}) for n in names]

        def handle(key: str) -> None:
            self.apply_extra(u, key[3:])
            then()

        self.ask("GM", "gm_table", f"GM裁定: {u.name} {what}", opts, handle)

    def apply_extra(self, u: Unit, outcome: str) -> None:
        if outcome in ("none", "narrative"):
            return
        if outcome == "weapon_drop":
            u.dropped = True
        elif outcome in ("stance_collapse", "stance_collapse_slip"):
            mod = fumble_extra_modifier("stance_collapse")
            u.collapse = mod.delta if mod is not None else 1
        elif outcome == "weapon_broken":
            u.broken = True
        elif outcome == "friendly_fire":
            ally = next((x for x in self.units
                         if x.side == u.side and x.able and x is not u and x.zone == u.zone), None)
            if ally is not None:
                self.wound(ally, 1, "S-R11,S-G07", "同士討ち")
        self.emit("fumble_extra", "S-R10,S-T51", f"{u.name}: {LABELS.get(outcome, outcome)}", unit=u.id,
                  outcome=outcome)
