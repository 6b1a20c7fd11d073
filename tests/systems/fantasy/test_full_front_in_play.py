"""#13 / F-R08: a character moving into a front row that is already full during play (not
only at load) is refused naming F-R08, and nothing changes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ikusa.dice.source import RandomSource, ScriptedSource
from ikusa.engine.errors import RuleViolation
from ikusa.engine.runner import load_encounter

EX = Path(__file__).resolve().parents[3] / "examples" / "fantasy" / "corridor_ambush.yaml"


def test_advancing_into_a_full_corridor_front_is_refused_with_f_r08() -> None:
    loaded = load_encounter(EX)
    hits = 0
    for seed in range(30):
        rng = random.Random(seed)
        c = loaded.new_combat()
        for _ in range(200):
            d = c.pending()
            if d is None:
                break
            st = c.state
            f = st.fighters.get(d.actor) if hasattr(st, "fighters") else None
            if f is not None and f.row == "back" and "advance:fore" not in d.keys() and d.kind == "action":
                front = [g for g in st.fighters.values() if g.unit == f.unit and g.row == "front" and g.front == "fore"]
                if len(front) >= 2:  # the corridor's cap (4 m / 1.5 m → 2, F-T04)
                    before = len(c.record)
                    with pytest.raises(RuleViolation) as err:
                        c.push("advance:fore", ScriptedSource([]))
                    assert err.value.rule == "F-R08", str(err.value)
                    assert len(c.record) == before
                    hits += 1
            c.push(rng.choice(d.keys()), RandomSource(rng.randrange(10**9)))
        if hits >= 3:
            break
    assert hits >= 1, "no battle reached a full front with a back-row character to move"
