"""GM rulings and effects in fantasy (issue #8 §2/§3): modifiers in the check breakdown,
conditions held by effects with round durations (F-H12), each op, refusals, replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from ikusa.dice.source import RandomSource, ScriptedSource
from ikusa.engine.errors import InputError
from ikusa.engine.runner import load_encounter
from tests.systems.ruling_driver import Session

DUEL = {
    "system": "fantasy", "title": "決闘",
    "characters": [
        {"id": "hero", "name": "勇者", "side": "party", "hp": 20,
         "values": {"melee": 5, "ranged": 3, "evasion": 4, "fort": 5, "intuition": 3, "will": 3, "initiative": 9},
         "weapons": [{"id": "sword", "name": "ロングソード", "category": "long_sword", "damage_dice": 2,
                      "damage_bonus": 4, "damage_type": "斬"}]},
        {"id": "orc", "name": "オーク", "side": "foes", "hp": 20,
         "values": {"melee": 4, "evasion": 3, "fort": 4, "intuition": 1, "will": 2, "initiative": 1},
         "weapons": [{"id": "axe", "name": "斧", "category": "axe", "damage_dice": 2, "damage_bonus": 3,
                      "damage_type": "斬"}]},
    ],
}


def dice(*values: int) -> ScriptedSource:
    """These dice first, then seeded ones (the next round's initiative …)."""
    return ScriptedSource(list(values), RandomSource(5))


def duel(tmp_path: Path, **extra: Any) -> Session:
    p = tmp_path / "duel.yaml"
    p.write_text(yaml.safe_dump({**DUEL, **extra}, allow_unicode=True), "utf-8")
    s = Session(str(p))
    s.act("start", ScriptedSource([3, 3, 2, 2]))  # 勇者 15, オーク 5: 勇者 acts first
    return s


def test_effect_and_one_off_modifiers_in_the_check_breakdown(tmp_path: Path) -> None:
    s = duel(tmp_path)
    s.rule({"op": "effect", "unit": "hero", "effect": {"name": "祝福", "modifiers": {"命中": 1},
                                                         "duration": {"clock": "round", "n": 1}}})
    s.rule({"op": "modifier", "unit": "orc", "value": -2, "reason": "足場"})
    s.act("attack:sword:orc", dice(4, 4, 3, 3, 5, 5))
    assert s.texts("attack")[-1] == ("勇者 近接攻撃(ロングソード) → オーク: 近接命中 2D[4,4]+5+1(祝福 GM)=14 vs "
                                     "オーク 回避(近接) 2D[3,3]+3-2(GM修正 GM)=7 → 命中")
    assert s.state.fighters["orc"].hp == 6
    s.act("attack:axe:hero", dice(4, 4, 3, 3, 1, 1))
    assert "回避(近接) 2D[3,3]+4=10" in s.texts("attack")[-1]  # the one-off is used up; 祝福 is 勇者's
    # the round ends: the 1-round effect expires with an event (F-H12)
    assert "勇者 の効果「祝福」が終了 (期間終了)" in s.texts("effect_end")


def test_condition_held_by_an_effect_lasts_its_rounds(tmp_path: Path) -> None:
    s = duel(tmp_path)
    s.rule({"op": "effect", "unit": "orc", "reason": "ホールドパーソン",
            "effect": {"name": "金縛り", "condition": "麻痺", "duration": {"clock": "round", "n": 1}}})
    assert s.state.summary()["characters"][1]["conditions"] == ["麻痺"]
    s.act("attack:sword:orc", dice(4, 4, 5, 5))
    assert "オーク は麻痺: 回避不可、自動失敗以外命中 (F-R10)" in s.texts("attack")[-1]
    # オーク cannot act (麻痺): the round ends, the effect with it, and round 2 starts
    assert s.texts("effect_end") == ["オーク の効果「金縛り」が終了 (期間終了)"]
    assert s.state.round == 2 and s.state.summary()["characters"][1]["conditions"] == []


@pytest.mark.parametrize(("raw", "field", "words"), [
    ({"op": "set", "unit": "orc", "resource": "mp", "value": 1}, "resource", "HP=hp"),
    ({"op": "set", "unit": "troll", "resource": "hp", "value": 1}, "unit", "orc=オーク"),
    ({"op": "effect", "unit": "orc", "effect": {"name": "x", "modifiers": {"防備": 1}}},
     "effect.modifiers.防備", "回避=evasion"),
    ({"op": "effect", "unit": "orc", "effect": {"name": "x", "duration": {"clock": "turn"}}},
     "effect.duration.clock", "round, permanent"),
    ({"op": "effect", "unit": "orc", "effect": {"name": "x", "condition": "石化"}}, "effect.condition", "麻痺"),
    ({"op": "condition", "unit": "orc", "name": "朦朧"}, "name", "duration"),
    ({"op": "condition", "unit": "orc", "name": "伏せ", "on": False}, "name", "does not have"),
    ({"op": "override", "outcome": "会心"}, "outcome", "自動成功"),
    ({"op": "end", "winner": "dragons"}, "winner", "foes"),
    ({"op": "add_unit", "unit": {"id": "orc", "name": "x", "side": "foes", "hp": 1, "values": {}}},
     "unit", ""),
])
def test_refusals_name_the_field_and_change_nothing(tmp_path: Path, raw: dict[str, Any], field: str,
                                                    words: str) -> None:
    s = duel(tmp_path)
    before, pending = s.state.summary(), s.state.pending()
    with pytest.raises(InputError) as exc:
        s.rule(raw)
    assert exc.value.field.startswith(field) and words in exc.value.message
    assert s.state.summary() == before and s.state.pending() == pending


def test_hp_condition_turns_units_override_and_end(tmp_path: Path) -> None:
    s = duel(tmp_path)
    s.rule({"op": "set", "unit": "orc", "resource": "HP", "value": 5, "reason": "既に負傷"})
    assert s.texts("hp")[-1] == "オーク HP 20→5 (GM裁定)"
    s.rule({"op": "condition", "unit": "orc", "name": "伏せ"})
    s.rule({"op": "override", "unit": "hero", "outcome": "失敗", "reason": "目が眩んだ"})
    s.act("attack:sword:orc", dice(6, 5))
    assert "→ 失敗に変更 (理由: 目が眩んだ)" in s.texts("ruling")[-1]
    assert "自動失敗" in s.texts("attack")[-1]
    assert s.state.current == "orc"  # one action per turn: 勇者's turn is over
    goblin = {"id": "gob", "name": "ゴブリン", "side": "foes", "hp": 8, "values": {"melee": 3, "initiative": 4},
              "weapons": [{"id": "club", "name": "棍棒", "category": "club", "damage_dice": 1, "damage_bonus": 2,
                           "damage_type": "叩"}]}
    s.rule({"op": "add_unit", "unit": goblin, "reason": "増援"})
    assert s.state.fighters["gob"].row == "back" and "gob" not in s.state.order
    s.rule({"op": "end_turn", "reason": "伏せて様子見"}, RandomSource(2))  # オーク's turn ends → round 2
    assert s.state.round == 2 and any(t.startswith("ゴブリン イニシアティブ") for t in s.texts("initiative"))
    first = s.state.current
    s.rule({"op": "skip_turn"}, RandomSource(3))
    assert s.state.current != first and s.texts("ruling")[-1].endswith("の手番を飛ばす")
    s.rule({"op": "remove_unit", "unit": "gob"}, RandomSource(3))
    s.rule({"op": "set", "unit": "orc", "resource": "hp", "value": 0}, RandomSource(4))
    assert s.state.pending() is None and s.state.winner == "party"


def test_end_with_a_winner_and_replay_byte_for_byte(tmp_path: Path) -> None:
    s = duel(tmp_path)
    s.rule({"op": "effect", "unit": "orc", "effect": {"name": "狂戦士", "modifiers": {"命中": 2, "回避": -2}}})
    rng = RandomSource(11)
    for _ in range(2):
        s.first(lambda k: k.startswith("attack:"), rng)
    assert s.state.pending() is not None
    s.rule({"op": "end", "winner": "foes", "reason": "撤退"})
    assert s.state.pending() is None and s.state.summary()["winner"] == "foes"
    assert s.replay().log() == s.log()


def test_homebrew_conditions_battlefields_and_start_effects(tmp_path: Path) -> None:
    extra = {
        "battlefield": "沼地",
        "homebrew": {
            "battlefields": [{"id": "swamp", "name": "沼地", "rules": ["homebrew"], "width_m": 10}],
            "conditions": [{"id": "slowed", "name": "鈍足", "rules": ["homebrew"], "section": "homebrew",
                            "modifiers": [{"applies_to": ["evade"], "value": -1}]}],
            "effects": {"加護": {"modifiers": {"抵抗": 2}, "duration": {"clock": "round", "n": 3}}},
        },
        "effects": [{"unit": "hero", "name": "加護"},
                    {"unit": "orc", "effect": {"name": "泥", "condition": "鈍足"}}],
    }
    s = duel(tmp_path, **extra)
    assert s.state.field.name == "沼地"
    assert s.texts("ruling")[:2] == ["GM裁定: 勇者 に効果「加護」st+2 (3ラウンド) (理由: encounter effects:)",
                                     "GM裁定: オーク に効果「泥」 鈍足 (解除まで) (理由: encounter effects:)"]
    s.act("attack:sword:orc", dice(4, 4, 3, 3, 1, 1))
    assert "-1(鈍足 homebrew)" in s.texts("attack")[-1]
    p = tmp_path / "bad.yaml"
    p.write_text(yaml.safe_dump({**DUEL, "homebrew": {"effects": {"x": {"modifiers": {"dp": 1}}}}},
                                allow_unicode=True), "utf-8")
    with pytest.raises(InputError) as exc:
        load_encounter(str(p))
    assert "homebrew.effects.x.modifiers.dp: unknown modifier key 'dp'" in str(exc.value)
