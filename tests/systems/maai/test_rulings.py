"""GM rulings in maai (issue #8 §2): each op on the duel, refusals that change nothing,
replay byte for byte, and the option caches after a ruling (GUIDE's trap)."""

from __future__ import annotations

from typing import Any

import pytest

from ikusa.dice.source import RandomSource, ScriptedSource
from ikusa.engine.errors import InputError
from tests.systems.ruling_driver import Session

DUEL = "examples/maai/duel.yaml"
NO_FATE = [{"op": "set", "unit": "genzaburo", "resource": "fate", "value": 0},
           {"op": "set", "unit": "yagyu", "resource": "運命介入", "value": 0}]


def duel() -> Session:
    s = Session(DUEL)
    for r in NO_FATE:  # no fate questions: the tests choose the dice
        s.rule(r)
    return s


def test_set_resources_with_japanese_names_and_events() -> None:
    s = duel()
    s.rule({"op": "set", "unit": "yagyu", "resource": "戦力", "value": 1, "reason": "前の戦いの傷"})
    s.rule({"op": "set", "unit": "genzaburo", "resource": "活力", "value": 4})
    y, g = s.state.by_id["yagyu"], s.state.by_id["genzaburo"]
    assert (y.wounds, g.vigor, g.fate_left, y.fate_left) == (1, 4, 0, 0)
    rulings = [e for e in s.events if e.kind == "ruling"]
    assert rulings[2].text == "GM裁定: 槍の将 戦力 3→1 (理由: 前の戦いの傷)"
    assert rulings[2].data["op"] == "set" and rulings[2].data["reason"] == "前の戦いの傷"
    # the breath being decided follows the new 活力 (S-R35: the count and the costs)
    d = s.state.pending()
    assert d.kind == "breath" and "活力4" in d.prompt


def test_wounds_to_zero_is_incapacitation_and_ends_the_duel() -> None:
    s = duel()
    s.rule({"op": "set", "unit": "yagyu", "resource": "wounds", "value": 0, "reason": "崖から落ちた"},
           ScriptedSource([9, 8]))  # the battle ends: the 将's survival roll (S-R62)
    assert s.state.by_id["yagyu"].incapacitated
    assert "槍の将 戦闘不能" in s.texts("down")
    assert s.state.winner == "味方"
    assert s.texts("survival")[-1].startswith("槍の将 生死判定: 2D10[9,8]")


@pytest.mark.parametrize(("raw", "field", "words"), [
    ({"op": "set", "unit": "genzaburo", "resource": "活力", "value": -1}, "value", "活力"),
    ({"op": "set", "unit": "genzaburo", "resource": "wounds", "value": 9}, "value", "S-R60"),
    ({"op": "set", "unit": "oni", "resource": "wounds", "value": 1}, "unit", "genzaburo=源三郎"),
    ({"op": "set", "unit": "genzaburo", "resource": "hp", "value": 1}, "resource", "戦力=wounds"),
    ({"op": "effect", "unit": "genzaburo", "effect": {"name": "x", "modifiers": {"evasion": 1}}},
     "effect.modifiers.evasion", "防備=defense"),
    ({"op": "effect", "unit": "genzaburo", "effect": {"name": "x", "duration": {"clock": "round"}}},
     "effect.duration.clock", "maai, breath, permanent"),
    ({"op": "effect", "unit": "genzaburo", "name": "nothing"}, "name", "homebrew effects"),
    ({"op": "remove_effect", "unit": "genzaburo", "name": "祝福"}, "name", "none"),
    ({"op": "condition", "unit": "genzaburo", "name": "麻痺"}, "name", "出血"),
    ({"op": "override", "outcome": "大成功"}, "outcome", "会心"),
    ({"op": "end", "winner": "誰か"}, "winner", "味方"),
    ({"op": "add_unit", "unit": {"id": "genzaburo", "name": "x", "side": "味方", "grade": "雑",
                                 "abilities": {"勇": 0, "技": 0, "體": 0, "智": 0, "美": 0, "運": 0}}},
     "unit.id", "already"),
    ({"op": "add_unit", "unit": {"id": "oni", "name": "鬼", "side": "敵", "grade": "雑",
                                 "abilities": {"勇": 0}}}, "unit", "missing ability"),
])
def test_impossible_rulings_are_refused_naming_the_field_and_change_nothing(
        raw: dict[str, Any], field: str, words: str) -> None:
    s = duel()
    before = s.state.summary()
    pending = s.state.pending()
    with pytest.raises(InputError) as exc:
        s.rule(raw)
    assert exc.value.field.startswith(field)
    assert words in exc.value.message
    assert s.state.summary() == before
    assert s.state.pending() == pending


def test_one_off_modifier_is_in_the_next_check_only() -> None:
    s = duel()
    s.rule({"op": "modifier", "unit": "genzaburo", "value": 3, "reason": "高所"})
    s.act("use:katana.yokogiri>yagyu", ScriptedSource([2, 3]))
    attack = s.texts("attack")[-1]
    # 2+3 + 4 (勇2 + 剣術免許 + …) + 3 = 12 < 防備14: shown in the line's breakdown
    assert attack == "源三郎 横斬り → 槍の将: 2D10[2,3]+7=12 < 防備14 失敗 [GM修正+3]"
    assert any("GM修正+3 適用 (理由: 高所)" in t for t in s.texts("ruling"))
    s.act("use:katana.yokogiri>yagyu", ScriptedSource([2, 3]))
    assert s.texts("attack")[-1].startswith("源三郎 横斬り → 槍の将: 2D10[2,3]+4=9 <")


def test_override_forces_the_outcome_of_the_next_check_keeping_the_dice() -> None:
    s = duel()
    s.rule({"op": "override", "unit": "genzaburo", "outcome": "会心", "reason": "見事な一太刀"})
    s.act("use:katana.yokogiri>yagyu", ScriptedSource([2, 3]))
    assert "2D10[2,3] の結果を「会心」に変更 (理由: 見事な一太刀)" in s.texts("ruling")[-1]
    assert s.texts("attack")[-1].endswith("会心")
    s.act("noreact", ScriptedSource([]))
    assert s.state.by_id["yagyu"].wounds == 1  # 会心 = 2 damage (S-R43)


def test_override_of_a_d100_table_result() -> None:
    s = duel()
    s.rule({"op": "override", "unit": "genzaburo", "outcome": "95", "reason": "天命の演出"})
    s.act("use:katana.yokogiri>yagyu", ScriptedSource([10, 10, 40]))
    table = s.texts("table")[-1]
    assert "決定的瞬間表 d100=95" in table
    assert "d100=40 → 95" in s.texts("ruling")[-1]


def test_end_turn_skip_turn_and_end_combat() -> None:
    s = duel()
    s.act("use:katana.yokogiri>yagyu", ScriptedSource([2, 3]))
    s.rule({"op": "end_turn", "reason": "時間切れ"})
    assert "源三郎 一呼吸終了" in s.texts("breath_end")[-1]
    assert s.state.pending().actor == "yagyu"
    s.rule({"op": "skip_turn", "reason": "怯んだ"})
    assert s.state.by_id["yagyu"].passed
    s.rule({"op": "end", "winner": "味方", "reason": "降参"})
    assert s.state.pending() is None and s.state.summary()["winner"] == "味方"


def test_add_unit_joins_the_count_and_remove_unit_leaves() -> None:
    s = duel()
    oni = {"id": "oni", "name": "鬼", "side": "敵", "grade": "卒",
           "abilities": {"勇": 1, "技": 1, "体": 1, "智": 0, "美": 0, "運": 0},
           "weapons": ["忍刀"], "armour": ["なし"]}  # Japanese names wherever an id is (§6)
    s.rule({"op": "add_unit", "unit": oni, "reason": "増援"})
    u = s.state.by_id["oni"]
    assert u.vigor == 11 and any(m.id.startswith("ninjatou.") for m in u.moves)
    assert "鬼 (敵) 参戦" in s.texts("ruling")[-1]
    s.first(lambda k: k == "end" or k == "pass")  # 源三郎 passes: the count goes on
    d = s.state.pending()  # both at count 11 with 技1: the GM breaks the tie (S-G49)
    assert d.kind == "count_tie" and d.keys() == ["first:yagyu", "first:oni"]
    s.act("first:oni", ScriptedSource([]))
    assert s.state.pending().actor == "oni"
    assert s.state.defence_of(u, None) == 9  # 卒 base 9 + なし (S-R44), from its own catalog data
    s.rule({"op": "remove_unit", "unit": "oni", "reason": "逃げた"})
    assert s.state.summary()["units"][2]["status"] == "離脱"


def test_a_ruling_session_replays_byte_for_byte() -> None:
    s = duel()
    s.rule({"op": "effect", "unit": "yagyu", "effect": {"name": "呪い虫", "modifiers": {"防備": -1}}})
    s.rule({"op": "modifier", "unit": "genzaburo", "value": 2})
    dice = RandomSource(7)
    for _ in range(30):
        if s.state.pending() is None:
            break
        s.first(lambda k: k.startswith("use:"), dice)
    again = s.replay()
    assert again.log() == s.log()
    assert again.state.summary() == s.state.summary()
