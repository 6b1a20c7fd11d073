"""The search policy: legal choices, clones equal to the state, budgets parsed and named."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ikusa.engine.errors import InputError
from ikusa.engine.runner import load_encounter, policy_for
from ikusa.lab.battle import Player, Variant
from ikusa.lab.crn import CrnSource
from ikusa.lab.policies import PolicySpec
from ikusa.lab.search import SearchPolicy, parse_search, replay_state

EX = Path("examples")


@pytest.mark.parametrize("path", ["maai/duel.yaml", "sengensyou/spellcard_duel.yaml", "fantasy/water_fight.yaml"])
def test_replayed_clone_is_the_state(path: str) -> None:
    loaded = load_encounter(EX / path)
    combat = loaded.new_combat()
    greedy = policy_for(loaded.module, "greedy")
    dice, rng = CrnSource(2), random.Random(2)
    for _ in range(12):
        d = combat.pending()
        if d is None:
            break
        combat.push(greedy.choose(combat.state, d, rng), dice)
    clone = replay_state(combat._new_state, combat.record)
    assert clone.summary() == combat.state.summary()
    assert clone.pending() == combat.pending()


def test_search_plays_whole_battles_legally_in_every_system() -> None:
    for path, side in [("maai/duel.yaml", "味方"), ("fantasy/water_fight.yaml", "party")]:
        player = Player(Variant.read(EX / path, (), PolicySpec.parse([f"{side}=search:4"])))
        m = player.fight(9)
        pol = player.policies[side]
        assert isinstance(pol, SearchPolicy)
        assert pol.decisions > 0 and pol.simulations >= pol.decisions
        assert m.winner in (*player.sides, "draw")
    # deepcopy where the state allows it (fantasy), replay where it does not (maai)
    assert pol.copier == "deepcopy"


def test_search_is_deterministic_given_the_seed() -> None:
    spec = PolicySpec.parse(["味方=search:6"])
    a = Player(Variant.read(EX / "maai/duel.yaml", (), spec)).fight(4)
    b = Player(Variant.read(EX / "maai/duel.yaml", (), spec)).fight(4)
    assert a == b


def test_search_budget_parsing() -> None:
    assert parse_search("search") == 200
    assert parse_search("Search:50") == 50
    assert parse_search("greedy") is None
    for bad in ("search:0", "search:x", "search:-3"):
        with pytest.raises(InputError, match="search budget"):
            parse_search(bad)


def test_policy_spec_per_side() -> None:
    spec = PolicySpec.parse(["random", "敵=search:10"])
    assert spec.names() == {"*": "random", "敵": "search:10"}
    assert spec.label() == "random, 敵=search:10"
