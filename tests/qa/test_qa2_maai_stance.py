"""qa2: a maai unit that starts in a stance it also lists under ``stances:`` (gaps.yaml's
護衛態勢 侍) was offered to declare that same stance again for 1 活力 (S-R58/S-G16: one
[構え] at a time; declaring the held one changes nothing)."""

from __future__ import annotations

from pathlib import Path

from ikusa.dice.source import RandomSource
from ikusa.engine.runner import load_encounter

GAPS = Path(__file__).resolve().parents[2] / "examples" / "maai" / "gaps.yaml"


def test_the_stance_held_at_start_is_not_offered_again() -> None:
    """S-R58: 源三郎 starts in 護衛態勢; his first breath offers releasing it, not declaring it."""
    combat = load_encounter(GAPS).new_combat()
    dice = RandomSource(1)
    decision = combat.pending()
    assert decision is not None and decision.kind == "count_tie"
    combat.push("first:samurai", dice)
    decision = combat.pending()
    assert decision is not None and (decision.actor, decision.kind) == ("samurai", "breath")
    keys = decision.keys()
    assert "release" in keys
    assert "stance:goei_taisei" not in keys
    # after releasing it, declaring it again is a real choice (1 活力)
    combat.push("release", dice)
    decision = combat.pending()
    assert decision is not None and "stance:goei_taisei" in decision.keys()
