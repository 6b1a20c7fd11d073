"""AI policies for 千幻抄: uniformly random legal play, and a greedy player following the
designer's flow (G-R31): suppress with 弾幕, force DP spending with shots/melee, finish
when a target's DP runs out; spend graze on damage; evade while it is cheap."""

from __future__ import annotations

import random
from operator import attrgetter
from typing import Any

from mypy_extensions import mypyc_attr

from ikusa.engine.protocol import Decision, Option
from ikusa.systems.sengensyou.bullets import HOMING_BOOST_BONUS
from ikusa.systems.sengensyou.checks_flow import p_at_least
from ikusa.systems.sengensyou.defence import evade_base

_KEY = attrgetter("key")


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomPolicy:
    """Any legal option, uniformly (the property tests' adversary)."""

    def choose(self, state: Any, decision: Decision, rng: random.Random) -> str:
        return rng.choice(decision.options).key


def _n(key: str) -> int:
    return int(key.rsplit(":", 1)[1])


#: the option kinds GreedyPolicy._score scores (every other kind: None)
SCORED = frozenset({"barrage", "shot", "homing", "melee", "spell", "sc"})


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyPolicy:
    """A deterministic heuristic player (uses no randomness)."""

    def choose(self, state: Any, decision: Decision, rng: random.Random) -> str:
        handler = getattr(self, "_" + decision.kind, None)
        if handler is None:
            return decision.options[0].key
        key: str = handler(state, decision)
        return key

    # -- turn start ------------------------------------------------------------------
    def _row(self, st: Any, d: Decision) -> str:
        f = st.f(d.actor)
        keys = d.keys()
        if "row:back" in keys and f.hp * 5 < f.hp_max * 2:
            return "row:back"
        return "row:front"

    def _focus(self, st: Any, d: Decision) -> str:
        f = st.f(d.actor)
        return "focus:yes" if f.hp * 10 < f.hp_max * 3 else "focus:no"

    # -- own action ------------------------------------------------------------------
    def _action(self, st: Any, d: Decision) -> str:
        f = st.f(d.actor)
        opts = d.options
        if f.hp * 2 < f.hp_max:  # (the key scans only when they can matter: issue #12)
            deploy = [o.key for o in opts if o.key.startswith("deploy:")]
            if deploy:
                return deploy[0]
        if f.dp <= 2:
            shoudan = [o.key for o in opts if o.key.startswith("shoudan:")]
            if shoudan:
                return shoudan[0]
        # the first option of the highest score above 0.5 (a later equal score never wins)
        best_score, best_key = 0.5, "wait" if "wait" in map(_KEY, opts) else "end"
        score_of = self._score
        dp, fighters = f.dp, st.fighters
        # issue #12: _score's shot, melee and homing lines inlined (the same floats from the
        # same operations in the same order), with each target's DP read once per decision
        dps = {tid: g.dp for tid, g in fighters.items()}
        #: homing: per (target, 達成値) the two parts of a target's score, worked out once
        homing_parts: dict[tuple[str, int], tuple[float, float]] = {}
        # (exp_damage and base are floats and ints already: no float()/int() round trips)
        for o in opts:
            data = o.data
            kind = data.get("kind")
            if kind is None:  # moves, escape, graze → 霊力 …: never scored
                continue
            if kind == "shot":  # the most numerous
                dmg = data["exp_damage"]
                cost = o.cost or 0
                odds = o.odds or 0.0
                if odds >= 0.75 and dps[data["target"]] <= 5:
                    score = dmg * odds + 4 - 0.3 * cost
                else:
                    score = (0.45 * (cost if cost < 5 else 5) + 0.5 * odds * dmg - 0.6 * (cost - 5 if cost > 5 else 0)
                             - (0.0 if dp - cost >= 4 else 2.0))
            elif kind == "melee":
                dmg = data["exp_damage"]
                cost = o.cost or 0
                hit = 1.0 if dps[data["target"]] == 0 else 0.4
                score = ((o.odds or 0.0) * (hit * dmg + 0.5 * cost) - 0.5 * cost
                         - (0.0 if dp - cost >= 4 else 2.0))
            elif kind == "homing":
                dmg = data["exp_damage"]
                cost = o.cost or 0
                reserve = 0.0 if dp - cost >= 4 else 2.0
                base = data["base"]
                s = 0.0
                for tid, boost in zip(data["targets"], data["boosts"], strict=True):
                    total = base + HOMING_BOOST_BONUS * boost
                    part = homing_parts.get((tid, total))
                    if part is None:
                        t = fighters[tid]
                        miss = p_at_least(evade_base(st, t), t.dp, total) if t.dp else 0.0
                        part = homing_parts[(tid, total)] = (1 - miss, 0.3 * min(t.dp, 4))
                    s += part[0] * dmg + part[1]
                score = s - 0.5 * cost - reserve
            elif kind in SCORED:
                got = score_of(st, f, o)
                if got is None:
                    continue
                score = got
            else:  # _score gives None (moves, その他 …: not scored at all)
                continue
            if score > best_score:
                best_score, best_key = score, o.key
        return best_key

    def _score(self, st: Any, f: Any, o: Option) -> float | None:
        """Designer's flow (G-R31): 弾幕 suppresses while the enemy has DP; shots and melee
        apply pressure with a few dice; once a target cannot out-roll us (its DP ran out),
        finish it with enough dice."""
        kind = o.data.get("kind")
        dmg = float(o.data.get("exp_damage", 0.0))
        cost = o.cost or 0
        reserve = 0.0 if f.dp - cost >= 4 else 2.0
        if kind == "barrage":
            x = int(o.data["reduction"])
            s = sum(0.9 * x if t.dp >= x else dmg for t in st.enemies(f))
            return float(s - reserve)
        if kind == "shot":
            odds = o.odds or 0.0
            if odds >= 0.75 and st.f(o.data["target"]).dp <= 5:  # finishing: its DP ran out
                return float(dmg * odds + 4 - 0.3 * cost)
            return float(0.45 * min(cost, 5) + 0.5 * odds * dmg - 0.6 * max(0, cost - 5) - reserve)
        if kind == "homing":
            s = 0.0
            for tid, boost in zip(o.data["targets"], o.data["boosts"], strict=True):
                t = st.f(tid)
                total = int(o.data.get("base", 0)) + HOMING_BOOST_BONUS * boost
                miss = p_at_least(evade_base(st, t), t.dp, total) if t.dp else 0.0
                s += (1 - miss) * dmg + 0.3 * min(t.dp, 4)
            return float(s - 0.5 * cost - reserve)
        if kind == "melee":
            t = st.f(o.data["target"])
            hit = 1.0 if t.dp == 0 else 0.4
            return float((o.odds or 0.0) * (hit * dmg + 0.5 * cost) - 0.5 * cost - reserve)
        if kind == "spell":  # evaded or resisted cheaply while the target still has DP
            t = st.f(o.data["target"])
            lands = 0.9 if t.dp == 0 else 0.15
            return float((o.odds or 0.0) * dmg * lands - 0.5 * cost - reserve)
        if kind == "sc":  # kept for defence unless it can finish someone
            targets = [st.f(o.data["target"])] if "target" in o.data else st.enemies(f)
            finish = any(t.hp <= dmg and t.dp <= 3 for t in targets)
            return float(dmg * len(targets) * (0.8 if finish else 0.1))
        return None

    def _melee_hit(self, st: Any, d: Decision) -> str:
        return max(d.options, key=lambda o: (min(o.cost or 0, 5), -(o.cost or 0))).key

    # -- reactions -------------------------------------------------------------------
    def _barrage(self, st: Any, d: Decision) -> str:
        f = st.f(d.actor)
        # one pass (issue #12): the last 霊撃 option, the first pay and take options
        reigeki: str | None = None
        take = pay = None
        for o in d.options:
            k = o.key
            if k == "barrage:take":
                if take is None:
                    take = o
            elif k == "barrage:pay":
                if pay is None:
                    pay = o
            elif k.startswith("graze:reigeki:"):
                reigeki = k
        if reigeki is not None:
            return reigeki
        dmg = int(take.data.get("damage", 0)) if take else 0
        if pay is not None and (f.dp - (pay.cost or 0) >= 3 or dmg >= f.hp):
            return "barrage:pay"
        return "barrage:take"

    def _defence(self, st: Any, d: Decision) -> str:
        f = st.f(d.actor)
        defs = [o for o in d.options if o.key.startswith(("evade:", "guard:"))]
        good = [o for o in defs if (o.odds or 0) >= 0.75]
        if good:
            return min(good, key=lambda o: (o.cost or 0, -(o.odds or 0))).key
        if defs:
            top = max(defs, key=lambda o: (o.odds or 0, -(o.cost or 0)))
            if (top.odds or 0) >= 0.35:
                return top.key
        scd = [k for k in d.keys() if k.startswith("sc_defend:")]
        if scd and f.hp * 3 < f.hp_max:
            return scd[0]
        return "none"

    def _cover(self, st: Any, d: Decision) -> str:
        good = [o for o in d.options if (o.odds or 0) >= 0.6]
        return min(good, key=lambda o: o.cost or 0).key if good else "decline"

    def _graze_boost(self, st: Any, d: Decision) -> str:
        return d.options[-1].key

    def _graze_resist(self, st: Any, d: Decision) -> str:
        return d.options[-1].key

    def _resist(self, st: Any, d: Decision) -> str:
        return d.options[-1].key

    def _sc_defence(self, st: Any, d: Decision) -> str:
        f = st.f(d.actor)
        amount = _amount(d.prompt)
        return d.options[1].key if amount >= f.hp else "accept"

    def _tekagen(self, st: Any, d: Decision) -> str:
        return "tekagen:faint"

    def _escape(self, st: Any, d: Decision) -> str:
        return d.options[0].key

    def _pursue(self, st: Any, d: Decision) -> str:
        return d.options[0].key


def _amount(prompt: str) -> int:
    digits = ""
    for ch in prompt.split(":", 1)[-1]:
        if ch.isdigit():
            digits += ch
        elif digits:
            break
    return int(digits) if digits else 0
