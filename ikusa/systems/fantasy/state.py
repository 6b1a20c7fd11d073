"""The fantasy combat state (GameState protocol): fighters, formation, conditions, the
round/turn machine (turns.py) and the actions (actions.py, options in legal.py)."""

from __future__ import annotations

from typing import Any

from ikusa.dice.source import DiceSource
from ikusa.engine.errors import RuleViolation
from ikusa.engine.events import Event
from ikusa.engine.protocol import Decision, Option
from ikusa.systems.fantasy import rulings
from ikusa.systems.fantasy.character import Fighter
from ikusa.systems.fantasy.conditions import Cond, ConditionDef, effective, find_condition
from ikusa.systems.fantasy.effects import FantasyFx
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
        #: F-R04: surprised characters still to set their place in the formation before round 1
        self.placing: list[str] = []
        #: GM effects, one-off modifiers and overrides (issue #8; fantasy/effects.py, rulings.py)
        self.fx = FantasyFx(homebrew=dict(enc.homebrew_effects))
        self.gm_events: list[Event] = []
        #: the events of the action being applied, resolved so far (``events_so_far``)
        self._so_far: list[Event] = []
        rulings.start_effects(self)

    # -- conditions ------------------------------------------------------------------------
    def conds_of(self, f: Fighter) -> list[Cond]:
        """Own conditions + environment + 不意打ち while not yet acted (F-R04, F-R05, F-G01)."""
        out = list(f.conds) + list(self.env)
        if self.fx.book.active:  # issue #8: conditions held by effects
            out.extend(Cond(c) for c in self.fx.conditions(f.id))
        if f.surprised and not f.acted and (self.opts.surprise_until_first_turn or self.round <= 1):
            out.append(Cond("surprised"))
        return out

    def effective(self, f: Fighter) -> list[tuple[Cond, ConditionDef]]:
        """The conditions that apply to ``f`` after senses and F-G11 stacking."""
        return effective(self.conds_of(f), f.spec.all_senses(), self.table)

    def mods(self, f: Fighter, tags: tuple[str, ...]) -> list[Applied]:
        out = condition_modifiers(tags, self.effective(f))
        if self.fx.book.active or self.fx.next_mod:  # issue #8: effects and GM one-off modifiers
            out.extend(self.fx.mods(f.id, tags))
        return out

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

        if self.placing:
            f = self.fighters[self.placing[0]]
            return Decision(f.id, "formation", f"不意打ち: {f.name} は第1ラウンド陣形だけを決定する (F-R04)",
                            tuple(Option(k, label, 0, None, {"action": "place", "row": row, "front": fr})
                                  for k, label, row, fr, ok in self._place_choices(f) if ok))
        assert self.current is not None
        f = self.fighters[self.current]
        return Decision(f.id, "action", f"第{self.round}ラウンド {f.name} の手番 (残りアクション {f.actions})",
                        tuple(options_for(self, f)))

    def apply(self, action: str, dice: DiceSource) -> list[Event]:
        self._so_far = []
        events = self._apply(action, dice)
        self._so_far = []
        if self.gm_events:  # start effects, the GM's overruled results: before the lines they changed
            events, self.gm_events = [*self.gm_events, *events], []
        return events

    def _apply(self, action: str, dice: DiceSource) -> list[Event]:
        from ikusa.systems.fantasy import turns
        from ikusa.systems.fantasy.actions import perform

        if self.over:
            raise RuleViolation("ENGINE", "", "the battle is over")
        if not self.started:
            if action != START:
                raise RuleViolation("F-H07", "002 (host round structure)", f"the battle must begin with {START!r}")
            return turns.begin(self, dice)
        if self.placing:
            return self._place(action, dice)
        decision = self.pending()
        assert decision is not None
        if decision.option(action) is None:
            raise self.explain_illegal(action)
        events = perform(self, self.fighters[decision.actor], action, dice)
        self.show(events)
        events.extend(turns.after_action(self, dice))
        return events

    def apply_ruling(self, ruling: Any, dice: DiceSource) -> list[Event]:
        """A GM ruling (issue #8 §2; the ops are fantasy/rulings.py's); refused → InputError."""
        return rulings.apply_ruling(self, ruling, dice)

    def _place_choices(self, f: Fighter) -> list[tuple[str, str, str, str, bool]]:
        from ikusa.systems.fantasy.surprise import place_choices

        return place_choices(f, self.field.two_fronts, self.formation.has_room)

    def _place(self, action: str, dice: DiceSource) -> list[Event]:
        """F-R04: a surprised character's round-1 decision: its place in the formation."""
        from ikusa.systems.fantasy import turns

        f = self.fighters[self.placing[0]]
        choice = next((c for c in self._place_choices(f) if c[0] == action and c[4]), None)
        if choice is None:
            raise self.explain_illegal(action)
        _k, _label, row, front, _ok = choice
        moved = (row, front) != (f.row, f.front)
        f.row, f.front = row, front
        self.placing.pop(0)
        where = "後衛" if row == "back" else "前衛" if front == "fore" else "後ろの前衛"
        events = [Event("formation", "F-R04", f"{f.name} (不意打ち) 陣形を決定: {where}"
                        + ("" if moved else " (そのまま)") + " — 行動ではないので機会攻撃なし",
                        {"id": f.id, "row": row, "front": front})]
        if not self.placing:
            events.extend(turns.start_round(self, dice))
        return events

    def explain_illegal(self, action: str) -> RuleViolation:
        from ikusa.systems.fantasy.legal import explain

        if self.started and self.placing:
            f = self.fighters[self.placing[0]]
            for key, _label, _row, front, ok in self._place_choices(f):
                if key == action and not ok:
                    return RuleViolation("F-R08", "002 特殊な場所での戦闘 例2/例3",
                                         f"{self.field.name}: 前衛に立てるのは{self.formation.cap}人まで "
                                         f"({front} の前衛は満員)")
            legal = ", ".join(k for k, *_r, ok in self._place_choices(f) if ok)
            return RuleViolation("F-R04", "002 不意打ちの戦闘処理",
                                 f"{f.name} は不意打ちを受け、第1ラウンドは陣形だけを決定する "
                                 f"(行動・イニシアティブなし); legal: {legal}")

        return explain(self, action)

    def show(self, events: list[Event]) -> None:
        """``events`` are what the action being applied has resolved so far (the hit line before
        the damage roll): ``events_so_far`` shows them while a person types the next dice."""
        self._so_far = events

    def events_so_far(self) -> list[Event]:
        """The events of the decision being applied (an action stopped for typed dice)."""
        return [*self.gm_events, *self._so_far]

    def roster(self) -> list[tuple[str, str, str]]:
        """(id, name, side) of every character (issue #8 control)."""
        return [(f.id, f.name, f.side) for f in self.fighters.values()]

    def summary(self) -> dict[str, Any]:
        chars = []
        for f in self.fighters.values():
            names = [self.table[c.id].name for c in f.conds]
            if self.fx.book.active:  # conditions an effect holds (issue #8)
                names.extend(self.table[c].name for c in self.fx.conditions(f.id))
            if any(c.id == "surprised" for c in self.conds_of(f)):
                names.append(self.table["surprised"].name)
            chars.append({"id": f.id, "name": f.name, "side": f.side, "hp": f.hp, "conditions": names,
                          "row": f.row, "down": f.out})
        out: dict[str, Any] = {"characters": chars, "winner": self.winner, "round": self.round}
        if self.fx.book.active:  # only then: plain battles keep their JSON byte for byte
            out["effects"] = rulings.effects_summary(self)
        return out
