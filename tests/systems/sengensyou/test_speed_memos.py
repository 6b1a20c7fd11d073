"""The speed work of issue #12 changes nothing a player sees (千幻抄): with the encounter's
memos (option lists kept by every number they are made from, ``Encounter.memo``; the lists
of shots, melee attacks and defences that grow with the DP, ``attack_options.py`` and
``defence._checks``; attack variants, ``bullets.state_variants``) every decision of seeded
battles equals, option for option (key, label, cost, odds, data), the decision the engine
makes when no memo keeps anything (each list built afresh where it is asked)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from ikusa.dice.source import RandomSource
from ikusa.engine.runner import load_encounter, policy_for
from ikusa.systems.sengensyou.encounter import BattleSetup

ROOT = Path(__file__).resolve().parents[3]
ENCOUNTERS = {"party_battle": ROOT / "examples" / "sengensyou" / "party_battle.yaml",
              "spellcard_duel": ROOT / "examples" / "sengensyou" / "spellcard_duel.yaml",
              "witness": ROOT / "tests" / "systems" / "data" / "sengensyou_witness.yaml"}


class Forgetful(dict[Any, Any]):
    """A memo that keeps nothing: every list is built where it is asked."""

    stores = 0

    def __setitem__(self, key: Any, value: Any) -> None:
        Forgetful.stores += 1


def _battles(name: str, ai: str, seeds: tuple[int, ...]) -> list[Any]:
    """Every decision of seeded battles, one encounter for all (its memos shared by them)."""
    loaded = load_encounter(ENCOUNTERS[name])
    seen: list[Any] = []
    for seed in seeds:
        policy = policy_for(loaded.module, ai)
        state = loaded.module.new_state(loaded.encounter)
        rng, dice = random.Random(seed), RandomSource(seed)
        n = 0
        while (d := state.pending()) is not None and n < 600:
            seen.append((d.actor, d.kind, d.prompt, [(o.key, o.label, o.cost, o.odds, o.data) for o in d.options]))
            state.apply(policy.choose(state, d, rng), dice)
            n += 1
        seen.append(state.summary())
    return seen


@pytest.mark.parametrize(("name", "ai"), [("party_battle", "random"), ("spellcard_duel", "greedy"),
                                          ("spellcard_duel", "random"), ("witness", "random")])
def test_memoised_options_equal_freshly_built_ones(name: str, ai: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seeds = (3, 4, 5)
    with_memo = _battles(name, ai, seeds)
    monkeypatch.setattr(BattleSetup, "memo", lambda self, memo_name: Forgetful())
    Forgetful.stores = 0
    without = _battles(name, ai, seeds)
    assert Forgetful.stores > 100  # the kept lists are really on the path
    assert with_memo == without


def test_a_kept_list_grows_and_is_shared_by_the_next_battle() -> None:
    """Shots kept at a small DP are made longer for a larger DP: the longer copy replaces the
    kept one (a list handed out never changes), and a later battle of the encounter reuses it."""
    loaded = load_encounter(ENCOUNTERS["spellcard_duel"])
    grown = loaded.encounter.memo("growing")
    _ = _battles_on(loaded, (1,))
    shots = {k: v[-1] for k, v in grown.items() if k[0] == "shot"}
    assert shots and all(len({len(col) for col in cols}) == 1 for cols in shots.values())
    lengths = {k: len(cols[0]) for k, cols in shots.items()}
    _ = _battles_on(loaded, (2, 3, 4))
    after = {k: v[-1] for k, v in grown.items() if k[0] == "shot"}
    assert all(len(after[k][0]) >= n for k, n in lengths.items())  # never shorter
    assert any(after[k] is shots[k] for k in lengths)  # reused as it was
    for cols in after.values():  # every column: 1, 2, … DP in order, one variant each
        for col in cols:
            assert [o.cost for o in col] == list(range(1, len(col) + 1))
            assert len({o.data["src"] for o in col}) == 1


def _battles_on(loaded: Any, seeds: tuple[int, ...]) -> int:
    n = 0
    for seed in seeds:
        policy = policy_for(loaded.module, "random")
        state = loaded.module.new_state(loaded.encounter)
        rng, dice = random.Random(seed), RandomSource(seed)
        while (d := state.pending()) is not None and n < 2000:
            state.apply(policy.choose(state, d, rng), dice)
            n += 1
    return n
