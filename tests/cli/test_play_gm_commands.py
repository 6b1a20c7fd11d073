"""GM commands typed at any prompt (issue #8 §2): each becomes a ruling the core validates."""

from __future__ import annotations

import pytest

from ikusa.cli.gm_commands import RecordCommand, parse_gm
from ikusa.engine.errors import InputError
from ikusa.engine.rulings import parse_ruling

UNITS = {"oni", "genzaburo", "源三郎"}
SIDES = {"味方", "敵"}


@pytest.mark.parametrize(("text", "ruling"), [
    ("set oni wounds 2 斬られた", {"op": "set", "unit": "oni", "resource": "wounds", "value": 2, "reason": "斬られた"}),
    ("effect oni 毒 defense=-1 for 2 maai 毒霧", {"op": "effect", "unit": "oni", "reason": "毒霧", "effect": {
        "name": "毒", "modifiers": {"defense": -1}, "duration": {"clock": "maai", "n": 2}}}),
    ("effect 源三郎 加護 check=1 for breath", {"op": "effect", "unit": "源三郎", "effect": {
        "name": "加護", "modifiers": {"check": 1}, "duration": {"clock": "breath"}}}),
    ("effect oni 呪い", {"op": "effect", "unit": "oni", "name": "呪い"}),
    ("uneffect oni 毒", {"op": "remove_effect", "unit": "oni", "name": "毒"}),
    ("condition oni 出血 off", {"op": "condition", "unit": "oni", "name": "出血", "on": False}),
    ("skip oni 気絶中", {"op": "skip_turn", "unit": "oni", "reason": "気絶中"}),
    ("skip 遅刻", {"op": "skip_turn", "reason": "遅刻"}),
    ("endturn", {"op": "end_turn"}),
    ("mod genzaburo -2 足場", {"op": "modifier", "unit": "genzaburo", "value": -2, "reason": "足場"}),
    ("override oni 失敗", {"op": "override", "unit": "oni", "outcome": "失敗"}),
    ("override 42", {"op": "override", "outcome": "42"}),
    ("end 味方 降伏", {"op": "end", "winner": "味方", "reason": "降伏"}),
    ("end draw", {"op": "end", "winner": None}),
    ("control 敵 ai:greedy dice auto", {"op": "control", "side": "敵", "controller": "ai:greedy", "dice": "auto"}),
    ("control oni manual PL交代", {"op": "control", "unit": "oni", "dice": "manual", "reason": "PL交代"}),
    ("control GM dice manual", {"op": "control", "unit": "GM", "dice": "manual"}),
    ("note 鬼は嘘をついている", {"op": "note", "text": "鬼は嘘をついている"}),
    ("add {id: oni2, name: 鬼2, side: 敵}", {"op": "add_unit", "unit": {"id": "oni2", "name": "鬼2", "side": "敵"}}),
    ('json {"op": "remove_unit", "unit": "oni"}', {"op": "remove_unit", "unit": "oni"}),
])
def test_commands_become_valid_rulings(text: str, ruling: dict[str, object]) -> None:
    got = parse_gm(text, UNITS, SIDES)
    assert got == ruling
    parse_ruling(got)  # the core's validation accepts it


def test_record_commands_and_errors() -> None:
    assert parse_gm("undo", UNITS, SIDES) == RecordCommand("undo")
    assert parse_gm("reroll 机から落ちた", UNITS, SIDES) == RecordCommand("reroll", "机から落ちた")
    with pytest.raises(InputError, match="usage: !set"):
        parse_gm("set oni", UNITS, SIDES)
    with pytest.raises(InputError, match="VALUE must be a whole number"):
        parse_gm("set oni wounds two", UNITS, SIDES)
    with pytest.raises(InputError, match="unknown GM command !sett"):
        parse_gm("sett oni wounds 2", UNITS, SIDES)
    with pytest.raises(InputError, match="unknown unit or side 'onii'"):
        parse_gm("control onii gm", UNITS, SIDES)
