"""Each rule: what it allows and what it forbids (G-R04..G-R30 and the G-G defaults)."""

from __future__ import annotations

from typing import Any

import pytest

from ikusa.engine.errors import InputError, RuleViolation
from ikusa.systems.sengensyou import encounter_from_dict
from tests.systems.sengensyou.helpers import char, combat, fi, keys, kind, of_kind, push, st, start_turn, texts

SHOOTER: dict[str, Any] = {"skills": {"ショット": 1, "弾幕": 1, "ホーミング": 2}, "abilities": {"魔法": 2}}


def test_initiative_by_declared_dp_ties_by_kankaku_then_pcs() -> None:
    """G-G04: descending declared DP; a lower declaration delays; ties: 感覚, then PCs."""
    c = combat([char("p", "x"), char("q", "x", stats={"感覚": 5}), char("n", "y"), char("m", "y")])
    start_turn(c, declare={"p": 10, "q": 10, "n": 10, "m": 12})
    assert st(c).order == ["m", "q", "p", "n"]
    assert fi(c, "m").dp == 19  # declaring is not spending


def test_declarations_can_be_automatic() -> None:
    """G-G04 option: without asking, everyone declares its current DP."""
    c = combat([char("p", "x", dp_max=5), char("n", "y", dp_max=9)], options={"ask_declarations": False})
    assert kind(c) == "action" and st(c).order == ["n", "p"]


def test_focus_only_offered_in_back_row_and_forbids_attacks() -> None:
    """G-R07 / X1: 防御専念 must be in the back row; no attack that turn."""
    c = combat([char("a", "x", **SHOOTER), char("a2", "x", **SHOOTER), char("b", "y")])
    asked: list[str] = []
    while kind(c) in ("initiative", "row", "focus"):
        d = c.pending()
        assert d is not None
        if d.kind == "focus":
            asked.append(d.actor)
            push(c, "focus:yes")
        elif d.kind == "row":
            push(c, "row:back" if d.actor == "a" else "row:front")
        else:
            push(c, {"a": "declare:19", "a2": "declare:5", "b": "declare:0"}[d.actor])
    assert asked == ["a"] and fi(c, "a").focus and not fi(c, "a2").focus
    assert "end" in keys(c) and "wait" not in keys(c)
    assert not [k for k in keys(c) if k.startswith(("barrage", "homing", "shot"))]
    with pytest.raises(RuleViolation, match="G-R07"):
        push(c, "barrage:magic")


def test_barrage_cannot_be_evaded_or_guarded() -> None:
    """G-R19 / G-G07: 弾幕 allows no evasion and no guard."""
    c = combat([char("a", "x", **SHOOTER), char("b", "y", skills={"近接武器": 3})])
    start_turn(c, declare={"a": 19, "b": 0})
    push(c, "barrage:magic")
    assert not [k for k in keys(c) if k.startswith(("evade", "guard", "cover"))]
    with pytest.raises(RuleViolation, match="G-R19"):
        push(c, "guard:1", [6])


def test_barrage_reaches_back_row_and_hidden() -> None:
    """G-G07 / G-R27: every enemy, back row and hidden characters included."""
    c = combat([char("a", "x", **SHOOTER), char("b", "y"), char("h", "y", hidden=True)])
    start_turn(c, declare={"a": 19}, rows={"h": "back"})
    assert not [k for k in keys(c) if ":h:" in k]  # hidden: no shot, no homing
    push(c, "barrage:magic")
    push(c, "barrage:pay")
    assert c.pending().actor == "h" and kind(c) == "barrage"  # type: ignore[union-attr]
    push(c, "barrage:take")
    assert fi(c, "h").hp == 22 - 2


def test_hidden_attacker_surprises_then_is_revealed() -> None:
    """G-R27: still unnoticed when attacking → surprise; revealed afterwards (invented detail)."""
    c = combat([char("h", "x", skills={"ショット": 1, "隠密": 2}, abilities={"魔法": 2}, hidden=True),
                char("x2", "x"), char("b", "y", vigilant=False)])
    start_turn(c, declare={"h": 19, "x2": 0, "b": 0})
    ev = push(c, "shot:b:1:magic", [1, 1, 1])  # stealth 5 > perception 3; b cannot evade
    assert "発見されない (不意打ち)" in texts(ev) and of_kind(ev, "no_defence") and of_kind(ev, "revealed")
    assert not fi(c, "h").hidden and fi(c, "b").hp == 22 - 5


def test_cover_guard_from_front_row_only() -> None:
    """G-R10 / G-R19 / G-G16: a front-row ally may guard for another; the back row may not."""
    guard = {"skills": {"近接武器": 2}}
    c = combat([char("a", "x", **SHOOTER), char("b", "y"), char("g", "y", **guard), char("k", "y", **guard)])
    start_turn(c, declare={"a": 19, "b": 0, "g": 0, "k": 0}, rows={"k": "back"})
    push(c, "shot:b:1:magic", [5])  # 4 + 5 = 9
    assert "cover:g" in keys(c) and "cover:k" not in keys(c)
    with pytest.raises(RuleViolation, match="G-R10"):
        push(c, "cover:k")
    push(c, "cover:g")
    assert c.pending().actor == "g" and kind(c) == "cover"  # type: ignore[union-attr]
    ev = push(c, "guard:2", [3, 3])  # 身体3 + 2 + 6 = 11 ≥ 9
    assert "Bをかばう" in texts(ev) and fi(c, "g").guard_used and fi(c, "g").dp == 17 and fi(c, "b").hp == 22


def test_cover_declined_returns_to_the_target() -> None:
    c = combat([char("a", "x", **SHOOTER), char("b", "y"), char("g", "y", skills={"近接武器": 2})])
    start_turn(c, declare={"a": 19, "b": 0, "g": 0})
    push(c, "shot:b:1:magic", [5])
    push(c, "cover:g")
    push(c, "decline")
    assert c.pending().actor == "b" and "cover:g" not in keys(c)  # type: ignore[union-attr]


def test_deployed_card_absorbs_and_breaks() -> None:
    """G-R21 / G-G24: a 展開型 card takes the damage; when broken, the excess is lost."""
    c = combat([char("a", "x", **SHOOTER), char("b", "y", abilities={"神術・陰陽術": 4}, spell_cards=["fuuma_jin"])])
    start_turn(c, declare={"a": 19, "b": 0})
    push(c, "shot:b:3:magic", [6, 6, 6])
    ev = push(c, "deploy:fuuma_jin")  # any time: inside the defence decision
    assert fi(c, "b").sc_deployed == {"fuuma_jin": 10} and "DP+4" in texts(ev)
    assert kind(c) == "defence"
    ev = push(c, "none", [6, 6])  # 2D6[6,6]+3 = 15 → the card takes 10, breaks, 5 lost
    assert fi(c, "b").hp == 22 and fi(c, "b").sc_deployed == {} and of_kind(ev, "sc_break")


def test_consumed_card_defence_nullifies_after_damage_roll() -> None:
    """G-R21: a 消費型 card used for defence, even after the damage roll, nullifies it."""
    c = combat([char("a", "x", **SHOOTER), char("b", "y", abilities={"魔法": 5}, spell_cards=["master_spark"])],
               options={"dp_start": "recovery"})
    start_turn(c, declare={"a": 2, "b": 0})
    push(c, "shot:b:1:magic", [6])
    push(c, "none", [6, 6])
    assert kind(c) == "sc_defence"
    ev = push(c, "sc_defend:master_spark")
    assert fi(c, "b").hp == 22 and fi(c, "b").dp == 2 + 5 and "無効化" in texts(ev)


def test_consumed_card_as_action_hits_every_enemy() -> None:
    """G-R21: 消費型 as the own action (effect: damage to all enemies, host data)."""
    c = combat([char("a", "x", abilities={"神術・陰陽術": 3}, spell_cards=["musou_fuuin"]), char("b", "y"),
                char("d", "y")])
    start_turn(c, declare={"a": 19, "b": 0, "d": 0})
    ev = push(c, "sc:musou_fuuin")  # fixed 達成値 = 知性3 + Lv3 + 10 = 16 (host data)
    assert "達成値16" in texts(ev) and c.pending().actor == "b"  # type: ignore[union-attr]
    ev = push(c, "none", [1, 1, 1, 1])  # 4D6 + 知性3 = 7
    ev += push(c, "evade:1", [2, 2, 2, 2, 2])  # d: 3 + 2 = 5 < 16 → 4D6[2,2,2,2] + 3 = 11
    assert fi(c, "b").hp == 22 - 7 and fi(c, "d").hp == 22 - 11 and fi(c, "a").dp == 19
    assert len(of_kind(ev, "damage")) == 2


def test_spell_card_may_override_rows() -> None:
    """G-R10: a spell card with ignore_rows lets a back-row user shoot a back-row target."""
    c = combat([char("a", "x", **SHOOTER, spell_cards=["non_directional_laser"]), char("a2", "x"),
                char("b", "y"), char("b2", "y")])
    start_turn(c, declare={"a": 19, "a2": 0, "b": 0, "b2": 0}, rows={"a": "back", "b": "back"})
    assert not [k for k in keys(c) if k.startswith("shot:")]
    push(c, "deploy:non_directional_laser")
    assert "shot:b:1:magic" in keys(c)


def test_melee_needs_dp_for_both_checks() -> None:
    """G-G10: the approach may not take the last DP (the hit needs a die too)."""
    c = combat([char("a", "x", dp_max=3, skills={"近接武器": 1}, feats={"鍛錬": 1}), char("b", "y")])
    start_turn(c, declare={"a": 3, "b": 0})
    assert "melee:b:2" in keys(c) and "melee:b:3" not in keys(c)
    with pytest.raises(RuleViolation, match="G-G10"):
        push(c, "melee:b:3")


def test_barrage_needs_one_dp() -> None:
    """G-R20: 弾幕 costs 1 DP."""
    c = combat([char("a", "x", dp_max=0, **SHOOTER), char("b", "y")])
    start_turn(c, declare={"a": 0, "b": 0})
    with pytest.raises(RuleViolation, match="G-R20"):
        push(c, "barrage:magic")


def test_attack_without_skill_or_source_is_refused() -> None:
    """G-G01: conditions a (a bullet source) and b (the attack skill)."""
    c = combat([char("a", "x", abilities={"魔法": 2}), char("b", "y")])
    start_turn(c, declare={"a": 19, "b": 0})
    assert not [k for k in keys(c) if k.startswith(("shot", "barrage", "homing"))]
    with pytest.raises(RuleViolation, match="G-G01"):
        push(c, "barrage:magic")


def test_spell_activation_and_reiryoku() -> None:
    """G-G22: 霊力 is spent; a failed activation does nothing more."""
    c = combat([char("a", "x", abilities={"魔法": 1}, spells=["fire_bolt"]), char("b", "y")])
    start_turn(c, declare={"a": 19, "b": 0})
    assert "spell:fire_bolt:b:3" in keys(c) and "spell:fire_bolt:b:4" not in keys(c)
    ev = push(c, "spell:fire_bolt:b:1", [1])  # 知性3 + 1 + 1 = 5 < 10
    assert fi(c, "a").reiryoku == 12 - 2 and "失敗" in texts(ev) and c.pending().actor == "b"  # type: ignore


def test_simplified_order_around_the_leader() -> None:
    """G-R30 / G-G32: PCs with DP ≥ the leader's, then NPCs, then the other PCs."""
    c = combat([char("p1", "pc", dp_max=20), char("p2", "pc", dp_max=10), char("p3", "pc", dp_max=15),
                char("boss", "npc", dp_max=15), char("mob", "npc", dp_max=5)],
               pc_side="pc", leader="boss", options={"simplified": True})
    start_turn(c)
    assert st(c).order == ["p1", "p3", "boss", "mob", "p2"]


def test_every_battle_ends_at_the_turn_cap() -> None:
    """(invented) max_turns: the GM stops the fight with no winner."""
    c = combat([char("a", "x"), char("b", "y")], options={"max_turns": 2})
    for _ in range(2):
        start_turn(c)
        push(c, "wait")
        push(c, "wait")
    assert kind(c) == "scene_end" and st(c).winner is None and st(c).summary()["turn"] == 2


def test_gm_may_end_the_scene_at_a_turn_start() -> None:
    """G-R12 with gm_turn_prompt: the GM ends the scene early; graze is lost, no winner."""
    c = combat([char("a", "x"), char("b", "y")], options={"gm_turn_prompt": True})
    fi(c, "a").graze = 3
    start_turn(c)
    push(c, "wait")
    push(c, "wait")
    assert kind(c) == "gm_turn" and c.pending().actor == "GM"  # type: ignore[union-attr]
    ev = push(c, "end_scene")
    assert c.over and fi(c, "a").graze == 0 and st(c).winner is None and "グレイズ消滅" in texts(ev)


def test_summary_shape() -> None:
    c = combat([char("a", "x"), char("b", "y")])
    s = st(c).summary()
    assert set(s) == {"characters", "winner", "turn"}
    assert set(s["characters"][0]) == {"id", "name", "side", "hp", "dp", "dp_max", "graze", "reiryoku", "row",
                                       "down"}
    assert s["characters"][0]["dp_max"] == 19 and s["characters"][0]["hp"] == 22


@pytest.mark.parametrize(
    ("patch", "field", "match"),
    [
        ({"skills": {"飛翔": 1}}, "characters[0].skills.飛翔", "unknown skill"),
        ({"abilities": {"超能力": 1}}, "characters[0].abilities.超能力", "unknown ability"),
        ({"stats": {"身体": 3}}, "characters[0].stats", "missing 特性値"),
        ({"spell_cards": ["nope"]}, "characters[0].spell_cards[0]", "unknown spell card"),
        ({"items": ["銃"]}, "characters[0].items[0]", "unknown item"),
    ],
)
def test_bad_character_names_file_and_field(patch: dict[str, Any], field: str, match: str) -> None:
    a = char("a", "x")
    a.update(patch)
    with pytest.raises(InputError, match=match) as err:
        encounter_from_dict({"characters": [a, char("b", "y")]}, "bad.yaml")
    assert (err.value.source, err.value.field) == ("bad.yaml", field)


def test_bad_encounter_shapes() -> None:
    with pytest.raises(InputError, match="two sides"):
        encounter_from_dict({"characters": [char("a", "x"), char("b", "x")]}, "f.yaml")
    with pytest.raises(InputError, match="duplicate"):
        encounter_from_dict({"characters": [char("a", "x"), char("a", "y")]}, "f.yaml")
    with pytest.raises(InputError) as err:
        encounter_from_dict({"characters": [char("a", "x"), char("b", "y")], "options": {"dp_mx": 3}}, "f.yaml")
    assert err.value.field == "options.dp_mx"
    with pytest.raises(InputError, match="G-R30"):
        encounter_from_dict({"characters": [char("a", "x"), char("b", "y")], "options": {"simplified": True}}, "f")
