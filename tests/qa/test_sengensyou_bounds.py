"""QA findings on 千幻抄 encounters: hand-written numbers are bounded, never a hang."""

from __future__ import annotations

from pathlib import Path

import pytest

from ikusa.engine.errors import InputError
from ikusa.engine.runner import load_encounter

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sengensyou" / "spellcard_duel.yaml"


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("耐久: 4", "耐久: 1000000", "stats.耐久"),  # used to hang: a million DP options
        ("身体: 3", "身体: -5", "stats.身体"),
    ],
)
def test_stats_out_of_range_are_refused(tmp_path: Path, old: str, new: str, field: str) -> None:
    enc = tmp_path / "e.yaml"
    enc.write_text(EXAMPLE.read_text("utf-8").replace(old, new, 1), "utf-8")
    with pytest.raises(InputError, match=field):
        load_encounter(enc)


def test_skill_level_and_dp_bounds(tmp_path: Path) -> None:
    text = EXAMPLE.read_text("utf-8")
    enc = tmp_path / "e.yaml"
    enc.write_text(text.replace("回避: 4", "回避: 99", 1), "utf-8")
    with pytest.raises(InputError, match="level must be 0..20"):
        load_encounter(enc)
    enc.write_text(text.replace("    name: 博麗霊夢\n", "    name: 博麗霊夢\n    dp_max: 500\n", 1), "utf-8")
    with pytest.raises(InputError, match="dp_max"):
        load_encounter(enc)
