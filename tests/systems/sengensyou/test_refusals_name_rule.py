"""#13: every 千幻抄 refusal of an action names its rule (never the bare ``ENGINE`` fallback).

Random battles of both examples; at each decision a sample of keys seen earlier in the battle
(legal then, not now), keys of every decision kind and malformed keys are pushed.  Each must be
refused with an ANALYSIS id and leave the record unchanged."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from ikusa.dice.source import RandomSource, ScriptedSource
from ikusa.engine.errors import RuleViolation
from ikusa.engine.runner import load_encounter

EX = Path(__file__).resolve().parents[3] / "examples" / "sengensyou"
PROBES = ["wait", "end", "escape", "evade:1", "guard:1", "none", "focus:yes", "row:back", "declare:99",
          "continue", "end_scene", "graze:x", "melee:a:1", "cover:x", "zzz", "hit:-1", "move:roll:x",
          "accept", "tekagen:faint", "barrage:pay", "escape_dp:3", "pursue_dp:50", "resist:9", "decline"]
RULE_ID = re.compile(r"^G-[RGHT]\d\d$")


def test_the_brief_example_names_initiative_rule() -> None:
    """The issue's own example: 'wait' while reimu declares initiative."""
    c = load_encounter(EX / "spellcard_duel.yaml").new_combat()
    with pytest.raises(RuleViolation) as err:
        c.push("wait", RandomSource(1))
    assert err.value.rule == "G-G04"
    assert "initiative" in str(err.value) and "declare:" in str(err.value)
    assert c.record == []


@pytest.mark.parametrize("example", ["spellcard_duel.yaml", "party_battle.yaml"])
def test_no_refusal_in_random_battles_cites_engine(example: str) -> None:
    loaded = load_encounter(EX / example)
    refused = 0
    for seed in range(12):
        rng = random.Random(seed)
        c = loaded.new_combat()
        seen = set(PROBES)
        steps = 0
        while not c.over and steps < 300:
            d = c.pending()
            assert d is not None
            steps += 1
            seen.update(d.keys()[:30])
            for k in rng.sample(sorted(seen), 5):
                if d.option(k) is not None:
                    continue
                before = len(c.record)
                with pytest.raises(RuleViolation) as err:
                    c.push(k, ScriptedSource([]))
                refused += 1
                assert RULE_ID.match(err.value.rule), f"{d.kind}/{k}: {err.value}"
                assert len(c.record) == before
            c.push(rng.choice(d.keys()), RandomSource(rng.randrange(10**9)))
    assert refused > 500
