"""qa2: 千幻抄 encounters as a GM writes them (reinforcements, turn cap)."""

from __future__ import annotations

from pathlib import Path

import yaml

from ikusa.engine.runner import fight

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sengensyou" / "party_battle.yaml"


def test_reinforcement_after_turn_cap_does_not_keep_a_wiped_side_alive(tmp_path: Path) -> None:
    """G-R28 + the max_turns cap: a reinforcement due after the last turn never arrives, so a
    side whose characters are all down loses at once (before: the battle idled to the cap and
    ended as a draw, 'winner: None', although one side had nobody left)."""
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    late = dict(data["characters"][0], id="late")
    data["reinforcements"] = [{"turn": 1000, "character": late}]
    path = tmp_path / "late.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    winners = set()
    for seed in range(1, 4):
        final = fight(path, seed=seed).state.summary()
        assert final["winner"] is not None, f"seed {seed}: a side was wiped but the battle was a draw"
        assert final["turn"] < 30
        winners.add(final["winner"])
    assert winners <= {"heroes", "scarlet"}
