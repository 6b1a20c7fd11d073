"""`ikusa rules maai unimplemented` (#13): every [MISSING]/[UNDEFINED] gap of 000/001 with the
default the engine ships — the options citing it at their values, or the data holding it."""

from __future__ import annotations

from ikusa.systems.maai.options import MaaiOptions
from ikusa.systems.maai.rules_text import describe


def test_every_missing_or_undefined_gap_is_listed_with_its_default() -> None:
    lines = describe("unimplemented")
    text = "\n".join(lines)
    for gid in ("S-G01", "S-G05", "S-G07", "S-G18", "S-G19", "S-G26"):
        assert f"  {gid} " in text
    assert "S-G27" not in text.split("Not played in a combat:")[0]  # [AMBIGUOUS]: not a gap of that kind
    assert "    fear.tn = 11" in lines and "    status.poison_defense = 1" in lines
    assert any("data/tables/d100.yaml" in line for line in lines)
    assert describe("未実装") == lines


def test_the_listed_defaults_are_the_options_in_force() -> None:
    o = MaaiOptions().model_copy(update={"fear": MaaiOptions().fear.model_copy(update={"tn": 13})})
    assert "    fear.tn = 13" in describe("unimplemented", options=o)
