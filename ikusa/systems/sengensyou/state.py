"""The 千幻抄 combat state: a :class:`~ikusa.engine.protocol.GameState` whose flow is a
generator (``turn.battle``) that yields each :class:`Decision` and receives the chosen key.

Replay, undo and save are the core's (``Combat``): the state is rebuilt from the encounter
plus the decision list, so the generator never needs serialising.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from operator import attrgetter
from typing import Any

from mypy_extensions import mypyc_attr

from ikusa.dice.source import DiceSource, ScriptedSource
from ikusa.engine.errors import RuleViolation
from ikusa.engine.events import Event
from ikusa.engine.protocol import Decision, Option
from ikusa.systems.sengensyou import rulings
from ikusa.systems.sengensyou.character import Fighter, new_fighter
from ikusa.systems.sengensyou.check import fixed_dice_value
from ikusa.systems.sengensyou.checks_flow import PoolRoll, pool
from ikusa.systems.sengensyou.effects import GM_REFRESH, SengensyouFx, gm_pool
from ikusa.systems.sengensyou.encounter import Encounter, Surprise

Flow = Generator[Decision, str, None]
_KEY = attrgetter("key")


@mypyc_attr(allow_interpreted_subclasses=True)  # copied via cls.__new__ (deepcopy, pickle): see setup.py
class SengensyouState:
    """One 千幻抄 battle in progress."""

    #: only the sums of the d6 pools and damage dice matter (G-R01): a typed sum is enough
    dice_sum_only = True

    def __init__(self, encounter: Encounter) -> None:
        from ikusa.systems.sengensyou.turn import battle

        self.enc = encounter
        self.opt = encounter.options
        setup = encounter.battle_setup()  # (the encounter's private attributes, gathered once: issue #12)
        #: the encounter's sides, in order (issue #12: asked at every update_end)
        self.sides: list[str] = list(setup.sides)
        self._constants()
        self.fighters: dict[str, Fighter] = {}
        cat = setup.catalog
        for c in encounter.characters:
            self.fighters[c.id] = new_fighter(c, self.opt, cat=cat)
        self.arrivals: dict[str, int] = {}
        for r in encounter.reinforcements:
            f = new_fighter(r.character, self.opt, cat=cat)
            f.in_battle = False
            self.fighters[r.character.id] = f
            self.arrivals[r.character.id] = r.turn
        self.turn = 0
        self.order: list[str] = []
        self.winner: str | None = None
        self.finished = False
        self.scene_over = False
        self.dice: DiceSource = ScriptedSource([])
        self.out: list[Event] = []
        #: issue #12: each fighter's attack variants (bullets.state_variants), by (id, kind, need_skill)
        #: (shared by every battle of the encounter: Encounter.memo)
        self.variant_memo: dict[tuple[str, str, bool], tuple[object, object, list[Any]]] = setup.memo("variants")
        #: issue #12: option lists that depend only on a few numbers (DP declarations, rolled
        #: moves …), built once per encounter and shared (options are immutable): see options()
        self.option_memo: dict[tuple[Any, ...], tuple[Option, ...]] = setup.memo("options")
        #: the same for one fighter's options (shots, melee …): see fighter_options()
        self.fighter_memo: dict[tuple[Any, ...], tuple[object, object, tuple[Option, ...]]] = \
            setup.memo("fighter_options")
        #: the same for lists that grow with the attacker's DP (shots, melee: attack_options.py)
        self.grow_memo: dict[tuple[Any, ...], tuple[Any, ...]] = setup.memo("growing")
        self.attack_serial = 0  # one per attack a defender may answer (G-R05; events carry it)
        #: GM effects, one-off modifiers and overrides (issue #8; sengensyou/effects.py, rulings.py)
        self.fx = SengensyouFx(homebrew=dict(setup.homebrew_effects))
        if setup.start_effects:
            rulings.start_effects(self)
        #: where the flow is while a character acts: (the turn's order, its index); turn.battle
        self.cursor: tuple[list[str], int] | None = None
        self._flow: Flow = battle(self)
        self._pending: Decision | None = self._step(None)

    def _constants(self) -> None:
        """Numbers of the encounter and its options asked on every option list (issue #12:
        read once, not through properties): the players' side, G-R29 fixed NPC values, the
        G-G09 tie shift and the G-R24 ambush."""
        enc, opt = self.enc, self.opt
        self.pcs: str = enc.pcs
        self.fixed_npcs: bool = opt.fixed_npc_dice
        self.tie: int = 0 if opt.defence_tie == "defender" else 1
        self.ambush: Surprise | None = enc.surprise

    # -- GameState ---------------------------------------------------------------------
    def pending(self) -> Decision | None:
        return self._pending

    def apply(self, action: str, dice: DiceSource) -> list[Event]:
        d = self._pending
        if d is None:
            from ikusa.systems.sengensyou.refusals import OVER

            raise RuleViolation(*OVER)
        if action not in map(_KEY, d.options):  # (Decision.option's scan, in C: issue #12)
            raise self.explain_illegal(action)
        self.dice = dice
        self._pending = self._step(action)
        out, self.out = self.out, []
        return out

    def can_clone(self) -> bool:
        """Whether :meth:`clone` can copy the state now: at an action decision (issue #11)."""
        d = self._pending
        return d is not None and d.kind == "action" and self.cursor is not None and not self.finished

    def clone(self) -> SengensyouState:
        """An independent copy at an action decision, with no replay (issue #11: the search
        policy's simulations): the data is copied (the encounter, its specs and catalogue and
        the option memos shared: no battle changes them) and a new flow resumes at the same
        point of ``turn.battle``: same decisions and dice → the same events, byte for byte."""
        from ikusa.systems.sengensyou.turn import battle

        d = self._pending
        if d is None or self.cursor is None or not self.can_clone():
            raise ValueError(f"a sengensyou state is cloned at an action decision, not at {d and d.kind!r}")
        new = SengensyouState.__new__(SengensyouState)
        new.enc, new.opt, new.sides = self.enc, self.opt, self.sides
        new._constants()
        new.fighters = {k: f.copy() for k, f in self.fighters.items()}
        new.arrivals = dict(self.arrivals)
        new.turn, new.order, new.winner = self.turn, list(self.order), self.winner
        new.finished, new.scene_over = self.finished, self.scene_over
        new.dice = ScriptedSource([])
        new.out = list(self.out)
        new.variant_memo, new.option_memo, new.fighter_memo = self.variant_memo, self.option_memo, self.fighter_memo
        new.grow_memo = self.grow_memo
        new.attack_serial = self.attack_serial
        new.fx = self.fx.copy()
        order, index = self.cursor
        new.cursor = self.cursor
        new._flow = battle(new, (order, index, d))
        new._pending = new._step(None)
        return new

    def apply_ruling(self, ruling: Any, dice: DiceSource) -> list[Event]:
        """A GM ruling (issue #8 §2; the ops are sengensyou/rulings.py's); refused → InputError."""
        return rulings.apply_ruling(self, ruling, dice)

    def explain_illegal(self, action: str) -> RuleViolation:
        from ikusa.systems.sengensyou.legality import explain

        return explain(self, action)

    def summary(self) -> dict[str, Any]:
        out = self._summary()
        if self.fx.book.active:  # only then: plain battles keep their JSON byte for byte
            out["effects"] = rulings.effects_summary(self)
        return out

    def _summary(self) -> dict[str, Any]:
        return {
            "characters": [
                {"id": f.id, "name": f.name, "side": f.side, "hp": f.hp, "dp": f.dp, "dp_max": f.dp_max,
                 "graze": f.graze, "reiryoku": f.reiryoku, "row": f.row, "down": f.down}
                for f in self.fighters.values()
            ],
            "winner": self.winner,
            "turn": self.turn,
        }

    def roster(self) -> list[tuple[str, str, str]]:
        """(id, name, side) of every character, reinforcements included (issue #8 control)."""
        return [(f.id, f.name, f.side) for f in self.fighters.values()]

    def events_so_far(self) -> list[Event]:
        """The events of the decision being applied (an action stopped for typed dice)."""
        return list(self.out)

    def _step(self, action: str | None) -> Decision | None:
        try:
            return self._flow.send(action)  # type: ignore[arg-type]
        except StopIteration:
            return None

    # -- helpers for the flow modules ---------------------------------------------------
    def emit(self, kind: str, rule: str, text: str, **data: Any) -> None:
        self.out.append(Event(kind, rule, text, data))

    def emit_lazy(self, kind: str, rule: str, fmt: Callable[..., str], args: tuple[Any, ...], **data: Any) -> None:
        """:meth:`emit` with the text ``fmt(*args)`` made when first read (issue #12: an AI
        running battles never reads it); ``args`` are values that never change (no fighter)."""
        self.out.append(Event.lazy(kind, rule, fmt, args, data))

    def f(self, fid: str) -> Fighter:
        return self.fighters[fid]

    def options(self, key: tuple[Any, ...], build: Callable[..., list[Option]], *args: Any) -> tuple[Option, ...]:
        """The options ``build(*args)`` makes, kept by ``key`` (on the encounter): ``key`` must
        hold every number the options (keys, labels, costs, data) are made from.  (``build``
        and its arguments, not a closure: issue #12, nothing is made when the list is kept.)"""
        got = self.option_memo.get(key)
        if got is None:
            got = self.option_memo[key] = tuple(build(*args))
        return got

    def fighter_options(self, f: Fighter, key: tuple[Any, ...], build: Callable[..., list[Option]],
                        *args: Any) -> tuple[Option, ...]:
        """:meth:`options` for options made from ``f``'s character sheet and catalogue (kept
        with them: a unit added by a ruling under the same id gets its own) and the numbers
        in ``key``."""
        k = (f.id, *key)
        got = self.fighter_memo.get(k)
        if got is None or got[0] is not f.spec or got[1] is not f.cat:
            got = self.fighter_memo[k] = (f.spec, f.cat, tuple(build(*args)))
        return got[2]

    # (Fighter.active inlined in these three: issue #12, they run on every option list)
    def active(self) -> list[Fighter]:
        return [f for f in self.fighters.values() if f.in_battle and not f.down and not f.escaped]

    def enemies(self, f: Fighter) -> list[Fighter]:
        side = f.side
        return [g for g in self.fighters.values() if g.side != side and g.in_battle and not g.down and not g.escaped]

    def allies(self, f: Fighter) -> list[Fighter]:
        side, fid = f.side, f.id
        return [g for g in self.fighters.values()
                if g.side == side and g.id != fid and g.in_battle and not g.down and not g.escaped]

    def is_pc(self, f: Fighter) -> bool:
        return f.spec.side == self.pcs

    def uses_fixed_dice(self, f: Fighter) -> bool:
        """G-R29: NPC checks read each die as 3.5 (no roll) when the option is on."""
        return self.fixed_npcs and f.spec.side != self.pcs

    def fixed_dice(self, n: int) -> int:
        """The GM's fixed value of n dice (G-R29, rounding G-G30)."""
        return fixed_dice_value(n, "ceil" if self.opt.fixed_roll_rounding == "ceil" else "floor")

    def check(self, f: Fighter, base: int, n: int, purpose: str) -> PoolRoll:
        """A dice-pool check by ``f`` (G-R01); NPCs use fixed values when G-R29 is on."""
        if self.fx.busy:  # issue #8: effects, one-off modifiers, an overruled 達成値
            return gm_pool(self, f, base, n, purpose)
        return pool(base, n, self.dice, purpose, fixed=self.uses_fixed_dice(f),
                    rounding=self.opt.fixed_roll_rounding, roller=f.id)

    def update_end(self) -> bool:
        """The battle ends when at most one side still has characters in it (or coming: a
        reinforcement due after the turn cap never arrives, so it does not keep a side alive)."""
        arrivals = self.arrivals
        if arrivals:  # one pass (issue #12)
            cap = self.opt.max_turns
            staying = {g.side for g in self.fighters.values()
                       if (g.in_battle or arrivals.get(g.id, 0) <= cap) and not g.down and not g.escaped}
        else:  # (no reinforcements: `in_battle or 0 <= cap` always holds)
            staying = {g.side for g in self.fighters.values() if not g.down and not g.escaped}
        alive = [side for side in self.sides if side in staying]
        if len(alive) <= 1:
            self.finished = True
            self.winner = alive[0] if alive else None
        return self.finished


#: questions whose asker rebuilds its options when a GM ruling comes in (it gets GM_REFRESH)
REFRESHED = frozenset({"action", "defence", "barrage", "initiative"})


def ask(actor: str, kind: str, prompt: str, options: Sequence[Option]) -> Generator[Decision, str, str]:
    """Yield one decision and return the chosen key.  A GM ruling made while it is pending
    (issue #8 §2) sends ``GM_REFRESH``: the askers in :data:`REFRESHED` get it and ask anew
    from the changed state; any other question is asked again as it was.

    (An asker of a :data:`REFRESHED` kind may instead ``yield`` its :class:`Decision` itself:
    it gets any key as it is, which is what this returns for it; issue #12.)"""
    while True:
        key = yield Decision(actor, kind, prompt, tuple(options))
        if key != GM_REFRESH or kind in REFRESHED:
            return key


def ask_lazy(actor: str, kind: str, fmt: Callable[..., str], args: tuple[Any, ...],
             options: tuple[Option, ...]) -> Generator[Decision, str, str]:
    """:func:`ask` with the prompt ``fmt(*args)`` made when first read (``Decision.lazy``;
    issue #12: an AI never reads it); ``args`` are values that never change (no fighter)."""
    while True:
        key = yield Decision.lazy(actor, kind, fmt, args, options)
        if key != GM_REFRESH or kind in REFRESHED:
            return key
