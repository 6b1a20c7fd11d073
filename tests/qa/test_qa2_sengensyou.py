"""qa2: 千幻抄 encounters as a GM writes them (reinforcements, turn cap)."""

from __future__ import annotations

from pathlib import Path

import pytest
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


def _with(tmp_path: Path, **changes: object) -> Path:
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    data.update(changes)
    path = tmp_path / "enc.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def test_leader_typo_is_refused_even_with_simplified_off(tmp_path: Path) -> None:
    """G-R30: 'leader: nobody' was silently ignored unless options.simplified was on."""
    from ikusa.engine.errors import InputError
    from ikusa.engine.runner import load_encounter

    with pytest.raises(InputError, match="leader 'nobody' is not a character") as err:
        load_encounter(_with(tmp_path, leader="nobody"))
    assert err.value.field == "leader"


def test_leader_arriving_as_reinforcement_is_named(tmp_path: Path) -> None:
    """G-R30 + G-R28: a reinforcement cannot lead the simplified order from turn 1; the
    message says so instead of 'needs the id of an NPC'."""
    from ikusa.engine.errors import InputError
    from ikusa.engine.runner import load_encounter

    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    boss = dict(data["characters"][3], id="boss")
    path = _with(tmp_path, leader="boss", options={"simplified": True},
                 reinforcements=[{"turn": 2, "character": boss}])
    with pytest.raises(InputError, match="arrives as a reinforcement on turn 2"):
        load_encounter(path)
    ok = _with(tmp_path, leader="meiling", options={"simplified": True})
    assert fight(ok, seed=1).state.summary()["winner"] in {"heroes", "scarlet", None}


@pytest.mark.parametrize(("key", "value"), [("hp_base", -100), ("hp_base", 0), ("hp_factor", -1),
                                            ("reiryoku_factor", -4)])
def test_hp_and_reiryoku_formula_numbers_cannot_go_below_zero(tmp_path: Path, key: str, value: int) -> None:
    """G-G23: 'options: {hp_base: -100}' gave every character negative HP and they fought on
    (a character's own 'hp' override is already ≥ 1); now refused naming options.<key>."""
    from ikusa.engine.errors import InputError
    from ikusa.engine.runner import load_encounter

    with pytest.raises(InputError, match="greater than or equal") as err:
        load_encounter(_with(tmp_path, options={key: value}))
    assert err.value.field == f"options.{key}"


def test_rules_topic_for_reinforcements_and_its_rule_id() -> None:
    """G-R28 is applied by the engine (reinforcements) but 'ikusa rules sengensyou G-R28' was an
    unknown topic; the new 'reinforcements' topic shows the entry DP factor and the turn cap."""
    from ikusa.systems.sengensyou.gm import REINFORCEMENT_DP_FACTOR
    from ikusa.systems.sengensyou.rules_text import describe, topics

    assert "reinforcements" in topics()
    by_id = describe("G-R28")
    assert by_id[0].startswith("増援 (G-R28")
    assert f"DP回復数 × {REINFORCEMENT_DP_FACTOR}" in "\n".join(by_id)
    assert describe("増援") == describe("reinforcements")
