"""GM rulings and effects in 千幻抄 (issue #8 §2/§3): effects in the check line, DP回復 and
DP回復停止 (G-G03/G-G08), N-turn durations, reinforcements by ruling (G-R28), skip/end
turn, the 達成値 override, refusals, replay, encounter effects and names for ids (§6)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from ikusa.dice.source import RandomSource, ScriptedSource
from ikusa.engine.errors import InputError
from ikusa.engine.runner import load_encounter
from tests.systems.ruling_driver import ROOT, Session

DUEL = "examples/sengensyou/spellcard_duel.yaml"


def to_action(s: Session, dice: Any = None) -> None:
    """Answer the turn-start questions (declarations, rows) with their first options."""
    while s.state.pending() is not None and s.state.pending().kind != "action":
        s.first(lambda k: False, dice or RandomSource(1))


def test_effects_and_one_off_modifiers_show_in_the_check_line() -> None:
    s = Session(DUEL)
    s.rule({"op": "effect", "unit": "marisa", "effect": {"name": "祝福", "modifiers": {"回避": 2},
                                                           "duration": {"clock": "turn", "n": 1}}})
    s.rule({"op": "modifier", "unit": "reimu", "value": 3, "reason": "高所"})
    to_action(s)
    s.first(lambda k: k.startswith("shot:"), ScriptedSource([2]))
    s.first(lambda k: k.startswith("evade:1"), ScriptedSource([2, 5, 5, 2, 3]))
    assert "知性+〈ショット〉 8+3(GM修正)+1D6[2]=13" in s.texts("shot")[-1]
    assert "回避 感覚+〈回避〉 7+2(祝福)+1D6[2]=11 < 13 失敗" in s.texts("evade")[-1]


def test_dp_recovery_effect_condition_and_turn_durations() -> None:
    s = Session(DUEL)
    s.rule({"op": "effect", "unit": "reimu", "effect": {"name": "呪縛", "modifiers": {"DP回復": -2},
                                                          "duration": {"clock": "turn", "n": 2}}})
    s.rule({"op": "condition", "unit": "marisa", "name": "DP回復停止", "reason": "封印"})
    s.rule({"op": "set", "unit": "reimu", "resource": "DP", "value": 10})
    s.rule({"op": "set", "unit": "marisa", "resource": "dp", "value": 10})
    for _ in range(12):
        if s.state.turn >= 3:
            break
        s.first(lambda k: k == "wait", RandomSource(1))
    rec = s.texts("dp_recovery")
    # G-G03: DP回復数 4, +2 after 待機 (G-R06), −2 呪縛: +4; 魔理沙 recovers nothing
    assert rec[0] == "博麗霊夢 DP回復 4 (待機 +2) -2(呪縛) → +4 (DP 10→14/22)"
    assert rec[1] == "霧雨魔理沙 DP回復 4 (待機 +2) DP回復停止 → +0 (DP 10→10/22)"
    assert "博麗霊夢 の効果「呪縛」が終了 (2ターン)" in s.texts("effect_end")
    assert rec[2] == "博麗霊夢 DP回復 4 (待機 +2) → +6 (DP 14→20/22)"
    s.rule({"op": "condition", "unit": "marisa", "name": "no_dp_recovery", "on": False})
    assert not s.state.fx.book.active


@pytest.mark.parametrize(("raw", "field", "words"), [
    ({"op": "set", "unit": "reimu", "resource": "DP", "value": -3}, "value", "0…200"),
    ({"op": "set", "unit": "reimu", "resource": "hp", "value": 99}, "value", "HP"),
    ({"op": "set", "unit": "reimu", "resource": "活力", "value": 3}, "resource", "霊力=reiryoku"),
    ({"op": "set", "unit": "sakuya", "resource": "hp", "value": 3}, "unit", "reimu=博麗霊夢"),
    ({"op": "effect", "unit": "reimu", "effect": {"name": "x", "modifiers": {"防備": 1}}},
     "effect.modifiers.防備", "DP回復=dp_recovery"),
    ({"op": "effect", "unit": "reimu", "effect": {"name": "x", "duration": {"clock": "round"}}},
     "effect.duration.clock", "turn, permanent"),
    ({"op": "condition", "unit": "reimu", "name": "麻痺"}, "name", "DP回復停止"),
    ({"op": "override", "outcome": "成功"}, "outcome", "達成値"),
    ({"op": "end_turn"}, "op", "initiative"),
    ({"op": "add_unit", "unit": {"id": "cirno", "name": "チルノ", "side": "ice", "stats": {}}}, "unit", ""),
])
def test_refusals_name_the_field_and_change_nothing(raw: dict[str, Any], field: str, words: str) -> None:
    s = Session(DUEL)
    before, pending = s.state.summary(), s.state.pending()
    with pytest.raises(InputError) as exc:
        s.rule(raw)
    assert exc.value.field.startswith(field) and words in exc.value.message
    assert s.state.summary() == before and s.state.pending() == pending


def test_override_end_turn_skip_reinforcement_and_end() -> None:
    s = Session(DUEL)
    to_action(s)
    assert s.state.pending().actor == "reimu"
    s.rule({"op": "override", "unit": "reimu", "outcome": "30", "reason": "奇跡"})
    s.first(lambda k: k.startswith("shot:"), ScriptedSource([1]))
    assert "達成値 9→30 (理由: 奇跡)" in s.texts("ruling")[-1]
    assert "=30" in s.texts("shot")[-1]
    s.first(lambda k: k == "noevade" or k.startswith("evade:1"), ScriptedSource([1, 3, 3, 3, 3]))
    to_action(s)
    assert s.state.pending().actor == "marisa"
    s.rule({"op": "end_turn", "reason": "時間切れ"})
    assert s.state.pending().kind != "action" or s.state.pending().actor != "marisa"
    cirno = {"id": "cirno", "name": "チルノ", "side": "marisa_side",
             "stats": {"身体": 2, "耐久": 2, "知性": 1, "感覚": 2, "意志": 2}, "spell_cards": ["夢想封印"]}
    s.rule({"op": "add_unit", "unit": cirno, "reason": "乱入"})
    assert s.state.fighters["cirno"].spec.spell_cards == ["musou_fuuin"]  # the card by its name (§6)
    assert f"第{s.state.turn + 1}ターン開始時に増援として参戦予定 (G-R28" in s.texts("ruling")[-1]
    s.rule({"op": "skip_turn", "unit": "reimu"})
    for _ in range(20):
        if s.texts("reinforcement"):
            break
        s.first(lambda k: k == "wait", RandomSource(2))
    arrived = s.texts("reinforcement")
    assert arrived and arrived[0].startswith("チルノ が増援として参戦 (DP = DP回復数")  # G-R28
    assert "博麗霊夢 の手番はGM裁定で飛ばされた" in s.texts("skip")
    s.rule({"op": "end", "winner": "reimu_side"})
    assert s.state.pending() is None and s.state.summary()["winner"] == "reimu_side"
    assert s.texts("scene_end")  # G-R12: the scene ends, graze is lost
    assert s.replay().log() == s.log()


def test_hp_zero_faints_and_ends_the_duel() -> None:
    s = Session(DUEL)
    to_action(s)
    s.rule({"op": "set", "unit": "marisa", "resource": "HP", "value": 0, "reason": "墜落"})
    assert "霧雨魔理沙 気絶 (HP0)" in s.texts("fainted")
    assert s.state.summary()["winner"] == "reimu_side"


def test_encounter_effects_names_for_ids_and_errors(tmp_path: Path) -> None:
    data = yaml.safe_load((ROOT / DUEL).read_text("utf-8"))
    data["characters"][0]["spell_cards"] = ["夢想封印", "夢符「封魔陣」"]
    data["characters"][0]["spells"] = ["睡眠術"]
    data["homebrew"] = {"effects": {"加護": {"modifiers": {"判定": 1}}}}
    data["effects"] = [{"unit": "reimu", "name": "加護"}]
    p = tmp_path / "duel.yaml"
    p.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    st = load_encounter(str(p)).new_combat().state
    assert st.fighters["reimu"].spec.spell_cards == ["musou_fuuin", "fuuma_jin"]
    assert st.fighters["reimu"].spec.spells == ["sleep"]
    assert st.summary()["effects"] == [{"id": "reimu", "name": "加護", "modifiers": {"check": 1},
                                        "condition": None, "left": "解除まで"}]
    data["characters"][0]["spell_cards"] = ["無双封印"]
    p.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    with pytest.raises(InputError) as exc:
        load_encounter(str(p))
    assert "unknown spell card '無双封印'" in str(exc.value) and "musou_fuuin=霊符「夢想封印」" in str(exc.value)
