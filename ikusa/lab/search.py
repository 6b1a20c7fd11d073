"""The search policy (``--ai search:200``): flat Monte Carlo with determinised rollouts on
ikusa's own state, for every system.

At a decision with more than one legal option it tries each option in simulations: clone the
state, apply the option, and play the battle out with the system's greedy policy for everybody,
with dice from a fresh seeded :class:`~ikusa.lab.crn.CrnSource` (one *determinisation* of
chance).  Every option of a round shares that round's seed (common random numbers), so the
options are compared on the same luck.  The budget counts simulations per decision.  The
option with the best score (win 1, draw ½, loss 0 for the deciding side) is chosen; a tie goes
to greedy's own choice, so noise alone never makes search play worse than greedy.

A state is cloned with ``copy.deepcopy`` where that works (fantasy: 2.6 ms against 9.4 ms for a
replay at mid-battle) and otherwise by **replaying its combat record** onto a fresh state (the
record holds every decision and its dice): the maai state holds mapping proxies and the
sengensyou state a generator, neither of which can be copied (maai replays mid-duel in
0.7 ms).  ``bench/bench_lab.py`` prints both costs.  The policy is therefore bound
to the :class:`~ikusa.engine.combat.Combat` it plays in (:meth:`SearchPolicy.bind`); the lab's
battle loop and :func:`ikusa.engine.runner.run_ai` do that.

This is the "is greedy versus greedy a fair proxy for good play" check: a designer compares
``search`` against ``greedy`` with ``ikusa lab compare``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from functools import partial
from typing import Any

from ikusa.dice.source import ScriptedSource
from ikusa.engine.combat import Combat, Entry
from ikusa.engine.errors import InputError
from ikusa.engine.protocol import Action, Decision, GameState, Policy
from ikusa.lab.crn import CrnSource
from ikusa.lab.metrics import roster

#: a rollout still undecided after this many decisions counts as a draw
ROLLOUT_LIMIT = 3_000
#: the largest budget ``search:N`` accepts
MAX_BUDGET = 100_000


def parse_search(name: str) -> int | None:
    """The budget of ``search:N`` (``search`` alone = 200); ``None`` if not a search policy."""
    head, sep, tail = name.strip().lower().partition(":")
    if head != "search":
        return None
    if not sep:
        return 200
    if not tail.isdigit() or not 1 <= int(tail) <= MAX_BUDGET:
        raise InputError(f"search budget must be a whole number 1..{MAX_BUDGET}, not {tail!r} "
                         f"(as in search:200)", field="--ai")
    return int(tail)


def replay_state(new_state: Callable[[], GameState], record: list[Entry]) -> GameState:
    """A fresh copy of a combat's current state: its record replayed with the recorded dice."""
    state = new_state()
    for e in record:
        state.apply(e.action, ScriptedSource([v for v, _ in e.dice]))
    return state


class SearchPolicy:
    """Flat Monte Carlo over the legal options, ``budget`` simulations per decision."""

    def __init__(self, greedy: Policy, budget: int = 200) -> None:
        self.greedy = greedy
        self.budget = budget
        self._combat: Combat | None = None
        self._sides: dict[str, str] = {}
        #: simulations run (for the bench's cost per decision)
        self.simulations = 0
        self.decisions = 0
        #: how a state is cloned: ``"deepcopy"`` where the state can be copied (fantasy, about
        #: 4× cheaper than replaying there), else ``"replay"``; chosen on the first :meth:`bind`
        self.copier: str | None = None

    def bind(self, combat: Combat) -> None:
        """Play in ``combat`` (its record is what a clone replays)."""
        self._combat = combat
        self._sides = {str(u.get("id")): str(u.get("side")) for u in roster(combat.state.summary())}
        if self.copier is None:
            try:
                copy.deepcopy(combat.state)
                self.copier = "deepcopy"
            except (TypeError, copy.Error):
                self.copier = "replay"

    def _side(self, actor: str, state: GameState) -> str:
        side = self._sides.get(actor)
        if side is None:
            self._sides.update({str(u.get("id")): str(u.get("side")) for u in roster(state.summary())})
            side = self._sides.get(actor, actor)
        return side

    def choose(self, state: Any, decision: Decision, rng: random.Random) -> Action:
        fallback = self.greedy.choose(state, decision, rng)
        combat = self._combat
        if len(decision.options) < 2 or combat is None or combat.state is not state:
            return fallback
        self.decisions += 1
        keys = decision.keys()
        rounds = max(1, self.budget // len(keys))
        side = self._side(decision.actor, state)
        if self.copier == "deepcopy":
            clone: Callable[[], GameState] = partial(copy.deepcopy, state)
        else:
            clone = partial(replay_state, combat._new_state, list(combat.record))
        score = dict.fromkeys(keys, 0)
        for _ in range(rounds):
            seed = rng.getrandbits(63)
            for key in keys:
                score[key] += self._rollout(clone, key, side, seed)
        best = max(score.values())
        if score[fallback] == best:
            return fallback
        return next(k for k in keys if score[k] == best)

    def _rollout(self, clone: Callable[[], GameState], key: Action, side: str, seed: int) -> int:
        """One simulation: 2 = the deciding side wins, 1 = draw (or undecided), 0 = loss."""
        self.simulations += 1
        st = clone()
        dice = CrnSource(seed)
        rng = random.Random(seed)
        st.apply(key, dice)
        greedy = self.greedy
        for _ in range(ROLLOUT_LIMIT):
            d = st.pending()
            if d is None:
                break
            st.apply(greedy.choose(st, d, rng), dice)
        else:
            return 1
        winner = st.summary().get("winner")
        if winner is None:
            return 1
        return 2 if str(winner) == side else 0
