"""maai encounter files: the examples load; bad files give an InputError naming the file,
the field and the problem."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ikusa.engine.errors import InputError
from ikusa.engine.runner import load_encounter
from ikusa.systems.maai.encounter import MaaiEncounter, encounter_from_dict

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "maai"


def _unit(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"id": "a", "name": "甲", "side": "A", "grade": "PC",
                            "abilities": {"勇": 1, "技": 1, "體": 1, "智": 0, "美": 0, "運": 0}, "weapons": ["katana"]}
    base.update(kw)
    return base


def _enc(*units: dict[str, Any], **extra: Any) -> dict[str, Any]:
    if len(units) < 2:
        units = (*units, _unit(id="b", side="B"))
    return {"units": list(units), **extra}


@pytest.mark.parametrize("name", ["count_example.yaml", "duel.yaml", "squad_battle.yaml"])
def test_examples_load(name: str) -> None:
    loaded = load_encounter(EXAMPLES / name)
    assert isinstance(loaded.encounter, MaaiEncounter)
    assert len(loaded.encounter.sides) == 2


def test_catalog_weapons_give_their_maneuvers_and_armour_its_numbers() -> None:
    enc = encounter_from_dict(_enc(_unit(armour=["重甲"], stances=["不動の陣"], skills={"剣術": "免許"})), "<t>")
    r = enc.resolved("a")
    ids = [m.id for m in r.moves]
    assert {"katana.yokogiri", "katana.ukenagashi", "katana.issen", "fudou_no_jin"} <= set(ids)
    assert [(a.state.name, a.state.bonus, a.weight) for a in r.armour] == [("重甲", 4, "重甲")]


def test_s_r23_license_techniques_need_the_license() -> None:
    """S-R23: 一閃 (剣術免許) comes with the katana only at 免許; listing it without is an error."""
    enc = encounter_from_dict(_enc(_unit(skills={"剣術": "習得"})), "<t>")
    assert "katana.issen" not in [m.id for m in enc.resolved("a").moves]
    with pytest.raises(InputError) as err:
        encounter_from_dict(_enc(_unit(weapons=[], maneuvers=["katana.issen"], skills={"剣術": 1})), "e.yaml")
    assert err.value.field == "units.0.maneuvers.0" and "剣術免許" in err.value.message


def test_ascii_and_japanese_ability_keys() -> None:
    u = _unit(abilities={"yu": 1, "gi": 2, "tai": 0, "chi": 0, "bi": 0, "un": 0}, 先攻=2)
    enc = encounter_from_dict(_enc(u), "<t>")
    assert enc.units[0].abilities["gi"] == 2 and enc.units[0].initiative == 2


def test_unknown_maneuver_names_file_field_and_problem() -> None:
    with pytest.raises(InputError) as err:
        encounter_from_dict(_enc(_unit(maneuvers=["katana.yokogiri", "katana.nonexistent"])), "enc.yaml")
    e = err.value
    assert e.source == "enc.yaml" and e.field == "units.0.maneuvers.1"
    assert "katana.nonexistent" in e.message


def test_missing_ability() -> None:
    with pytest.raises(InputError) as err:
        encounter_from_dict(_enc(_unit(abilities={"勇": 1, "技": 1})), "enc.yaml")
    assert err.value.field == "units.0.abilities" and "missing ability" in err.value.message
    assert "tai" in err.value.message


def test_unknown_grade_weapon_side_zone_tier_option() -> None:
    cases = [
        (_enc(_unit(grade="足軽")), "units.0.grade"),
        (_enc(_unit(weapons=["lightsaber"])), "units.0.weapons.0"),
        (_enc(_unit(side="C"), sides=["A", "B"]), "units.0.side"),
        (_enc(_unit(zone="moon")), "units.0.zone"),
        (_enc(_unit(skills={"剣術": "達人"})), "units.0.skills.剣術"),
        (_enc(_unit(), options={"fate": {"lethal_exception": "maybe"}}), "options.fate.lethal_exception"),
        (_enc(_unit(), options={"nonsense": {"a": 1}}), "options.nonsense"),
        (_enc(_unit(abilities={"勇": 50, "技": 0, "體": 0, "智": 0, "美": 0, "運": 0})), "units.0.abilities"),
        (_enc(_unit(defence=-5)), "units.0.defence"),
        (_enc(_unit(skills={"宇宙術": "免許"})), "units.0.skills.宇宙術"),
        (_enc(_unit(fate=10**12)), "units.0.fate"),
        (_enc(_unit(), surprise=True), "surprise"),
    ]
    for data, field in cases:
        with pytest.raises(InputError) as err:
            encounter_from_dict(data, "enc.yaml")
        assert err.value.source == "enc.yaml" and err.value.field == field, (field, err.value)


def test_malformed_yaml_names_the_file(tmp_path: Path) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text("system: maai\nunits: [\n  - {id: a\n", "utf-8")
    with pytest.raises(InputError) as err:
        load_encounter(p)
    assert err.value.source == str(p) and "malformed YAML" in err.value.message


def test_bad_homebrew_names_its_field() -> None:
    data = _enc(_unit(), homebrew={"maneuvers": [{"id": "x.y", "name": "謎", "kind": "dance", "cost": 1}]})
    with pytest.raises(InputError) as err:
        encounter_from_dict(data, "enc.yaml")
    assert err.value.source == "enc.yaml#homebrew" and err.value.field.startswith("maneuvers.0.kind")


def test_options_override_a_gap_default() -> None:
    enc = encounter_from_dict(_enc(_unit(), options={"zero_cost": {"cap": 3}}), "<t>")
    assert enc.opts.zero_cost.cap == 3


def test_all_units_on_one_side_and_duplicate_sides_are_refused() -> None:
    """QA: a battle with one side only used to 'win' at once; duplicate sides blamed a unit."""
    one_side = {"units": [_unit(id="a", side="A"), _unit(id="b", side="A")], "sides": ["A", "B"]}
    with pytest.raises(InputError) as err:
        encounter_from_dict(one_side, "enc.yaml")
    assert err.value.field == "units" and "one side" in err.value.message
    with pytest.raises(InputError) as err:
        encounter_from_dict(_enc(_unit(), sides=["A", "A"]), "enc.yaml")
    assert err.value.field == "sides.1"


def test_refusal_outside_a_breath_names_the_decision_kinds_rule() -> None:
    """QA2: junk at a fate decision used to cite S-R35 (the count); it names 運命介入."""
    from ikusa.dice.source import ScriptedSource
    from ikusa.systems.maai import new_state

    s = new_state(encounter_from_dict(_enc(_unit(abilities={"勇": 1, "技": 2, "體": 1, "智": 0, "美": 0, "運": 1})),
                                      "<t>"))
    dice = ScriptedSource([4, 5] * 40)
    for _ in range(40):
        d = s.pending()
        assert d is not None
        if d.kind == "fate":
            err = s.explain_illegal("1,2,3")
            assert err.rule == "S-R14" and "運命介入" in err.section
            return
        s.apply(d.options[0].key, dice)
    raise AssertionError("no fate decision reached with these dice")
