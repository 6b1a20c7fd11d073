"""The option list built directly (option_list.py, issue #12) is the candidate list of
legal.py minus the forbidden candidates, option for option (key, label, cost, odds, data, in
order), at every decision of:

* generated battles (random fields, environments, senses, conditions, surprise) with varied
  ruleset options (lines of fire screened, 呼吸を整える on, waking off, more actions, cheap
  attacks), counted ammunition, shooters from above and swimmers out of depth in armour;
* the same with GM rulings now and then (effects with modifiers or a condition, one-off
  modifiers, conditions), so the GM-effect branches are compared too;
* seeded battles of every example encounter, both AIs, where the encounter's kept lists
  (option_cache.py) answer many decisions.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ikusa.dice.source import RandomSource
from ikusa.engine.rulings import parse_ruling
from ikusa.engine.runner import load_encounter
from ikusa.systems.fantasy.legal import candidates, options_for
from ikusa.systems.fantasy.option_cache import list_key
from ikusa.systems.fantasy.policies import GreedyPolicy, RandomPolicy
from ikusa.systems.fantasy.state import FantasyState
from tests.systems.fantasy.test_properties import random_battle

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = sorted((ROOT / "examples" / "fantasy").glob("*.yaml"))
VARIANTS: list[dict[str, Any]] = [
    {}, {"line_of_fire": "screened"}, {"breathe_fatigue_dice": 1}, {"sleep_wake_by_ally": False},
    {"actions_per_turn": 3, "cost_attack": 1, "cost_cast": 1}, {"line_of_fire": "screened", "cost_line_of_fire": 0},
]
RULINGS: list[dict[str, Any]] = [
    {"op": "effect", "effect": {"name": "祝福", "modifiers": {"命中": 1, "回避": -1},
                                "duration": {"clock": "round", "n": 2}}},
    {"op": "effect", "effect": {"name": "金縛り", "condition": "麻痺", "duration": {"clock": "round", "n": 1}}},
    {"op": "modifier", "value": -2, "reason": "足場"},
    {"op": "condition", "name": "伏せ"},
]


def varied_battle(seed: int) -> FantasyState:
    """A generated battle with varied options, ammunition, heights and armour."""
    enc = random_battle(seed).enc
    rng = random.Random(seed * 7 + 1)
    opts = enc.options.model_copy(update=VARIANTS[seed % len(VARIANTS)])
    chars = tuple(c.model_copy(update={
        "elevated": rng.random() < 0.3, "out_of_depth": rng.random() < 0.3,
        "armor": rng.choice(["light", "medium"]),
        "weapons": tuple(w.model_copy(update={"ammo": rng.randint(0, 2)}) if w.kind != "melee" else w
                         for w in c.weapons)}) for c in enc.characters)
    return FantasyState(enc.model_copy(update={"options": opts, "characters": chars}))


def _decisions(st: FantasyState, seed: int, rulings: bool, limit: int = 150) -> Iterator[FantasyState]:
    """Every state of one played battle before its decision is answered."""
    rng = random.Random(seed)
    dice = RandomSource(seed)
    pol = GreedyPolicy() if seed % 2 else RandomPolicy()
    n = 0
    while (d := st.pending()) is not None and n < limit:
        yield st
        if rulings and st.started and not st.placing and rng.random() < 0.15:
            live = [f.id for f in st.fighters.values() if not f.out]
            st.apply_ruling(parse_ruling({**rng.choice(RULINGS), "unit": rng.choice(live)}), dice)
            if st.pending() is None:
                return
            continue
        st.apply(pol.choose(st, d, rng), dice)
        n += 1


def _compare(st: FantasyState) -> int:
    """1 for a decision compared (2 when its list came from the encounter's kept lists, 3 when
    it was worked out with the formation's reach kept from an earlier decision), else 0."""
    if st.current is None or st.placing or st.over:
        return 0
    f = st.fighters[st.current]
    with st.reading():
        want = [(c.key, c.label, c.cost, c.odds, c.data) for c in candidates(st, f) if c.why_not is None]
    assert [(o.key, o.label, o.cost, o.odds, o.data) for o in options_for(st, f)] == want
    key = list_key(st, f)
    kept = key is not None and st._option_book.get(key) is not None
    reach = key is not None and not kept and st.formation.kept_reach is not None and st.formation.world == key[0]
    d = st.pending()
    assert d is not None and [(o.key, o.label, o.cost, o.odds, o.data) for o in d.options] == want
    return 3 if reach else 1 + kept


def test_the_direct_list_is_the_legal_candidates_in_varied_generated_battles() -> None:
    steps = sum(bool(_compare(st)) for seed in range(24) for st in _decisions(varied_battle(seed), seed, False))
    assert steps > 400


def test_lists_worked_out_with_a_kept_formation_reach_are_the_legal_candidates() -> None:
    """Lists no kept list answers (the book keeps none here), worked out with the reach the
    formation kept from the last decision in the same places and conditions."""
    counts = []
    for seed in range(12):
        st = varied_battle(seed)
        st._option_book.keeping = False
        counts.extend(_compare(s) for s in _decisions(st, seed, False))
    assert counts.count(3) > 50


def test_the_direct_list_is_the_legal_candidates_with_gm_rulings() -> None:
    seen_fx = 0
    steps = 0
    for seed in range(16):
        for st in _decisions(varied_battle(seed), seed, True):
            seen_fx += bool(st.fx.book.active or st.fx.next_mod)
            steps += bool(_compare(st))
    assert steps > 300 and seen_fx > 50


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_direct_list_is_the_legal_candidates_in_the_examples(path: Path) -> None:
    loaded = load_encounter(path)
    counts = []
    for seed in range(4):
        st = loaded.module.new_state(loaded.encounter)
        assert isinstance(st, FantasyState)
        counts.extend(_compare(s) for s in _decisions(st, seed, False))
    assert len([c for c in counts if c]) > 40 and counts.count(2) > 10  # kept lists were reused
