"""The fantasy combat state (GameState protocol): fighters, formation, conditions, the
round/turn machine (turns.py) and the actions (actions.py, options in legal.py)."""

from __future__ import annotations

from typing import Any

from ikusa.dice.source import DiceSource
from ikusa.engine.errors import RuleViolation
from ikusa.engine.events import Event
from ikusa.engine.protocol import Decision, Option
from ikusa.systems.fantasy.character import Fighter
from ikusa.systems.fantasy.conditions import Cond, ConditionDef, effective, find_condition
from ikusa.systems.fantasy.encounter import FantasyEncounter, parse_front
from ikusa.systems.fantasy.formation import Formation, Front
from ikusa.systems.fantasy.resolution import Applied, blocked_by, condition_modifiers

START = "start"


class FantasyState:
    """A fantasy (002) battle in progress."""

    def __init__(self, enc: FantasyEncounter) -> None:
        self.enc = enc
        self.opts = enc.options
        self.table: dict[str, ConditionDef] = enc.condition_table()
        self.field = enc.field()
        self.fighters: dict[str, Fighter] = {}
        for c in enc.characters:
            f = Fighter(c, c.hp, enc.unit_of(c), c.row, c.front)
            for cs in c.conditions:
                d = find_condition(cs.id, self.table)
                assert d is not None
                f.add(Cond(d.id, cs.rounds, cs.cause))
            f.surprised = c.id in enc.surprised
            self.fighters[c.id] = f
        self.env: list[Cond] = []
        for e in enc.environment:
            d = find_condition(e.id, self.table)
            assert d is not None
            self.env.append(Cond(d.id, e.rounds, e.cause))
        pairs: list[tuple[Front, Front]] = [(parse_front(a), parse_front(b)) for a, b in enc.engagements]
        if not pairs:
            units = list(dict.fromkeys(f.unit for f in self.fighters.values()))
            sides = {u: next(f.side for f in self.fighters.values() if f.unit == u) for u in units}
            if len(units) == 2 and sides[units[0]] != sides[units[1]]:
                pairs = [((units[0], "fore"), (units[1], "fore"))]
        self.formation = Formation(self.fighters, self.field, pairs, self.opts.width_per_fighter,
                                   self.opts.front_min_valid, self.effective)
        self.round = 0
        self.started = False
        self.order: list[str] = []
        self.current: str | None = None
        self.winner: str | None = None
        self.over = False

    # -- conditions ------------------------------------------------------------------------
    def conds_of(self, f: Fighter) -> list[Cond]:
        """Own conditions + environment + 不意打ち while not yet acted (F-R04, F-R05, F-G01)."""
        out = list(f.conds) + list(self.env)
        if f.surprised and not f.acted and (self.opts.surprise_until_first_turn or self.round <= 1):
            out.append(Cond("surprised"))
        return out

    def effective(self, f: Fighter) -> list[tuple[Cond, ConditionDef]]:
        """The conditions that apply to ``f`` after senses and F-G11 stacking."""
        return effective(self.conds_of(f), f.spec.all_senses(), self.table)

    def mods(self, f: Fighter, tags: tuple[str, ...]) -> list[Applied]:
        return condition_modifiers(tags, self.effective(f))

    def blocked(self, f: Fighter, tags: tuple[str, ...]) -> ConditionDef | None:
        return blocked_by(tags, self.effective(f))

    def flag(self, f: Fighter, name: str) -> ConditionDef | None:
        """The first applying condition whose boolean ``name`` is False (a 'can_*' capability),
        or True for ``always_hit``."""
        for _c, d in self.effective(f):
            v = getattr(d, name)
            if (name == "always_hit" and v) or (name != "always_hit" and not v):
                return d
        return None

    def multiplier(self, f: Fighter, action: str) -> int:
        """F-R16/F-R17/F-G13: action-cost multiplier of the applying environment."""
        return max([d.action_multipliers.get(action, 1) for _c, d in self.effective(f)] + [1])

    def breathless(self, f: Fighter) -> bool:
        """F-R18: in a breath environment (水中) without air; F-G14: a non-swimmer out of depth in
        中装鎧 or heavier sinks, so the breath rules apply at once even if it had air."""
        env = [d for _c, d in self.effective(f) if d.breath]
        if not env:
            return False
        sinking = f.spec.out_of_depth and f.spec.armor in ("medium", "heavy") and any(
            d.heavy_armor_cannot_swim for d in env)
        return not f.spec.air or sinking

    def action_cost(self, f: Fighter, action: str) -> int:
        """F-G13: host cost of 移動/射線の確保/遮蔽を取る/全力移動 × the water multiplier (F-T15, F-T16)."""
        base = {"move": self.opts.cost_move, "line_of_fire": self.opts.cost_line_of_fire,
                "cover": self.opts.cost_cover, "run": self.opts.cost_run}[action]
        return base * self.multiplier(f, action)

    # -- protocol ----------------------------------------------------------------------------
    def pending(self) -> Decision | None:
        if self.over:
            return None
        if not self.started:
            return Decision("GM", "start", "戦闘開始: 不意打ち判定と第1ラウンドのイニシアティブ",
                            (Option(START, "戦闘開始"),))
        from ikusa.systems.fantasy.legal import options_for

        assert self.current is not None
        f = self.fighters[self.current]
        return Decision(f.id, "action", f"第{self.round}ラウンド {f.name} の手番 (残りアクション {f.actions})",
                        tuple(options_for(self, f)))

    def apply(self, action: str, dice: DiceSource) -> list[Event]:
        from ikusa.systems.fantasy import turns
        from ikusa.systems.fantasy.actions import perform

        if self.over:
            raise RuleViolation("ENGINE", "", "the battle is over")
        if not self.started:
            if action != START:
                raise RuleViolation("F-H07", "002 (host round structure)", f"the battle must begin with {START!r}")
            return turns.begin(self, dice)
        decision = self.pending()
        assert decision is not None
        if decision.option(action) is None:
            raise self.explain_illegal(action)
        events = perform(self, self.fighters[decision.actor], action, dice)
        events.extend(turns.after_action(self, dice))
        return events

    def explain_illegal(self, action: str) -> RuleViolation:
        from ikusa.systems.fantasy.legal import explain

        return explain(self, action)

    def summary(self) -> dict[str, Any]:
        chars = []
        for f in self.fighters.values():
            names = [self.table[c.id].name for c in f.conds]
            if any(c.id == "surprised" for c in self.conds_of(f)):
                names.append(self.table["surprised"].name)
            chars.append({"id": f.id, "name": f.name, "side": f.side, "hp": f.hp, "conditions": names,
                          "row": f.row, "down": f.out})
        return {"characters": chars, "winner": self.winner, "round": self.round}
