"""MaaiOptions: the documented gap defaults (ANALYSIS S.C) and validation of overrides."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from ikusa.engine.errors import InputError
from ikusa.systems.maai.options import DEFAULT_OPTIONS, MaaiOptions, options_from_dict


def test_defaults_match_analysis_s_c() -> None:
    o = MaaiOptions()
    assert o == DEFAULT_OPTIONS
    assert o.fate.max_uses_per_roll == 1  # S-G27
    assert o.fate.lethal_exception is True  # S-G51
    assert o.doubles.crit_checks == ("attack", "counter")  # S-G28
    assert "overload" in o.doubles.fumble_checks and "survival" not in o.doubles.fumble_checks
    assert o.doubles.table_checks == ("attack", "counter")
    assert o.wounds.by_grade == {"雑": 1, "卒": 1, "練": 2, "将": 3, "主": 3, "PC": 3}  # S-G03
    assert o.defense.armor_bonus["重装甲"] == 6 and o.defense.shield_bonus == 1  # S-G04
    assert o.spirit.base_tn == 9 and o.spirit.novice_penalty == 2  # S-G05
    assert o.aim_focus.cap == "tech_mod" and o.aim_focus.breath_limit_hard is False  # S-G08/S-G53
    assert (o.breath.base_limit, o.breath.official_cap, o.breath.absolute_cap) == (5, 7, 10)  # S-R28
    assert (o.overload.success_next_limit_mode, o.overload.success_next_limit_value) == ("absolute", 3)  # S-G32
    assert o.zero_cost.cap == 2 and o.zero_cost.per_effect_default == 1  # S-R59/S-G40
    assert o.count.pass_keeps_vigor is True  # S-G21
    assert o.defense.global_floor == 2  # S-G42
    assert o.breakthrough.tn == 11 and o.breakthrough.tn_per_extra_blocker == 2  # S-G13
    assert o.tables.headless_mode == "placeholder"  # S-G07
    assert o.squad.command_cost == 2 and o.squad.command_cost_reduced == 1  # S-R22


def test_every_field_cites_a_rule() -> None:
    for name, field in MaaiOptions.model_fields.items():
        group = field.annotation
        assert isinstance(group, type), name
        for sub, f in group.model_fields.items():  # type: ignore[attr-defined]
            assert f.description and ("S-G" in f.description or "S-R" in f.description), f"{name}.{sub}"


def test_frozen() -> None:
    with pytest.raises(ValidationError):
        DEFAULT_OPTIONS.fate.max_uses_per_roll = 2  # type: ignore[misc]


def test_from_dict_partial_override_and_alias() -> None:
    o = options_from_dict({"fate": {"max_uses_per_roll": 2}, "break": {"order": ["armor"]}})
    assert o.fate.max_uses_per_roll == 2 and o.fate.lethal_exception is True
    assert o.break_.order == ("armor",)
    with pytest.raises(InputError, match="S-G45") as err:  # #13: applied only on a hit, so fixed
        options_from_dict({"break": {"requires_hit": False}})
    assert err.value.field == "break.requires_hit"
    assert options_from_dict(None) is DEFAULT_OPTIONS


def test_from_dict_errors_name_source_and_field() -> None:
    with pytest.raises(InputError) as err:
        options_from_dict({"fate": {"max_uses_per_roll": 0}}, "enc.yaml")
    assert err.value.source == "enc.yaml" and err.value.field == "fate.max_uses_per_roll"
    with pytest.raises(InputError) as err2:
        options_from_dict({"fate": {"lethal": True}}, "enc.yaml")
    assert err2.value.field == "fate.lethal"


def test_s_g07_placeholder_tables() -> None:
    t = MaaiOptions().tables
    assert [t.lookup("gouhou", r) for r in (1, 40, 41, 70, 71, 90, 91, 100)] == [
        "weapon_drop", "weapon_drop", "stance_collapse_slip", "stance_collapse_slip",
        "friendly_fire", "friendly_fire", "weapon_broken", "weapon_broken",
    ]
    assert t.lookup("tenmei", 55) == "narrative"
    with pytest.raises(ValueError):
        t.lookup("gouhou", 0)


@pytest.mark.parametrize(
    "module",
    ["options", "grades", "defence", "equipment", "costs", "breath", "fatigue", "damage", "survival", "catalog",
     "check"],
)
def test_docstring_examples(module: str) -> None:
    """The examples in the maai rules modules' docstrings are run as tests (read from the
    source when the module is compiled: tests/doctest_source.py)."""
    import doctest
    import importlib

    from tests.doctest_source import testmod

    mod = importlib.import_module(f"ikusa.systems.maai.{module}")
    result = testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_s_t52_tn_ladder_columns() -> None:
    """S-G01 / S-T52: the ladder's TNs give the two published success columns (exact %)."""
    import itertools

    tns = sorted(MaaiOptions().check.tn_ladder.values())
    assert tns == [5, 7, 9, 11, 13, 15, 17, 19] and MaaiOptions().check.standard_tn == 11
    rolls = [a + b for a, b in itertools.product(range(1, 11), repeat=2)]

    def pct(mod: int) -> list[int]:
        return [sum(r + mod >= tn for r in rolls) for tn in tns]

    assert pct(0) == [94, 85, 72, 55, 36, 21, 10, 3]
    assert pct(3) == [100, 97, 90, 79, 64, 45, 28, 15]
