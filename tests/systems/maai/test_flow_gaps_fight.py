"""examples/maai/gaps.yaml under ``ikusa fight`` and the AI policies: the issue #3 rules
(S-G61 護衛態勢, S-G24 式神操縦, S-G49 count ties, S-G20 鉄砲, S-R36 environment events) run in
whole battles, same seed → same result, and random play reaches each of them."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ikusa.cli.main import app
from ikusa.engine.runner import fight

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "maai" / "gaps.yaml"


def test_gaps_example_same_seed_same_json() -> None:
    runner = CliRunner()
    args = ["fight", str(EXAMPLE), "--seed", "5", "--json", "--ai", "random"]
    a = runner.invoke(app, args)
    assert a.exit_code == 0, a.output
    assert a.output == runner.invoke(app, args).output
    assert json.loads(a.output)["final"]["winner"] in ("味方", "敵", None)


def test_random_and_greedy_reach_the_new_rules() -> None:
    """Over a few seeds random play uses every new decision; greedy operates the 式神 and the
    count tie is always asked (源三郎 and 晴明: both PCs, 技1, 活力11)."""
    seen: set[str] = set()
    for seed in range(8):
        c = fight(EXAMPLE, seed=seed, ai="random")
        seen.update(e.kind for e in c.events)
    assert {"operate", "count_tie", "environment", "maintenance"} <= seen
    # the 護衛態勢 counter: random play often releases the stance first (it is no longer offered
    # to re-declare the stance already held, S-R58), so it is rarer there; greedy keeps it
    guarded = {e.kind for seed in range(8) for e in fight(EXAMPLE, seed=seed, ai="greedy").events}
    assert "guard_counter" in guarded
    g = fight(EXAMPLE, seed=1, ai="greedy")
    kinds = {e.kind for e in g.events}
    assert {"operate", "count_tie"} <= kinds


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_property_caps_and_gun_in_random_battles(seed: int) -> None:
    """Invariants under random play (S-R59, S-G20, S-G24): every 0-活力 use (護衛態勢 counter,
    式神操縦) stays within the cap of 2 per 間合; the 式神 never has 活力; the 鉄砲 fires at most
    once between reloads (the encounter starts loaded)."""
    c = fight(EXAMPLE, seed=seed, ai="random")
    loaded = True
    for e in c.events:
        if e.kind in ("operate", "guard_counter"):
            assert e.data["zero_used"] <= 2
        if e.kind == "attack" and e.data["attacker"] == "teppou":
            assert loaded
            loaded = False
        if e.kind == "maintenance" and e.data["unit"] == "teppou":
            loaded = True
        if e.kind == "maai":
            assert "式神0" in e.text or "式神" not in e.text
