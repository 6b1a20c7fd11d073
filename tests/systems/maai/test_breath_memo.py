"""A duel's breath decision served from the encounter's cached lists (maai/breath_memo.py, issue
#12 target 1): the greedy choice kept on a cached list (by the units' 戦力 and the policy's
threshold) is the choice worked out anew, and the options the decision lists (with their noted
labels) are those of a fresh build — at every breath of seeded battles, whichever policy drives
them, also through GM rulings; and the kept choices stay bounded."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bench.bench_large import build
from bench.bench_maai_duels import load
from ikusa.dice.source import RandomSource
from ikusa.engine.protocol import Decision
from ikusa.systems.maai import breath_memo, option_odds
from ikusa.systems.maai.breath_memo import BreathWait
from ikusa.systems.maai.encounter import MaaiEncounter
from ikusa.systems.maai.policies import GreedyPolicy, RandomPolicy
from ikusa.systems.maai.state import MaaiState
from tests.systems.maai.mass_play import play_checking, rule_or_act
from tests.systems.ruling_driver import Session

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "maai"


class Cautious(GreedyPolicy):
    min_odds = 0.6  # another threshold on the same cached lists: its own choices


def shown(options: Any) -> list[tuple[object, ...]]:
    return [(o.key, o.label, o.cost, o.odds, o.data) for o in options]


def memo_holds(st: MaaiState) -> int:
    w = st.wait
    if not isinstance(w, BreathWait) or w.memo is None:
        return 0
    plain = Decision(w.actor, w.kind, "", w.options)
    rng = random.Random(0)
    for policy in (GreedyPolicy(), Cautious()):
        assert policy.choose(st, w, rng) == policy.choose(st, plain, rng)
    assert list(w.memo) == st.build_breath_options(st.by_id[w.actor])
    u = st.by_id[w.actor]
    fresh = option_odds.annotate(st, u, st.build_breath_options(u))
    assert shown(w.options) == shown(fresh)  # reads the labels: the notes as of now
    return 1


@pytest.mark.parametrize(("enc", "least"), [(load(EXAMPLES / "duel.yaml"), 60), (build(6), 20)],
                         ids=["duel", "3v3"])
@pytest.mark.parametrize("policy", [GreedyPolicy(), RandomPolicy()], ids=["greedy", "random"])
def test_kept_choices_and_options_equal_fresh_ones(enc: MaaiEncounter, least: int, policy: Any) -> None:
    served, _ = play_checking(enc, policy, range(1, 9), memo_holds)
    assert served >= least
    caches = enc.flow_caches(lambda e: None)
    assert any(lst.choices for lst in caches.breath_cache.values())


def test_kept_choices_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(breath_memo, "CHOICES_MAX", 2)
    monkeypatch.setattr("ikusa.systems.maai.policies.CHOICES_MAX", 2)
    enc: MaaiEncounter = load(EXAMPLES / "duel.yaml")
    play_checking(enc, GreedyPolicy(), range(1, 30), lambda st: 0)
    caches = enc.flow_caches(lambda e: None)
    assert max(len(lst.choices) for lst in caches.breath_cache.values()) <= 2


def test_a_ruled_wound_is_seen_by_the_kept_choice() -> None:
    """The kept choice is keyed on the units' 戦力: the same cached list with another 戦力 is
    decided anew (the greedy AI attacks the weakest target, S-R60)."""
    enc = load(EXAMPLES / "duel.yaml")
    seen: dict[int, set[tuple[object, ...]]] = {}

    def check(st: MaaiState) -> int:
        w = st.wait
        if isinstance(w, BreathWait) and w.memo is not None:
            seen.setdefault(id(w.memo), set()).add(tuple(t.wounds for t in st.units))
        return 0

    for seed in range(1, 20):
        st = MaaiState(enc)
        rng, dice = random.Random(seed), RandomSource(seed)
        while (d := st.pending()) is not None:
            check(st)
            st.apply(GreedyPolicy().choose(st, d, rng), dice)
    # one cached list met with several 戦力 vectors: each has its own kept choice
    assert any(len(v) > 1 for v in seen.values())
    caches = enc.flow_caches(lambda e: None)
    assert any(len(lst.choices) > 1 for lst in caches.breath_cache.values())


def _mostly_greedy(s: Session, d: Decision, rng: random.Random) -> str:
    return GreedyPolicy().choose(s.state, d, rng) if rng.random() < 0.7 else rng.choice(d.options).key


def test_kept_choices_and_options_hold_through_gm_rulings() -> None:
    """Random GM rulings (値の設定: 戦力 and 活力, conditions, effects) between the decisions of
    seeded duels: every breath served from a cached list still agrees with a fresh one."""
    served = 0
    ops: set[str] = set()
    for seed in range(6):
        rng = random.Random(seed)
        s = Session(str(EXAMPLES / "duel.yaml"))
        dice = RandomSource(seed + 1)
        for _ in range(150):
            if s.state.pending() is None:
                break
            if op := rule_or_act(s, rng, dice, 0.2, act=_mostly_greedy):
                ops.add(op)
            served += memo_holds(s.state)
    assert served >= 30
    assert {"set", "condition"} <= ops
