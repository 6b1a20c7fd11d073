"""The speed work of issue #12 changes nothing a player sees (千幻抄): with the per-battle
memos (shared option lists, ``SengensyouState.options``; attack variants,
``bullets.state_variants``) every decision of seeded battles equals, option for option (key,
label, cost, odds, data), the decision the engine makes with both memos switched off."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from ikusa.dice.source import RandomSource
from ikusa.engine.runner import load_encounter, policy_for
from ikusa.systems.sengensyou import bullets
from ikusa.systems.sengensyou.state import SengensyouState

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "sengensyou"


def _battle(name: str, ai: str, seed: int) -> list[Any]:
    loaded = load_encounter(EXAMPLES / f"{name}.yaml")
    policy = policy_for(loaded.module, ai)
    state = loaded.module.new_state(loaded.encounter)
    rng, dice = random.Random(seed), RandomSource(seed)
    seen: list[Any] = []
    while (d := state.pending()) is not None and len(seen) < 600:
        seen.append((d.actor, d.kind, d.prompt, [(o.key, o.label, o.cost, o.odds, o.data) for o in d.options]))
        state.apply(policy.choose(state, d, rng), dice)
    seen.append(state.summary())
    return seen


@pytest.mark.parametrize(("name", "ai"), [("party_battle", "random"), ("spellcard_duel", "greedy")])
def test_memoised_options_equal_freshly_built_ones(name: str, ai: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with_memo = [_battle(name, ai, seed) for seed in (3, 4)]
    shared = 0

    def fresh_options(self: SengensyouState, key: tuple[Any, ...], build: Any) -> tuple[Any, ...]:
        nonlocal shared
        shared += 1
        return tuple(build())

    def fresh_variants(st: Any, f: Any, kind: Any) -> list[bullets.Variant]:
        return bullets.variants(f, kind, need_skill=st.opt.require_attack_skill)

    monkeypatch.setattr(SengensyouState, "options", fresh_options)
    monkeypatch.setattr(bullets, "state_variants", fresh_variants)
    for mod in ("actions", "attacks"):
        monkeypatch.setattr(f"ikusa.systems.sengensyou.{mod}.state_variants", fresh_variants)
    without = [_battle(name, ai, seed) for seed in (3, 4)]
    assert shared > 20  # the memoised lists are really on the path
    assert with_memo == without
