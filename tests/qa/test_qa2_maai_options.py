"""qa2: maai option tables that the engine indexes must be complete and well-formed, or the
encounter is refused naming ``options.<group>.<key>`` (S-G07 d100 tables, S-G03/S-R44 grade
tables, S-R26 armour weights, S-R40 improvised multiplier).  Before, these crashed mid-battle
with IndexError / KeyError / ZeroDivisionError tracebacks."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ikusa.engine.errors import InputError
from ikusa.systems.maai import encounter_from_dict
from ikusa.systems.maai.options import MaaiOptions, options_from_dict

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "maai" / "squad_battle.yaml"


@pytest.mark.parametrize(
    ("options", "field", "words"),
    [
        ({"tables": {"gouhou": []}}, "options.tables.gouhou", "at least one"),
        ({"tables": {"tenmei": []}}, "options.tables.tenmei", "at least one"),
        ({"tables": {"gouhou": [[40, "nonsense"]]}}, "options.tables.gouhou", "unknown outcome 'nonsense'"),
        ({"tables": {"tenmei": [[150, "none"]]}}, "options.tables.tenmei", "1…100"),
        ({"tables": {"gouhou": [[70, "slip"], [40, "none"]]}}, "options.tables.gouhou", "rise"),
        ({"wounds": {"by_grade": {"練": 3}}}, "options.wounds.by_grade", "雑, 卒, 将, 主, PC"),
        ({"defense": {"grade_base": {}}}, "options.defense.grade_base", "no value for 雑"),
        ({"defense": {"armor_vigor_penalty": {"なし": 0}}}, "options.defense.armor_vigor_penalty", "軽甲"),
        ({"costs": {"improvised_multiplier_den": 0}}, "options.costs.improvised_multiplier_den", "greater"),
    ],
)
def test_incomplete_option_tables_are_refused_naming_the_option(
    options: dict[str, object], field: str, words: str
) -> None:
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    data.pop("system")
    data["options"] = options
    with pytest.raises(InputError) as err:
        encounter_from_dict(data, source="enc.yaml")
    assert err.value.field == field
    assert words in str(err.value)


def test_complete_custom_tables_are_accepted() -> None:
    """S-G07: a GM's own complete table (one band to 100) is fine, as are full grade tables."""
    opts = options_from_dict({
        "tables": {"gouhou": [[100, "weapon_drop"]]},
        "wounds": {"by_grade": {"雑": 1, "卒": 2, "練": 2, "将": 3, "主": 4, "PC": 3}},
    })
    assert opts.tables.lookup("gouhou", 77) == "weapon_drop"
    assert opts.wounds.by_grade["卒"] == 2
    assert MaaiOptions().tables.lookup("gouhou", 100) == "weapon_broken"


@pytest.mark.parametrize(
    "options",
    [{"vigor": {"base_max": -20}}, {"breath": {"base_limit": -3}}, {"breath": {"absolute_cap": -1}},
     {"zero_cost": {"cap": -1}}],
)
def test_negative_vigor_and_breath_numbers_are_refused(options: dict[str, object]) -> None:
    """S-R24/S-R27/S-R28/S-R59: a negative 活力 maximum or breath limit left every unit unable
    to act: 'sim' reported 100 % draws with 0 decisions per battle instead of naming the option."""
    group, values = next(iter(options.items()))
    assert isinstance(values, dict)
    key = next(iter(values))
    with pytest.raises(InputError, match="greater than or equal to 0") as err:
        options_from_dict(options, "enc.yaml")
    assert err.value.field == f"{group}.{key}"
