"""Costs: floor and exceptions (S-R30, S-R31, S-T53), 心府 (S-R32, S-T16), improvised (S-R40, S-T19,
S-T20), 分隊命令 (S-R22, S-T11), 照準集中 (S-R51, S-G08, S-G53, S-T47…S-T50), fumble extras
(S-T51), 0-活力 cap helper (S-R59)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikusa.engine.errors import RuleViolation
from ikusa.systems.maai.catalog import Tag, load_catalog
from ikusa.systems.maai.costs import (
    COST_EXCEPTIONS,
    PICK_UP_COST,
    CostModifier,
    aim_focus,
    aim_focus_cap,
    check_zero_vigor_use,
    cost_breakdown,
    final_cost,
    fumble_extra_modifier,
    improvised_cost,
    reaction_cost,
    shinpu_modifiers,
    squad_command_cost,
)
from ikusa.systems.maai.options import MaaiOptions

CAT = load_catalog()
HARD = MaaiOptions().model_copy(
    update={"aim_focus": MaaiOptions().aim_focus.model_copy(update={"breath_limit_hard": True})}
)


def test_s_t16_tantou_in_shinpu() -> None:
    m = CAT.maneuver("tantou.sashi")
    mods = shinpu_modifiers(m, CAT, in_shinpu=True)
    b = cost_breakdown(m.cost, mods)
    assert (b.raw, b.final, b.floored) == (0, 1, True)
    assert b.text == "1 心府−1 = 0 → 下限 1"


def test_s_t16_yari_takeuchi() -> None:
    m = CAT.maneuver("yari.sashi")
    mods = shinpu_modifiers(m, CAT, in_shinpu=True, schools=["takeuchi"])
    assert [x.delta for x in mods] == [1, -1]
    assert final_cost(m.cost, mods) == 2
    assert shinpu_modifiers(m, CAT, in_shinpu=False) == []


def test_s_r68_shura_no_in_extra_cost_bonus() -> None:
    m = CAT.maneuver("katana.yokogiri")
    mods = shinpu_modifiers(m, CAT, in_shinpu=True, feats=["shura_no_in"])
    assert final_cost(m.cost, mods) == 1


def test_s_g12_ranged_in_shinpu_refused() -> None:
    with pytest.raises(RuleViolation) as err:
        shinpu_modifiers(CAT.maneuver("teppou.shageki"), CAT, in_shinpu=True)
    assert err.value.rule == "S-G12"


def test_s_t19_improvised() -> None:
    assert [improvised_cost(c) for c in (1, 2, 3)] == [2, 3, 5]


def test_s_t20_reserved_parry() -> None:
    parry = CAT.maneuver("katana.ukenagashi")
    assert reaction_cost(parry.cost, reserved=True) == 0
    assert reaction_cost(parry.cost, reserved=False) == 2
    assert final_cost(parry.cost, exception="reserved_trigger") == 0


def test_s_t11_squad_command() -> None:
    assert squad_command_cost(2) == 1
    assert squad_command_cost(1) == 2 and squad_command_cost(-2) == 2


def test_s_t53_floor_exceptions() -> None:
    assert final_cost(1, exception="reserved_trigger") == 0
    assert final_cost(0, exception="stance_release") == 0
    assert final_cost(0) == 1  # a 即時 [型] with base 0 is not an exception
    assert final_cost(0, exception="zero_vigor_kata") == 0
    with pytest.raises(RuleViolation) as err:
        final_cost(0, exception="即時")  # type: ignore[arg-type]
    assert err.value.rule == "S-R31"


@settings(max_examples=120)
@given(st.integers(0, 6), st.lists(st.integers(-3, 3), max_size=4))
def test_cost_never_below_one_without_exception(base: int, deltas: list[int]) -> None:
    mods = [CostModifier("x", d, "S-R30") for d in deltas]
    assert final_cost(base, mods) >= 1
    assert final_cost(base, mods) == max(1, base + sum(deltas))
    for exc in COST_EXCEPTIONS:
        assert final_cost(base, mods, exception=exc) >= 0  # type: ignore[arg-type]


def test_s_t47_kyuusho_nuki_gi3() -> None:
    m = CAT.maneuver("tanto.kyuusho_nuki")
    af = aim_focus(m, 3, gi=3)
    assert m.cost + af.extra_cost == 5
    assert af.tags == (Tag(kind="pierce", n=5),)
    with pytest.raises(RuleViolation) as err:
        aim_focus(m, 4, gi=3)
    assert err.value.rule == "S-G08"


def test_s_t48_sennen_no_ya_gi2() -> None:
    m = CAT.maneuver("hoya.sennen_no_ya")
    assert aim_focus_cap(2, m.cost, breath_room=5, options=HARD) == 1
    af = aim_focus(m, 1, gi=2, breath_room=5, options=HARD)
    assert (m.cost + af.extra_cost, af.tags) == (5, (Tag(kind="direct", n=1),))
    with pytest.raises(RuleViolation):
        aim_focus(m, 2, gi=2, breath_room=5, options=HARD)
    assert aim_focus_cap(2, m.cost, breath_room=5) == 2  # default soft limit (S-G53)


def test_s_t49_kantsuusha_gi0() -> None:
    m = CAT.maneuver("daikyu.kantsuusha")
    af = aim_focus(m, 0, gi=0)
    assert (m.cost + af.extra_cost, af.tags) == (3, (Tag(kind="pierce", n=2),))
    with pytest.raises(RuleViolation):
        aim_focus(m, 1, gi=0)


def test_s_t50_kantsuusha_gi3() -> None:
    m = CAT.maneuver("daikyu.kantsuusha")
    hard = aim_focus(m, 2, gi=3, breath_room=5, options=HARD)
    assert (m.cost + hard.extra_cost, hard.tags) == (5, (Tag(kind="pierce", n=4),))
    with pytest.raises(RuleViolation):
        aim_focus(m, 3, gi=3, breath_room=5, options=HARD)
    soft = aim_focus(m, 3, gi=3, breath_room=5)
    assert (m.cost + soft.extra_cost, soft.tags) == (6, (Tag(kind="pierce", n=5),))


def test_s_r51_not_allowed() -> None:
    with pytest.raises(RuleViolation) as err:
        aim_focus(CAT.maneuver("katana.sashi"), 1, gi=3)
    assert err.value.rule == "S-R51"


def test_s_t51_fumble_extras() -> None:
    assert PICK_UP_COST == CAT.maneuver("common.pick_up_weapon").cost == 1
    mod = fumble_extra_modifier("stance_collapse")
    assert mod is not None and final_cost(2, [mod]) == 3
    assert fumble_extra_modifier("slip") is None


def test_s_r59_zero_vigor_cap() -> None:
    check_zero_vigor_use(0, 0)
    check_zero_vigor_use(1, 0)
    with pytest.raises(RuleViolation) as err:
        check_zero_vigor_use(2, 0)
    assert err.value.rule == "S-R59"
    with pytest.raises(RuleViolation):
        check_zero_vigor_use(1, 1)  # the same effect twice (S-G40)
    check_zero_vigor_use(1, 1, puppet=True)  # 式神 operation exempt from the per-effect 1 (S-G62)


@settings(max_examples=60)
@given(st.integers(0, 10))
def test_improvised_at_least_cost_and_monotone(c: int) -> None:
    assert improvised_cost(c) >= max(1, c)
    assert improvised_cost(c + 1) >= improvised_cost(c)
    assert improvised_cost(c) == max(1, (3 * c + 1) // 2)  # 1.5× rounded half up
