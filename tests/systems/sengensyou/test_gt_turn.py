"""G-T16..G-T27: 待機, movement, rows, GM fixed values, reinforcements, spell cards, 手加減,
surprise, diceless actions, the 3D cap, one defence per attack, escape."""

from __future__ import annotations

import pytest

from ikusa.engine.errors import InputError, RuleViolation
from ikusa.systems.sengensyou import encounter_from_dict
from ikusa.systems.sengensyou.check import fixed_dice_value as fixed_value
from ikusa.systems.sengensyou.movement import track_step
from ikusa.systems.sengensyou.spellcards import card, recovery
from tests.systems.sengensyou.helpers import char, combat, fi, keys, kind, of_kind, push, st, start_turn, texts

SHOOTER = {"skills": {"ショット": 1, "弾幕": 1}, "abilities": {"魔法": 2}}


def test_gt16_wait_adds_two_to_next_recovery() -> None:
    """G-T16 (003:L58-62): 待機 with DP回復数 3 → next turn recovers 5."""
    c = combat([char("a", "x", dp_recovery=3), char("b", "y", dp_recovery=3)], options={"dp_start": "recovery"})
    assert fi(c, "a").dp == 3
    start_turn(c)
    push(c, "wait")
    ev = push(c, "wait")  # turn 2 starts: recovery happens before the first declaration
    assert fi(c, "a").dp == 3 + 5 and "DP回復 3 (待機 +2) → +5" in texts(of_kind(ev, "dp_recovery"))


def test_recovery_is_capped_at_dp_max() -> None:
    """G-G03: recovery never exceeds DP最大値."""
    c = combat([char("a", "x", **SHOOTER), char("b", "y")])
    start_turn(c, declare={"a": 19, "b": 0})
    push(c, "barrage:magic")  # a: 19 → 18
    push(c, "barrage:pay")
    push(c, "wait")
    start_turn(c)
    assert fi(c, "a").dp == 19 and fi(c, "b").dp == 19


def test_gt17_free_movement_and_rolled_movement() -> None:
    """G-T17 (003:L80-88, G-G11): 身体3+〈回避〉2 → 5 m free; 2 DP [3,4] → 12 m."""
    c = combat([char("a", "x", skills={"回避": 2}), char("b", "y")])
    start_turn(c, declare={"a": 19, "b": 0})
    ev = push(c, "move:free")
    assert of_kind(ev, "move")[0].data["metres"] == 5 and fi(c, "a").dp == 19 and kind(c) == "action"
    assert not [k for k in keys(c) if k.startswith("move:")]  # one move per turn
    c2 = combat([char("a", "x", skills={"回避": 2}), char("b", "y")])
    start_turn(c2, declare={"a": 19, "b": 0})
    ev = push(c2, "move:roll:2", [3, 4])
    assert of_kind(ev, "move")[0].data["metres"] == 12 and fi(c2, "a").dp == 17


def test_gt18_rows_in_encounter() -> None:
    """G-T18 (003:L104-109): front 2 / back 3 → invalid; 2 / 2 valid."""
    five = [char(f"p{i}", "x", row="front" if i < 2 else "back") for i in range(5)]
    with pytest.raises(InputError, match="G-R10") as err:
        encounter_from_dict({"characters": [*five, char("e", "y")]}, "party.yaml")
    assert err.value.field == "characters" and "後衛 must be ≤ 前衛" in str(err.value)
    encounter_from_dict({"characters": [*five[:4], char("e", "y")]}, "party.yaml")


def test_gt18_rows_chosen_at_turn_start_keep_back_le_front() -> None:
    c = combat([*(char(f"p{i}", "x") for i in range(4)), char("e", "y", **SHOOTER)])
    start_turn(c, declare={"e": 19}, rows={"p0": "back", "p1": "back", "p2": "back", "p3": "back"})
    rows = [fi(c, f"p{i}").row for i in range(4)]
    assert rows == ["back", "back", "front", "front"]


def test_gt18_last_member_is_placed_in_front_when_back_would_break_the_rule() -> None:
    c = combat([char("p0", "x"), char("p1", "x"), char("e", "y")])
    while kind(c) == "initiative":
        push(c, keys(c)[0])
    push(c, "row:back")  # p0
    # p1 was placed in the front row automatically: back 1 ≤ front 1
    assert fi(c, "p1").row == "front"


def test_gt18_shot_at_back_row_and_back_row_melee_refused() -> None:
    melee = {"skills": {"ショット": 1, "近接武器": 2}, "abilities": {"魔法": 2}, "feats": {"鍛錬": 1}}
    c = combat([char("a", "x", **melee), char("a2", "x", **melee), char("b", "y"), char("b2", "y")])
    start_turn(c, declare={"a2": 19, "a": 18, "b": 0, "b2": 0}, rows={"a2": "back", "b": "back"})
    assert c.pending().actor == "a2"  # type: ignore[union-attr]
    assert not [k for k in keys(c) if k.startswith(("shot:", "melee:"))]
    with pytest.raises(RuleViolation, match="G-R10"):
        push(c, "melee:b2:1")
    push(c, "wait")
    assert "shot:b2:1:magic" in keys(c) and not [k for k in keys(c) if k.startswith("shot:b:")]
    with pytest.raises(RuleViolation, match="G-R10") as err:
        push(c, "shot:b:1:magic")
    assert "後衛" in str(err.value)


def test_gt19_gm_fixed_value() -> None:
    """G-T19 (003:L245, G-G30): 2 dice → 7; 3 dice → 10.5 → 10 (floor); ceil → 11."""
    assert (fixed_value(2), fixed_value(3), fixed_value(3, "ceil")) == (7, 10, 11)
    c = combat([char("a", "x"), char("n", "npc", **SHOOTER)], options={"npc_fixed_dice": True})
    start_turn(c, declare={"n": 19, "a": 0})
    ev = push(c, "shot:a:3:magic", [])  # no dice drawn: 4 + 10
    assert of_kind(ev, "shot")[0].data["total"] == 14


def test_gt20_reinforcement_enters_with_twice_recovery() -> None:
    """G-T20 (003:L240, X6): DP回復数 3 → enters with 6 DP."""
    c = combat([char("a", "x"), char("b", "y")],
               reinforcements=[{"turn": 2, "character": char("r", "y", dp_recovery=3)}])
    assert not fi(c, "r").in_battle
    start_turn(c)
    push(c, "wait")
    ev = push(c, "wait")
    assert fi(c, "r").in_battle and fi(c, "r").dp == 6 and "DP回復数3 × 2 = 6" in texts(ev)


def test_gt21_spell_card_recovery() -> None:
    """G-T21 (003:L174, G-G24): Lv5 → +5; Lv2 → +3 (max(Lv,3)); alternative → +2."""
    c5 = combat([char("a", "x", abilities={"神術・陰陽術": 5}), char("b", "y")])
    c2 = combat([char("a", "x", abilities={"神術・陰陽術": 2}), char("b", "y")])
    alt = combat([char("a", "x", abilities={"神術・陰陽術": 2}), char("b", "y")], options={"sc_recovery": "lv_or_3"})
    musou = card("musou_fuuin")
    assert recovery(st(c5), fi(c5, "a"), musou) == 5
    assert recovery(st(c2), fi(c2, "a"), musou) == 3
    assert recovery(st(alt), fi(alt, "a"), musou) == 2
    assert recovery(st(alt), fi(alt, "a"), card("roukanken")) == 3


def test_gt21_shoudan_recovers_all_allies() -> None:
    """G-R21: 消弾 with a 消費型 card: every ally recovers [Lv or 3], capped."""
    c = combat([char("a", "x", abilities={"神術・陰陽術": 5}, spell_cards=["musou_fuuin"]), char("a2", "x"),
                char("b", "y")], options={"dp_start": "recovery"})
    start_turn(c, declare={"a": 2})
    ev = push(c, "shoudan:musou_fuuin")
    assert fi(c, "a").dp == 2 + 5 and fi(c, "a2").dp == 2 + 5 and fi(c, "b").dp == 2
    assert "shoudan:musou_fuuin" not in keys(c) and "sc:musou_fuuin" not in keys(c)
    assert len(of_kind(ev, "sc_recovery")) == 2


def test_gt22_tekagen() -> None:
    """G-T22 (003:L182): HP 6 takes 9 → the attacker chooses 気絶 or HP 1 and out."""
    for choice, hp in (("tekagen:faint", 0), ("tekagen:spare", 1)):
        c = combat([char("a", "x", **SHOOTER), char("b", "y", hp=6)])
        start_turn(c, declare={"a": 19, "b": 0})
        push(c, "shot:b:1:magic", [6])
        push(c, "none", [3, 3])  # 2D6[3,3] + 3 = 9
        assert kind(c) == "tekagen" and c.pending().actor == "a"  # type: ignore[union-attr]
        push(c, choice)
        assert fi(c, "b").hp == hp and fi(c, "b").down
        assert st(c).winner == "x" and kind(c) == "scene_end"


def test_gt23_surprise_within_range_vigilant_unaware() -> None:
    """G-T23 (003:L211): evasion −5 and at most 3 dice; the attacker may spend 5 DP."""
    c = combat([char("a", "x", skills={"ショット": 1, "隠密": 1}, abilities={"魔法": 2}), char("b", "y")],
               surprise={"side": "x", "range": "within"})
    start_turn(c, declare={"a": 19, "b": 0})
    assert "shot:b:5:magic" in keys(c)
    push(c, "shot:b:5:magic", [1, 1, 1, 1, 1])
    evades = [o for o in c.pending().options if o.key.startswith("evade:")]  # type: ignore[union-attr]
    assert [o.key for o in evades] == ["evade:1", "evade:2", "evade:3"]
    assert "感覚+〈回避〉-2+" in evades[0].label  # 3 − 5
    with pytest.raises(RuleViolation):
        push(c, "evade:4")


def test_complete_surprise_allows_no_evasion() -> None:
    """G-R24: unnoticed and not vigilant → no evasion (the attack hits)."""
    c = combat([char("a", "x", skills={"ショット": 1, "隠密": 1}, abilities={"魔法": 2}),
                char("b", "y", vigilant=False)], surprise={"side": "x", "range": "within"})
    start_turn(c, declare={"a": 19, "b": 0})
    ev = push(c, "shot:b:1:magic", [1, 2, 2])
    assert of_kind(ev, "no_defence") and fi(c, "b").hp == 22 - 7


def test_alarm_turns_complete_surprise_into_normal_surprise() -> None:
    """G-R24: inside [警報術]/[識域結界] a complete surprise becomes a normal one."""
    c = combat([char("a", "x", skills={"ショット": 1, "隠密": 1}, abilities={"魔法": 2}),
                char("b", "y", vigilant=False, in_alarm=True)], surprise={"side": "x", "range": "within"})
    start_turn(c, declare={"a": 19, "b": 0})
    push(c, "shot:b:1:magic", [1])
    assert [k for k in keys(c) if k.startswith("evade:")] == ["evade:1", "evade:2", "evade:3"]


def test_surprise_from_beyond_30m_caps_attacker_dice() -> None:
    """G-R24: beyond 30 m the attacker rolls at most 3 dice; from 100 m the GM TN applies."""
    c = combat([char("a", "x", **SHOOTER), char("b", "y")], surprise={"side": "x", "range": "far"})
    start_turn(c, declare={"a": 19, "b": 0})
    assert "shot:b:3:magic" in keys(c) and "shot:b:4:magic" not in keys(c)
    ev = push(c, "shot:b:3:magic", [1, 1, 1])  # 4 + 3 = 7 < 15
    assert "外れ" in texts(ev) and kind(c) == "action" and c.pending().actor == "b"  # type: ignore[union-attr]


def test_gt24_no_dice_no_combat_action_but_free_movement() -> None:
    """G-T24 (003:L56, G-G10): a shot with 0 DP is refused; free movement with 0 DP is fine."""
    c = combat([char("a", "x", dp_max=0, **SHOOTER), char("b", "y")])
    start_turn(c, declare={"a": 0, "b": 0})
    assert c.pending().actor == "a"  # type: ignore[union-attr]
    with pytest.raises(RuleViolation, match="G-R03") as err:
        push(c, "shot:b:0:magic")
    assert "at least one die" in str(err.value)
    push(c, "move:free")
    assert fi(c, "a").moved


def test_gt25_other_actions_capped_at_three_dice() -> None:
    """G-T25 (003:L42): an "other" action asking 4 DP is refused (max 3D)."""
    c = combat([char("a", "x"), char("b", "y")])
    start_turn(c, declare={"a": 19, "b": 0})
    assert "other:3" in keys(c) and "other:4" not in keys(c)
    with pytest.raises(RuleViolation, match="G-R02"):
        push(c, "other:4")
    ev = push(c, "other:3", [2, 2, 2])
    assert of_kind(ev, "other")[0].data["total"] == 6


def test_gt26_second_defence_refused() -> None:
    """G-T26 (003:L33): a second defence action against the same attack is refused."""
    c = combat([char("a", "x", **SHOOTER), char("b", "y", skills={"近接武器": 1})])
    start_turn(c, declare={"a": 19, "b": 0})
    push(c, "shot:b:1:magic", [1])
    push(c, "evade:2", [6, 6])
    with pytest.raises(RuleViolation, match="G-R05"):
        push(c, "guard:1", [6])


def test_gt27_escape_running_score() -> None:
    """G-T27 (003:L92, G-G27): wins E, P, E, E, E → 1, 0, 1, 2, 3 → escaped at 3."""
    score, seen = 0, []
    for won in (True, False, True, True, True):
        score = track_step(score, won, -3)
        seen.append(score)
    assert seen == [1, 0, 1, 2, 3]
    assert track_step(-3, False, -3) == -3


def test_escape_contest_at_turn_end() -> None:
    """G-R09: declared during the turn, opposed 知性+〈飛行〉 at turn end; a win leaves."""
    c = combat([char("a", "x", skills={"飛行": 2}), char("b", "y")])
    start_turn(c, declare={"a": 19, "b": 0})
    push(c, "escape")
    push(c, "wait")
    push(c, "wait")
    assert kind(c) == "escape"
    push(c, "escape_dp:1", [])
    ev = push(c, "pursue_dp:1", [4, 2])  # 3+2+4 = 9 > 3+0+2 = 5
    assert fi(c, "a").escaped and st(c).winner == "y" and "逃走側の勝ち" in texts(ev)


def test_alarm_spell_of_an_ally_counts_as_alarm_area() -> None:
    """G-R24: an ally's [警報術] makes a complete surprise a normal one."""
    c = combat([char("a", "x", skills={"ショット": 1, "隠密": 1}, abilities={"魔法": 2}),
                char("b", "y", vigilant=False), char("w", "y", abilities={"警報術": 1})],
               surprise={"side": "x", "range": "within"})
    start_turn(c, declare={"a": 19, "b": 0, "w": 0})
    push(c, "shot:b:1:magic", [1])
    assert [k for k in keys(c) if k.startswith("evade:")] == ["evade:1", "evade:2", "evade:3"]


def test_surprise_beyond_30m_vigilant_defender_may_evade_with_three_dice() -> None:
    """G-R24: beyond 30 m a vigilant defender that wins its 感覚 check (−5) may evade with ≤ 3D;
    an unvigilant one cannot evade."""
    shooter = {"skills": {"ショット": 1}, "abilities": {"魔法": 2}}
    c = combat([char("a", "x", **shooter), char("b", "y", stats={"感覚": 6}, skills={"感知": 2}),
                char("u", "y", vigilant=False)], surprise={"side": "x", "range": "outside"})
    start_turn(c, declare={"a": 19, "b": 0, "u": 0})
    push(c, "shot:b:3:magic", [1, 1, 1])  # 感覚6+〈感知〉2−5 = 3 ≥ 身体3+〈隠密〉0: noticed
    assert [k for k in keys(c) if k.startswith("evade:")] == ["evade:1", "evade:2", "evade:3"]
    c2 = combat([char("a", "x", **shooter), char("u", "y", vigilant=False)], surprise={"side": "x", "range": "outside"})
    start_turn(c2, declare={"a": 19, "u": 0})
    ev = push(c2, "shot:u:1:magic", [1, 1, 1])
    assert of_kind(ev, "no_defence")


def test_focus_bonus_applies_to_guard_and_resistance() -> None:
    """G-R07: +5 to guard and resistance checks too."""
    c = combat([char("a", "x", skills={"ホーミング": 2}, abilities={"神術・陰陽術": 2}, spells=["sleep"]),
                char("b", "y", skills={"近接武器": 1}), char("c", "y")])
    start_turn(c, declare={"a": 19, "b": 0, "c": 0}, rows={"b": "back"}, focus=["b"])
    push(c, "homing:onmyou:b")
    label = c.pending().option("guard:1").label  # type: ignore[union-attr]
    assert "〈【近接武器】〉9+1D6" in label  # 身体3 + 1 + 5
    push(c, "guard:1", [6])  # 9 + 6 = 15 ≥ 15
    push(c, "end")  # b in 防御専念 cannot attack
    push(c, "wait")  # c
    start_turn(c, declare={"a": 19, "b": 0, "c": 0}, rows={"b": "back"}, focus=["b"])
    push(c, "spell:sleep:b:1", [6])  # 意志3 + 2 + 6 = 11
    assert "意志+〈精神抵抗〉8+" in c.pending().option("resist:0").label  # type: ignore[union-attr]
