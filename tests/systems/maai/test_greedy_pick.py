"""The greedy AI's attack pick at C speed (maai/greedy_pick.py, issue #12 target 3) picks what
the policy's plain loop picks: on every decision of mass battles (greedy and random play, PCs,
mixed 技 and 戦力), and on hand-made breaths that probe each rule of the pick."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from bench.bench_large import encounter_doc
from ikusa.dice.source import RandomSource
from ikusa.engine.protocol import Decision, Option
from ikusa.systems.maai import greedy_pick
from ikusa.systems.maai.encounter import encounter_from_dict
from ikusa.systems.maai.policies import GreedyPolicy, RandomPolicy
from ikusa.systems.maai.state import MaaiState


def both(policy: GreedyPolicy, st: Any, d: Decision, rng: random.Random, mp: pytest.MonkeyPatch) -> tuple[str, str]:
    mp.setattr(greedy_pick, "MANY", 0)
    fast = policy.choose(st, d, rng)
    mp.setattr(greedy_pick, "MANY", 10**9)
    plain = policy.choose(st, d, rng)
    return fast, plain


@pytest.mark.parametrize("driver", [GreedyPolicy(), RandomPolicy()], ids=["greedy", "random"])
def test_the_fast_pick_equals_the_loop_on_every_breath_of_mass_battles(driver: Any,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    doc = encounter_doc(40)
    for i, u in enumerate(doc["units"]):
        u["wounds"] = 1 + i % 3  # targets of different 戦力: the weakest is picked first
        if i % 4 == 0:
            u["abilities"] = {**u["abilities"], "技": 1}
    enc = encounter_from_dict(doc, "<test>")
    greedy = GreedyPolicy()
    compared = 0
    for seed in (1, 2):
        st = MaaiState(enc)
        rng, dice = random.Random(seed), RandomSource(seed)
        while (d := st.pending()) is not None:
            if d.kind == "breath":
                fast, plain = both(greedy, st, d, random.Random(0), monkeypatch)
                assert fast == plain
                compared += len(d.options) >= 10
            st.apply(driver.choose(st, d, rng), dice)
    assert compared > 50


def _attack(key: str, target: str, odds: float | None, within: bool = True) -> Option:
    return Option(f"use:m>{key}", key, cost=1, odds=odds,
                  data={"kind": "attack", "move": "m", "target": target, "within": within})


@pytest.mark.parametrize(("options", "want"), [
    # the weakest target first, even at worse odds
    ([("a", "strong", 0.9), ("b", "weak", 0.4)], "use:m>b"),
    # the same 戦力: the best odds; a tie: the first listed
    ([("a", "weak", 0.4), ("b", "weak2", 0.6), ("c", "weak", 0.6)], "use:m>b"),
    # below min_odds (0.1) or past the breath limit: not picked; None odds count as 0
    ([("a", "weak", 0.05), ("b", "weak", None), ("c", "strong", 0.3), ("d", "weak", 0.9, False)], "use:m>c"),
    # nothing qualifies: the policy ends the breath (it has acted)
    ([("a", "weak", 0.05), ("d", "weak", 0.9, False)], "end"),
])
def test_the_fast_pick_follows_each_rule_of_the_loop(options: list[tuple[Any, ...]], want: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    units = {"me": SimpleNamespace(id="me", side="A", acted=1, reservations=[], defence_ids=frozenset(), moves=[]),
             "weak": SimpleNamespace(wounds=1), "weak2": SimpleNamespace(wounds=1),
             "strong": SimpleNamespace(wounds=3)}
    st = SimpleNamespace(by_id=units, units=[])
    opts = (*[_attack(*o) for o in options], Option("end", "end", cost=0, data={"kind": "end"}))
    d = Decision("me", "breath", "", opts)
    fast, plain = both(GreedyPolicy(), st, d, random.Random(0), monkeypatch)
    assert fast == plain == want
