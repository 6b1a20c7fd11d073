"""AI policies for the fantasy engine: uniformly random legal choice, and a greedy one."""

from __future__ import annotations

import random
from typing import Any

from mypy_extensions import mypyc_attr

from ikusa.engine.protocol import Action, Decision, Option


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomPolicy:
    """Any legal option, uniformly; 'end' only when it is the sole option or 1 in 10."""

    def choose(self, state: Any, decision: Decision, rng: random.Random) -> Action:
        options = decision.options
        opts = [o for o in options if o.key != "end"]
        if len(opts) < len(options) and (not opts or rng.random() < 0.1):  # 'end' is among them
            return "end"
        return rng.choice(opts).key


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyPolicy:
    """Best expected damage now (hit odds × expected damage, finishing blows first);
    otherwise stand up, wake allies, cast, or close in; else end the turn."""

    def choose(self, state: Any, decision: Decision, rng: random.Random) -> Action:
        best: tuple[float, str] | None = None
        for o in decision.options:
            score = self._score(o)
            if score is not None and (best is None or score > best[0]):
                best = (score, o.key)
        if best is not None:
            return best[1]
        return "end" if "end" in decision.keys() else decision.options[0].key

    @staticmethod
    def _score(o: Option) -> float | None:
        data = o.data  # read once: a lazy option makes it on first read (lazy_option.py)
        act = data.get("action")
        if act == "attack":
            exp = float(data.get("expected_damage", 0.0))
            odds = o.odds
            odds = odds if odds is not None else 0.5
            kill = 2.0 if exp >= float(data.get("target_hp", 99)) else 1.0
            return odds * exp * kill + 1.0
        if act == "stand":
            return 100.0
        if act == "wake":
            return 90.0
        if act == "cast":
            if data.get("ally"):
                return 95.0 if int(data.get("cures", 0)) > 0 else None
            return 5.0
        if act == "aim":
            return 0.6 if int(data.get("opens", 0)) > 0 else None
        if act == "advance":
            return 0.5 if int(data.get("reach", 0)) > 0 else None
        if act == "withdraw":
            now, other = int(data.get("reach_now", 0)), int(data.get("reach_other", 0))
            return 0.4 if now == 0 and other > 0 else None
        if act == "trip":
            fall = data.get("fall_odds")
            if fall is None:
                return 0.8
            odds = o.odds
            odds = odds if odds is not None else 0.5
            return odds * float(fall) * float(data.get("target_hp", 0)) + 0.8
        return None
