"""Grades: 戦力 (S-R60, S-G03), base 防備 (S-R44), max 活力 and armour penalty (S-R24, S-R26, S-G31).
S-T11, S-T12, S-T13, S-T21 (戦力 part), S-T33, S-T34 (戦力 4)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikusa.engine.errors import InputError
from ikusa.systems.maai.grades import Grade, armour_vigor_penalty, base_defence, base_wounds, max_vigor
from ikusa.systems.maai.options import MaaiOptions, options_from_dict


def test_s_t11_vigor_and_wounds() -> None:
    assert max_vigor(2) == 12  # 技+2 忍び
    assert base_wounds(Grade.PC, tai=1) == 4  # 體+1 浪人


def test_s_t33_s_t34_pc_wounds() -> None:
    assert base_wounds(Grade.PC, tai=2) == 5
    assert base_wounds(Grade.SHU, tai=1) == 4


def test_s_g03_wounds_by_grade() -> None:
    assert [base_wounds(g, tai=3) for g in (Grade.ZATSU, Grade.SOTSU, Grade.REN, Grade.SHO)] == [1, 1, 2, 3]
    assert base_wounds(Grade.SHU, tai=0) == 3 == base_wounds(Grade.SHO, tai=0)


def test_s_g56_ren_wounds_configurable() -> None:
    opts = options_from_dict({"wounds": {"by_grade": {"雑": 1, "卒": 1, "練": 3, "将": 3, "主": 3, "PC": 3}}})
    assert base_wounds(Grade.REN, 0, opts) == 3


def test_s_r44_grade_base_defence() -> None:
    assert [base_defence(g) for g in Grade] == [8, 9, 10, 10, 10, 10]


def test_s_t12_heavy_armour_offset() -> None:
    assert armour_vigor_penalty("重甲", 1) == 0
    assert armour_vigor_penalty("重装甲", 1) == 1
    assert armour_vigor_penalty("軽甲", 0) == 0 and armour_vigor_penalty(None, 0) == 0


def test_s_t13_samurai_in_heavy_armour() -> None:
    assert max_vigor(1, armour_vigor_penalty("重甲", 0)) == 10


def test_s_g31_negative_and_excess_tai() -> None:
    assert armour_vigor_penalty("重甲", -2) == 1
    assert armour_vigor_penalty("重甲", 3) == 0
    literal = MaaiOptions().model_copy(
        update={"defense": MaaiOptions().defense.model_copy(update={"heavy_offset": "literal"})}
    )
    assert armour_vigor_penalty("重甲", -2, literal) == 3


@settings(max_examples=60)
@given(st.sampled_from(["なし", "軽甲", "重甲", "重装甲"]), st.integers(-3, 5))
def test_penalty_between_zero_and_raw(weight: str, tai: int) -> None:
    raw = MaaiOptions().defense.armor_vigor_penalty[weight]
    assert 0 <= armour_vigor_penalty(weight, tai) <= raw


def test_unknown_armour_and_grade_rejected() -> None:
    with pytest.raises(InputError):
        armour_vigor_penalty("紙鎧", 0)
    with pytest.raises(InputError):
        Grade.parse("大将軍")


def test_s_g68_grade_aliases() -> None:
    assert Grade.parse("連") is Grade.REN and Grade.parse("雜") is Grade.ZATSU and Grade.parse("PC") is Grade.PC
