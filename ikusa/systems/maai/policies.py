"""AI policies for unattended maai battles: uniform random over legal options, and greedy."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from ikusa.engine.protocol import Action, Decision, Option
from ikusa.systems.maai.breath_memo import CHOICES_MAX, BreathWait
from ikusa.systems.maai.option_odds import outside
from ikusa.systems.maai.units import Unit


# a policy is an extension point: Python subclasses of these compiled classes (mypyc, setup.py)
# are allowed
@mypyc_attr(allow_interpreted_subclasses=True)
class RandomPolicy:
    """Uniform over the legal options, using only the ``rng`` passed in."""

    def choose(self, state: Any, decision: Decision, rng: random.Random) -> Action:
        return decision.options[rng.randrange(len(decision.options))].key


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyPolicy:
    """Spends 活力 within the breath limit, attacks the weakest reachable target with the
    best odds (closing in when nothing is in reach), reserves a defence after attacking, and
    uses fate on fumbles, failed rolls and lethal hits (not to upgrade a success to 会心)."""

    #: a ClassVar, so a subclass's own value is the one read (compiled, a plain class attribute
    #: would be an instance default that a Python subclass cannot override)
    min_odds: ClassVar[float] = 0.1

    def choose(self, state: Any, decision: Decision, rng: random.Random) -> Action:
        opts = decision.options
        kind = decision.kind
        if kind == "breath":
            return self._breath(state, decision)
        if kind == "reaction":
            best: Option | None = None
            for o in opts:
                if o.key == "noreact":
                    continue
                reserved = o.data.get("reserved", False)
                if not reserved and (o.odds or 0.0) < 0.3:
                    continue
                if best is None or (reserved, o.odds or 0.0) > (best.data.get("reserved", False), best.odds or 0.0):
                    best = o
            return best.key if best is not None else "noreact"
        if kind == "fate":
            # spend fate to avoid a 失着, to make a missed roll succeed, or against a lethal hit;
            # not to upgrade a success to 会心 (fate is scarce: max(1, 運) per combat)
            for o in opts:
                if o.data.get("better") and (not o.data.get("own") or o.data.get("was") not in ("成功", "会心")):
                    return o.key
            return "nofate"
        if kind == "gm_table":
            return next((o.key for o in opts if o.data.get("suggested")), opts[0].key)
        if kind == "count_tie":
            # S-G49: headless, tied units of one side act in a seeded random order
            return opts[rng.randrange(len(opts))].key
        return opts[0].key  # lull: the first 整備 offered; gm_event: env:none (nothing happens)

    def _breath(self, state: Any, decision: Decision) -> Action:
        # breath_memo.BreathWait: the cached list it lists (typed: native reads, compiled)
        memo = decision.memo if isinstance(decision, BreathWait) else None
        if memo is None:
            return self._breath_choice(state, decision)
        # the choice reads the options, the acting unit's reservations and acted, the enemies'
        # zones and 戦闘不能 (all in the list's cache key) and the targets' 戦力 (below)
        choices = memo.choices
        units: list[Unit] = state.units
        key = (self.min_odds, *[t.wounds for t in units])
        got: str | None = choices.get(key)
        if got is None:
            if len(choices) >= CHOICES_MAX:
                choices.clear()
            got = choices[key] = self._breath_choice(state, decision)
        return got

    def _breath_choice(self, state: Any, decision: Decision) -> Action:
        best: Option | None = None
        best_w = 0  # the best attack so far: the highest (−target 戦力, odds), the first on a tie
        best_p = 0.0
        reserve: Option | None = None
        move: Option | None = None
        # typed, so the compiled loops below read 戦力 natively and compare plain ints (issue #12
        # target 3: a mass battle's breath looks at every enemy's attack option)
        by_id: dict[str, Unit] = state.by_id
        me = by_id[decision.actor]
        has_defence: bool | None = None  # worked out when a reserve option comes up
        min_odds = self.min_odds
        end = "pass"
        options = decision.options
        # breath_flow.BreathWait: where its attack options are (typed: native ints, compiled)
        spans: list[tuple[int, int, bool | None]] | None = getattr(decision, "spans", None)
        if spans:
            # a mass battle's breath: each maneuver's attack options in one run; a run past the
            # limit is skipped whole, the rest is looked at option by option below
            # per span its targets in the options' order, or None (typed: native loops, compiled)
            span_targets: list[list[Unit] | None] | None = getattr(decision, "span_targets", None)
            n = -1
            for start, stop, within in spans:
                n += 1
                if within is False:
                    continue
                targets: list[Unit] | None = span_targets[n] if span_targets is not None else None
                if targets is not None and within is True:
                    # no reads of the options' data nor of by_id
                    j: int = start
                    for tgt in targets:
                        ot: Option = options[j]
                        j += 1
                        pt: float = ot.odds or 0.0
                        if pt < min_odds:
                            continue
                        wt: int = -tgt.wounds
                        if best is None or wt > best_w or (wt == best_w and pt > best_p):
                            best, best_w, best_p = ot, wt, pt
                    continue
                for o in options[start:stop]:
                    d = o.data
                    if within is None and not d["within"]:
                        continue
                    p = o.odds or 0.0
                    if p < min_odds:
                        continue
                    w = -by_id[d["target"]].wounds
                    if best is None or w > best_w or (w == best_w and p > best_p):
                        best, best_w, best_p = o, w, p
            if best is not None:
                return best.key
            # no attack to make: the loop below looks at the rest only (the options in the
            # spans would not make one either)
            rest: tuple[Option, ...] | list[Option] = [options[i] for i in outside(spans, len(options))]
        else:
            rest = options
        for o in rest:
            d = o.data
            k = d["kind"]  # every maai breath option says its kind
            if k == "attack":  # most options of a big battle: the shortest path first
                if not d["within"]:
                    continue
                p = o.odds or 0.0
                if p < min_odds:
                    continue
                w = -by_id[d["target"]].wounds
                if best is None or w > best_w or (w == best_w and p > best_p):
                    best, best_w, best_p = o, w, p
            elif k == "end":
                end = "end"
            elif k == "reserve":
                if reserve is None and d.get("within"):
                    if has_defence is None:
                        has_defence = False
                        for r in me.reservations:
                            if r.kind == "defence":
                                has_defence = True
                                break
                    if not has_defence and d["move"] in me.defence_ids:
                        reserve = o
            elif k == "move" and "zone" in d and d.get("within") and (move is None or (o.cost or 0) < (move.cost or 0)):
                zone = d["zone"]
                if any(t.side != me.side and t.able and t.zone == zone for t in state.units):
                    move = o
        if best is not None:
            return best.key
        if me.acted and reserve is not None:
            return reserve.key  # attacked this breath: guard until the next one
        if not me.acted and move is not None and any(m.kind == "attack" and m.reach == 0 for m in me.moves):
            return move.key  # close in on the enemy
        return end
