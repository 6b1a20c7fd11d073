"""Unit grades and the numbers that follow from them: 戦力 (S-R60, S-G03), base 防備
(S-R44, S-G04, S-G55), max 活力 (S-R24) and the heavy-armour 活力 penalty (S-R26, S-G31).

>>> base_wounds(Grade.PC, tai=1), base_wounds(Grade.REN, tai=3), base_defence(Grade.SOTSU)
(4, 2, 9)
>>> max_vigor(1, armour_vigor_penalty("重甲", tai=0))
10
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from ikusa.engine.errors import InputError
from ikusa.systems.maai.options import or_default

if TYPE_CHECKING:
    from ikusa.systems.maai.options import MaaiOptions


class Grade(StrEnum):
    """ユニット等級 (S-R44, S-G03).  Values are the Japanese labels."""

    ZATSU = "雑"
    SOTSU = "卒"
    REN = "練"
    SHO = "将"
    SHU = "主"
    PC = "PC"

    @property
    def label(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> Grade:
        """Accept the label, the ASCII name or the variant spellings 連/雜 (S-G68).

        >>> Grade.parse("連"), Grade.parse("sotsu"), Grade.parse("主級")
        (<Grade.REN: '練'>, <Grade.SOTSU: '卒'>, <Grade.SHU: '主'>)
        """
        key = text.strip()
        key = _ALIASES.get(key, key)
        if key.endswith("級") and len(key) > 1:
            key = _ALIASES.get(key[:-1], key[:-1])
        for g in cls:
            if key == g.value or key.upper() == g.name:
                return g
        raise InputError(f"unknown grade {text!r} (雑, 卒, 練, 将, 主, PC)", field="grade")


_ALIASES = {"連": "練", "雜": "雑", "pc": "PC"}


def base_wounds(grade: Grade, tai: int = 0, options: MaaiOptions | None = None) -> int:
    """S-R60 (000 §3.8 L340), S-G03/S-G56: 戦力 by grade — 雑1 卒1 練2 将3, 主・PC 3 + 體.

    >>> [base_wounds(g, tai=2) for g in Grade]
    [1, 1, 2, 3, 5, 5]
    """
    o = or_default(options).wounds
    value = o.by_grade[grade.value]
    if grade.value in o.add_tai_grades:
        value += tai
    return max(1, value)


def base_defence(grade: Grade, options: MaaiOptions | None = None) -> int:
    """S-R44 (000 §3.5 L248; 001 L48), S-G04/S-G55: grade base 防備 雑8 卒9 練・将・主・PC 10."""
    return or_default(options).defense.grade_base[grade.value]


def max_vigor(gi: int, armour_penalty: int = 0, options: MaaiOptions | None = None) -> int:
    """S-R24 (000 §3.3 L94): max 活力 = 10 + 技, minus the heavy-armour penalty after its 體
    offset (:func:`armour_vigor_penalty`).

    >>> max_vigor(2), max_vigor(1, 1)
    (12, 10)
    """
    return or_default(options).vigor.base_max + gi - armour_penalty


def armour_vigor_penalty(armour_weight: str | int | None, tai: int, options: MaaiOptions | None = None) -> int:
    """S-R26 (000 §3.3 L99; 001 L44-46), S-G31: the max-活力 penalty of heavy armour after
    the 體 offset.  ``armour_weight`` is an armour weight class (軽甲/重甲/重装甲, or
    ``None``/"なし") or a raw penalty.  Default offset = clamp(體, 0, penalty): negative 體
    adds nothing, excess 體 gives no bonus; option ``defense.heavy_offset = "literal"`` lets
    a negative 體 increase the penalty.

    >>> armour_vigor_penalty("重甲", 1), armour_vigor_penalty("重装甲", 1), armour_vigor_penalty("重装甲", -1)
    (0, 1, 2)
    """
    o = or_default(options).defense
    if armour_weight is None:
        raw = 0
    elif isinstance(armour_weight, int):
        raw = armour_weight
    else:
        if armour_weight not in o.armor_vigor_penalty:
            known = ", ".join(o.armor_vigor_penalty)
            raise InputError(f"unknown armour weight {armour_weight!r} ({known})", field="armour")
        raw = o.armor_vigor_penalty[armour_weight]
    if raw <= 0:
        return 0
    if o.heavy_offset == "literal":
        return max(0, raw - tai)
    return raw - max(0, min(tai, raw))
