"""Issue #2 §2 details not expressible in BCDice's data shape: repeat flags and extras, the
system evaluator hook, structured extras, and the modules' doctests."""

from __future__ import annotations

import doctest
import importlib

import pytest

import ikusa
from ikusa import IkusaError
from ikusa.dice.bcdice import roll_command
from ikusa.dice.result import RollResult
from ikusa.dice.source import DiceSource, ScriptedSource

MODULES = ["arith", "fmt", "lexer", "original_table", "__init__"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    mod = importlib.import_module("ikusa.dice.bcdice" + ("" if name == "__init__" else f".{name}"))
    failures, _ = doctest.testmod(mod)
    assert failures == 0


def test_repeat_keeps_each_result_and_sets_no_flag_of_its_own() -> None:
    """BCDice's repeat result only carries ``secret``; ikusa adds every repetition's own
    flags and dice in ``extra["results"]``."""
    res = ikusa.roll("x2 2D6>=7", dice=[3, 4, 1, 2])
    assert res is not None
    assert (res.success, res.failure, res.critical, res.fumble, res.secret) == (False,) * 5
    inner = res.extra["results"]
    assert [(r["success"], r["failure"]) for r in inner] == [(True, False), (False, True)]
    assert [r["dice"] for r in inner] == [[[3, 6], [4, 6]], [[1, 6], [2, 6]]]
    assert res.dice == [(3, 6), (4, 6), (1, 6), (2, 6)]


def test_repeat_uses_the_given_evaluator() -> None:
    """A game system passes its own evaluator so ``x3 CMD`` repeats the system's command."""
    seen: list[str] = []

    def system(command: str, dice: DiceSource) -> RollResult | None:
        seen.append(command)
        value = dice.roll(10, 1)[0]
        return RollResult(text=f"sys {value}", success=value >= 5, dice=[(value, 10)])

    res = roll_command("rep2 MAAI 7", ScriptedSource([9, 2]), evaluate=system)
    assert res is not None
    assert seen == ["MAAI 7", "MAAI 7"]
    assert res.text == "#1\nsys 9\n\n#2\nsys 2"
    assert res.dice == [(9, 10), (2, 10)]


def test_nested_repeats_as_bcdice_and_bounded() -> None:
    """BCDice only refuses a lower-case nested repeat: ``x2 X2 CMD`` repeats a repeat.
    ikusa bounds the evaluations (two levels of 100), so three levels are an error."""
    res = ikusa.roll("x2 X2 1D6", dice=[1, 2, 3, 4])
    assert res is not None
    assert res.text == "#1\n#1\n(1D6) ＞ 1\n\n#2\n(1D6) ＞ 2\n\n#2\n#1\n(1D6) ＞ 3\n\n#2\n(1D6) ＞ 4"
    for cmd in ("x2 x3 1D6", "x2 rep3 1D6", "x0 x3 1D6", "x101 repeat3 1D6"):
        res = ikusa.roll(cmd, dice=[])
        assert res is not None and res.text == "Repeatコマンドの重複はできません", cmd
    with pytest.raises(IkusaError, match="too many repetitions"):
        ikusa.roll("x100 X100 X2 C(1)", dice=[])


def test_structured_extras() -> None:
    add = ikusa.roll("2D6+1", dice=[3, 4])
    assert add is not None and add.extra == {"command": "sum_dice", "total": 8}
    bar = ikusa.roll("3B6>=5", dice=[5, 6, 1])
    assert bar is not None and bar.extra["success_count"] == 2
    up = ikusa.roll("2U6[6]", dice=[6, 2, 3])
    assert up is not None and up.extra["sums"] == [8, 3]
    ch = ikusa.roll("choice a b c", dice=[3])
    assert ch is not None and ch.extra["chosen"] == ["c"]


def test_comment_after_first_space_and_leading_space() -> None:
    res = ikusa.roll("  2D6 >= 7 は比較にならない", dice=[3, 4])
    assert res is not None and res.text == "(2D6) ＞ 7[3,4] ＞ 7"
    assert res.success is False and res.failure is False


def test_full_width_space_is_a_separator() -> None:
    """bcdice-js splits on JavaScript's ``\\s``, which has the full-width space."""
    res = ikusa.roll("2D6\u3000コメント", dice=[3, 4])
    assert res is not None and res.text == "(2D6) ＞ 7[3,4] ＞ 7"
    res = ikusa.roll("x1\u30001D6", dice=[5])
    assert res is not None and res.text == "#1\n(1D6) ＞ 5"


def test_choice_forms_bcdice_rejects_are_not_commands() -> None:
    """A single item that is no range, a backwards range, more picks than items, choice0."""
    for cmd in ("choice(a b)", "choice[a]", "choice a", "choice[F-A]", "choice3[a,b]", "choice0[a,b]"):
        assert ikusa.roll(cmd, dice=[]) is None, cmd
    res = ikusa.roll("choice2[a,b,c]", dice=[3, 1])
    assert res is not None and res.text == "(choice2[a,b,c]) ＞ c, a" and res.dice == [(3, 3), (1, 2)]
    res = ikusa.roll("Schoice2 a b c", dice=[2, 2])
    assert res is not None and res.text == "(choice2 a b c) ＞ b c" and res.secret


def test_original_table_checks_its_rows() -> None:
    from ikusa.dice.bcdice.original_table import roll_table

    d66s = "\n".join(f"{t}{o}:x{t}{o}" for t in range(1, 7) for o in range(t, 7))
    res = roll_table(f"表\nD66S\n{d66s}", ScriptedSource([5, 2]))
    assert res is not None and res.text == "表(25) ＞ x25" and res.dice == [(5, 6), (2, 6)]
    res = roll_table("表\n2D2\n2:a\\nb\n3:c\n4:d", ScriptedSource([1, 1]))
    assert res is not None and res.text == "表(2) ＞ a\nb"
    assert roll_table("表\n2D2\n2:a\n4:d", ScriptedSource([1, 1])) is None  # row 3 missing
    assert roll_table("表\n1D999999\n1:a", ScriptedSource([1])) is None
    assert roll_table("表", ScriptedSource([])) is None
