"""SengensyouState.clone() (issue #11): a copy at an action decision with no replay, whose
resumed flow plays on exactly as the original: same decisions and dice → the same events and
summary, byte for byte (and the same as a clone made by replaying the combat record)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from ikusa.engine.combat import Combat
from ikusa.engine.protocol import Policy
from ikusa.engine.rulings import parse_ruling
from ikusa.engine.runner import load_encounter
from ikusa.lab.crn import CrnSource
from ikusa.lab.search import replay_state
from ikusa.systems.sengensyou.policies import GreedyPolicy, RandomPolicy

EX = Path(__file__).resolve().parents[3] / "examples" / "sengensyou"
EXAMPLES = sorted(p.name for p in EX.glob("*.yaml"))


def _play_out(state: Any, seed: int, mixed: bool) -> str:
    """Play ``state`` to the end (greedy, or greedy and random mixed) with dice and choices
    seeded by ``seed``; every event and the summary as one JSON text."""
    dice, rng = CrnSource(seed), random.Random(seed)
    pols: list[Policy] = [GreedyPolicy(), RandomPolicy()] if mixed else [GreedyPolicy()]
    lines = []
    while (d := state.pending()) is not None:
        key = rng.choice(pols).choose(state, d, rng)
        lines.extend(json.dumps(e.to_json(), ensure_ascii=False, sort_keys=True) for e in state.apply(key, dice))
    lines.append(json.dumps(state.summary(), ensure_ascii=False, sort_keys=True))
    return "\n".join(lines)


def _advance(combat: Combat, seed: int, steps: int) -> None:
    """``steps`` decisions of mixed greedy/random play, then on to the next action decision."""
    dice, rng = CrnSource(seed + 7), random.Random(seed + 7)
    pols: list[Policy] = [GreedyPolicy(), RandomPolicy()]
    n = 0
    while (d := combat.pending()) is not None and (n < steps or not combat.state.can_clone()):
        combat.push(rng.choice(pols).choose(combat.state, d, rng), dice)
        n += 1


@pytest.mark.parametrize("name", EXAMPLES)
def test_clone_plays_on_as_the_original(name: str) -> None:
    loaded = load_encounter(EX / name)
    checked = 0
    for seed in range(6):
        combat = loaded.new_combat()
        _advance(combat, seed, random.Random(seed).randrange(40))
        state: Any = combat.state
        if state.pending() is None:
            continue
        assert state.pending().kind == "action" and state.can_clone()
        twin = state.clone()
        assert twin is not state and twin.summary() == state.summary() and twin.pending() == state.pending()
        replayed = replay_state(combat._new_state, list(combat.record))
        mixed = seed % 2 == 1
        # the clone first: whatever it changes must not reach the original
        got = _play_out(twin, 100 + seed, mixed)
        assert got == _play_out(state, 100 + seed, mixed) == _play_out(replayed, 100 + seed, mixed)
        checked += 1
    assert checked >= 4


def _ruled_combat() -> Combat:
    combat = load_encounter(EX / "party_battle.yaml").new_combat()
    _advance(combat, 3, 5)
    state: Any = combat.state
    actor = state.pending().actor
    foe = next(f.id for f in state.fighters.values() if f.side != state.f(actor).side and f.active)
    ruled: list[dict[str, Any]] = [
        {"op": "effect", "unit": actor, "effect": {"name": "祝福", "modifiers": {"命中": 2},
                                                  "duration": {"clock": "turn", "n": 2}}},
        {"op": "modifier", "unit": foe, "value": -3, "reason": "足場"},
        {"op": "skip_turn", "unit": foe, "reason": "眩惑"},
        {"op": "condition", "unit": foe, "name": "DP回復停止", "reason": "封印"},
    ]
    for r in ruled:
        combat.rule(parse_ruling(r), CrnSource(0))
    return combat


def test_clone_keeps_effects_skips_and_one_off_modifiers_apart() -> None:
    """GM rulings (issue #8) held in the state's data: cloned, and independent after the copy."""
    state: Any = _ruled_combat().state
    assert state.pending() is not None and state.can_clone()
    twin = state.clone()
    assert twin.fx.book.active and twin.fx.book.active[0] is not state.fx.book.active[0]
    assert twin.fx.skip == state.fx.skip and twin.fx.skip is not state.fx.skip
    got = _play_out(twin, 41, True)
    assert got == _play_out(state, 41, True) == _play_out(_ruled_combat().state, 41, True)
    assert "祝福" in got and "GM裁定で飛ばされた" in got


def test_clone_is_refused_away_from_an_action_decision() -> None:
    combat = load_encounter(EX / "spellcard_duel.yaml").new_combat()
    dice, rng = CrnSource(1), random.Random(1)
    while (d := combat.pending()) is not None and d.kind == "action":
        combat.push(GreedyPolicy().choose(combat.state, d, rng), dice)
    state: Any = combat.state
    assert state.pending() is not None and not state.can_clone()
    with pytest.raises(ValueError, match="action decision"):
        state.clone()
