"""Where a breath's own attack options are (breath_flow ``attack_spans``, carried by the pending
``BreathWait``; issue #12 target 3): a mass battle's breath works out its label notes and the
greedy AI its choice from these runs instead of passing over every option.  At every breath
decision of seeded battles (mass battles past the reaction-note limit, a mixed one, the examples)
the runs describe the options exactly, and the greedy choice and the annotation plan made with
them equal those made without."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bench.bench_large import build
from bench.bench_maai_duels import load
from ikusa.dice.source import RandomSource
from ikusa.engine.protocol import Decision
from ikusa.systems.maai import option_odds
from ikusa.systems.maai.breath_flow import BreathWait
from ikusa.systems.maai.encounter import MaaiEncounter, encounter_from_dict
from ikusa.systems.maai.policies import GreedyPolicy, RandomPolicy
from ikusa.systems.maai.state import MaaiState
from tests.systems.maai.mass_play import play_checking
from tests.systems.maai.test_count_index import mixed_doc

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "maai"
GREEDY = GreedyPolicy()


def spans_hold(st: MaaiState) -> int:
    """Checks the pending breath (1 when it had runs of attack options, else 0)."""
    w = st.wait
    if not isinstance(w, BreathWait) or w.spans is None:
        return 0
    options = list(w.options)
    inside: set[int] = set()
    last = 0
    for start, stop, within in w.spans:
        assert last <= start < stop <= len(options)  # ascending, not overlapping, not empty
        last = stop
        for o in options[start:stop]:
            assert o.data["kind"] == "attack" and "puppet" not in o.data
            assert within is None or o.data["within"] is within
        inside.update(range(start, stop))
    assert [i for i, o in enumerate(options) if o.data.get("kind") == "attack"] == sorted(inside)
    plain = Decision(w.actor, w.kind, "", w.options)
    rng = random.Random(0)
    assert GREEDY.choose(st, w, rng) == GREEDY.choose(st, plain, rng)
    u = st.by_id[w.actor]
    fresh = st.build_breath_options(u)
    spans, count, room = st.attack_spans, st.attack_count, u.cur_limit - u.breath_spent
    assert spans == w.spans
    assert option_odds.annotation_plan(fresh, room, count, spans) == option_odds.annotation_plan(fresh, room, count)
    return 1


def mixed(units: int) -> MaaiEncounter:
    return encounter_from_dict(mixed_doc(units), "<mixed>")


@pytest.mark.parametrize(("enc", "seeds", "least"), [
    (build(150), (1,), 100),  # 75 enemies: past option_odds.REACTION_NOTE_MAX
    (mixed(40), (1, 2), 100),
    (load(EXAMPLES / "squad_battle.yaml"), (1, 2, 3), 10),
    (load(EXAMPLES / "gaps.yaml"), (1, 2, 3), 5),
], ids=["mass150", "mixed40", "squad", "gaps"])
@pytest.mark.parametrize("policy", [GreedyPolicy(), RandomPolicy()], ids=["greedy", "random"])
def test_spans_describe_the_attack_options(enc: MaaiEncounter, seeds: tuple[int, ...], least: int,
                                           policy: Any) -> None:
    checked, _ = play_checking(enc, policy, seeds, spans_hold)
    assert checked >= least


def test_a_run_past_the_limit_is_skipped_whole() -> None:
    """A greedy breath never picks an attack past the breath limit (S-R29 overload), with runs or without."""
    st = MaaiState(build(150))
    st.apply("first:a0", RandomSource(1))  # the count tie of the first breath (S-G49)
    w = st.wait
    assert isinstance(w, BreathWait) and w.spans
    u = st.by_id[w.actor]
    u.breath_spent = u.cur_limit  # no room left: every attack overloads
    st.wait = None
    st.ask_breath(u)
    w = st.wait
    assert isinstance(w, BreathWait) and w.spans and all(within is False for _, _, within in w.spans)
    key = GREEDY.choose(st, w, random.Random(0))
    assert not key.startswith("use:") and key == GREEDY.choose(st, Decision(w.actor, w.kind, "", w.options),
                                                               random.Random(0))
