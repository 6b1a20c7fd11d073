"""QA regressions for the fantasy encounter file (systems/fantasy/encounter.py): inputs the
engine cannot use are refused with the field named, not silently accepted (F-H11, F-R08)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from ikusa.engine.errors import InputError
from ikusa.systems.fantasy import encounter_from_dict

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "fantasy" / "corridor_ambush.yaml"


def _body() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(EXAMPLE.read_text("utf-8"))
    data.pop("system")
    data.pop("script", None)
    return copy.deepcopy(data)


def test_example_still_valid() -> None:
    encounter_from_dict(_body(), "enc.yaml")


def test_unknown_race_is_refused() -> None:
    """Was: race 'Dwarf' (typo) was accepted and silently had no 暗視 (F-H11)."""
    body = _body()
    body["characters"][0]["race"] = "Dwarf"
    with pytest.raises(InputError, match="unknown race 'Dwarf'") as err:
        encounter_from_dict(body, "enc.yaml")
    assert err.value.field == "characters[0].race"


def test_unknown_sense_is_refused_known_sense_accepted() -> None:
    body = _body()
    body["characters"][1]["senses"] = ["lowlight", "xray"]
    with pytest.raises(InputError, match="unknown sense 'xray'") as err:
        encounter_from_dict(body, "enc.yaml")
    assert err.value.field == "characters[1].senses[1]"
    body["characters"][1]["senses"] = ["darkvision"]
    encounter_from_dict(body, "enc.yaml")


def test_engagement_between_allies_is_refused() -> None:
    """Was: ``[party.fore, party.rear]`` (a unit engaging itself) was accepted (F-R08)."""
    body = _body()
    body["engagements"] = [["party.fore", "party.rear"]]
    with pytest.raises(InputError, match="same side") as err:
        encounter_from_dict(body, "enc.yaml")
    assert err.value.field == "engagements[0]" and "F-R08" in str(err.value)


def test_unit_mixing_two_sides_is_refused() -> None:
    """Was: a party member with ``unit: gob_front`` joined the goblins' unit silently (the
    only symptom was a misleading engagement error, or none without engagements)."""
    body = _body()
    body["characters"][0]["unit"] = "gob_front"
    body["engagements"] = []
    with pytest.raises(InputError, match="a unit belongs to one side") as err:
        encounter_from_dict(body, "enc.yaml")
    assert err.value.field.endswith(".unit") and "F-R02" in str(err.value)
