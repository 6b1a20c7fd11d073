"""The search policy (``--ai search:200``): Monte Carlo search with determinised rollouts on
ikusa's own state, for every system.

At a decision with more than one legal option it weighs *plans*: an option followed either by
the system's greedy play (a one-off choice) or by the same option again whenever the same
unit meets the same kind of decision ("keep doing this": aim at that target, use that
technique; the same key with other numbers, such as another DP, if the key itself is not legal;
greedy otherwise).  Everybody else plays greedy.  A simulation
clones the state, applies the plan's first option and plays the battle out with dice from a
fresh seeded :class:`~ikusa.lab.crn.CrnSource` (one *determinisation* of chance).

The budget (simulations per decision) is spent by **sequential halving** (Karnin, Koren and
Somekh 2013): every plan gets the same few simulations, the better half goes on, and so on
until one is left, so a budget of a few dozen suffices for a decision of 40 options; where
there are more plans than simulations, greedy's two and a seeded sample of the others race.  Every
plan in a round shares that round's seeds (common random numbers), so plans are compared on
the same luck, and the scores of the plans still in the race are paired sums.  Greedy's own
choice with greedy play stays in the race to the end as the baseline, and the search leaves it
only for a plan that scored strictly better on the same seeds (win 2, draw 1, loss 0 for the
deciding side), so noise alone rarely makes it play worse than greedy.

Cloning: a state's own ``clone()`` where it has one (fantasy: a deep copy that shares the
encounter, 0.4 ms; sengensyou: its data copied and its generator flow resumed at the pending
action decision, ``turn.battle``'s ``resume``, where ``can_clone()`` says so), else
``copy.deepcopy``, else **replaying its combat record** onto a fresh state (the record holds
every decision and its dice): the maai state holds mapping proxies and closures, which cannot
be copied (it replays mid-duel in 0.7 ms), and sengensyou replays at its other decisions
(about 19 ms, most of it the odds of every option of every decision replayed, hence
``search:N:action``).  ``bench/bench_lab.py`` prints the costs.  The policy is therefore bound
to the :class:`~ikusa.engine.combat.Combat` it plays in (:meth:`SearchPolicy.bind`); the lab's
battle loop and :func:`ikusa.engine.runner.run_ai` do that.

This is the "is greedy versus greedy a fair proxy for good play" check: a designer compares
``search`` against ``greedy`` with ``ikusa lab compare``.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
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
_NUMBER = re.compile(r"[0-9]+")


def parse_search_spec(name: str) -> tuple[int, frozenset[str]] | None:
    """``search[:N[:KIND,KIND…]]`` → (budget, decision kinds searched; empty = every kind), or
    ``None`` if not a search policy.  ``search`` alone = 200 simulations at every decision.

    >>> parse_search_spec("search:40:action"), parse_search_spec("greedy")
    ((40, frozenset({'action'})), None)
    """
    head, sep, tail = name.strip().partition(":")
    if head.lower() != "search":
        return None
    if not sep:
        return 200, frozenset()
    budget, colon, kinds = tail.partition(":")
    if not budget.isdigit() or not 1 <= int(budget) <= MAX_BUDGET:
        raise InputError(f"search budget must be a whole number 1..{MAX_BUDGET}, not {budget!r} "
                         f"(as in search:200, or search:40:action for one decision kind)", field="--ai")
    only = frozenset(k.strip() for k in kinds.split(",") if k.strip())
    if colon and not only:
        raise InputError(f"search:{tail}: no decision kind after the second ':' (as in search:40:action)",
                         field="--ai")
    return int(budget), only


def parse_search(name: str) -> int | None:
    """The budget of ``search:N`` (``search`` alone = 200); ``None`` if not a search policy."""
    spec = parse_search_spec(name)
    return None if spec is None else spec[0]


def replay_state(new_state: Callable[[], GameState], record: list[Entry]) -> GameState:
    """A fresh copy of a combat's current state: its record replayed with the recorded dice."""
    state = new_state()
    for e in record:
        state.apply(e.action, ScriptedSource([v for v, _ in e.dice]))
    return state


@dataclass(frozen=True, slots=True)
class Plan:
    """A first option, and whether the unit keeps choosing it (``sticky``) or plays greedy after."""

    key: Action
    sticky: bool


def _numbers(key: str) -> list[int]:
    return [int(n) for n in _NUMBER.findall(key)]


def sticky_choice(key: Action, decision: Decision) -> Action | None:
    """The option that "keeps doing" ``key``: the same key if legal, else the legal key that
    differs from it only in its numbers (a shot at the same target with another DP), the
    nearest numbers first; ``None`` if there is none.

    >>> from ikusa.engine.protocol import Option
    >>> d = Decision("reimu", "action", "", (Option("shot:fairy:2:x", ""), Option("shot:fairy:4:x", "")))
    >>> sticky_choice("shot:fairy:5:x", d), sticky_choice("shot:kedama:5:x", d)
    ('shot:fairy:4:x', None)
    """
    if decision.option(key) is not None:
        return key
    shape, want = _NUMBER.sub("#", key), _numbers(key)
    near = [(sum(abs(a - b) for a, b in zip(_numbers(o.key), want, strict=True)), i, o.key)
            for i, o in enumerate(decision.options) if _NUMBER.sub("#", o.key) == shape]
    return min(near)[2] if near else None


def halving_rounds(arms: int, budget: int) -> list[int]:
    """Simulations per arm in each round of sequential halving (arms halve every round).

    >>> halving_rounds(8, 48), halving_rounds(2, 10), halving_rounds(40, 10)
    ([2, 4, 8], [5], [1, 1, 1, 1, 1, 1])
    """
    rounds: list[int] = []
    n = arms
    steps = max(1, (arms - 1).bit_length())
    while n > 1:
        rounds.append(max(1, budget // (steps * n)))
        n = (n + 1) // 2
    return rounds or [max(1, budget)]


class SearchPolicy:
    """Sequential halving over plans, about ``budget`` simulations per decision."""

    def __init__(self, greedy: Policy, budget: int = 200, kinds: frozenset[str] = frozenset()) -> None:
        self.greedy = greedy
        self.budget = budget
        #: the decision kinds searched (``search:40:action``); empty = every kind
        self.kinds = kinds
        self._combat: Combat | None = None
        self._sides: dict[str, str] = {}
        #: simulations run and decisions searched (for the bench's cost per decision)
        self.simulations = 0
        self.decisions = 0
        #: how a state is cloned: ``"clone"`` (the state's own), ``"deepcopy"`` or ``"replay"``;
        #: chosen on the first :meth:`bind`
        self.copier: str | None = None

    def bind(self, combat: Combat) -> None:
        """Play in ``combat`` (its record is what a replayed clone replays)."""
        self._combat = combat
        self._sides = {str(u.get("id")): str(u.get("side")) for u in roster(combat.state.summary())}
        if self.copier is None:
            if callable(getattr(combat.state, "clone", None)):
                self.copier = "clone"
                return
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

    def cloner(self, state: Any) -> Callable[[], GameState]:
        """A function returning a fresh copy of ``state`` (the bound combat's current state)."""
        if self.copier == "clone" and getattr(state, "can_clone", lambda: True)():
            return partial(state.clone)
        if self.copier == "deepcopy":  # (a clone() that cannot copy here: replay, below)
            return partial(copy.deepcopy, state)
        assert self._combat is not None
        return partial(replay_state, self._combat._new_state, list(self._combat.record))

    def choose(self, state: Any, decision: Decision, rng: random.Random) -> Action:
        fallback = self.greedy.choose(state, decision, rng)
        combat = self._combat
        if len(decision.options) < 2 or combat is None or combat.state is not state:
            return fallback
        if self.kinds and decision.kind not in self.kinds:
            return fallback
        self.decisions += 1
        base, keep_on = Plan(fallback, False), Plan(fallback, True)
        arms = [base, keep_on, *(Plan(k, s) for k in decision.keys() if k != fallback for s in (False, True))]
        if len(arms) > self.budget:  # more plans than simulations: greedy's two and a seeded sample
            arms = [base, keep_on, *rng.sample(arms[2:], max(0, self.budget - 2))]
        side = self._side(decision.actor, state)
        clone = self.cloner(state)
        score = dict.fromkeys(arms, 0)
        alive = list(arms)
        rounds = halving_rounds(len(arms), self.budget)
        for i, sims in enumerate(rounds):
            for _ in range(sims):
                seed = rng.getrandbits(63)
                for arm in alive:
                    score[arm] += self._rollout(clone, arm, decision, side, seed)
            if i + 1 < len(rounds):  # the better half goes on, and the baseline always
                ranked = sorted(alive, key=lambda a: (-score[a], arms.index(a)))
                keep = ranked[: (len(alive) + 1) // 2]
                if base not in keep:
                    keep[-1] = base
                alive = keep
        best = max(alive, key=lambda a: (score[a], a == base))
        return best.key

    def _rollout(self, clone: Callable[[], GameState], plan: Plan, root: Decision, side: str,
                 seed: int) -> int:
        """One simulation: 2 = the deciding side wins, 1 = draw (or undecided), 0 = loss."""
        self.simulations += 1
        st = clone()
        dice = CrnSource(seed)
        rng = random.Random(seed)
        st.apply(plan.key, dice)
        greedy = self.greedy
        for _ in range(ROLLOUT_LIMIT):
            d = st.pending()
            if d is None:
                break
            again = sticky_choice(plan.key, d) if plan.sticky and d.actor == root.actor and d.kind == root.kind \
                else None
            st.apply(again if again is not None else greedy.choose(st, d, rng), dice)
        else:
            return 1
        winner = st.summary().get("winner")
        if winner is None:
            return 1
        return 2 if str(winner) == side else 0
