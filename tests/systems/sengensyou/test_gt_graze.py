"""G-T01..G-T08, G-T28: graze gains and spends, 霊撃 and 防御専念 with exact numbers."""

from __future__ import annotations

from typing import Any

from ikusa.engine.combat import Combat
from ikusa.systems.sengensyou.graze import boost_cost
from tests.systems.sengensyou.helpers import char, combat, fi, keys, kind, of_kind, push, start_turn, texts

SHOOTER = {"skills": {"ショット": 1, "弾幕": 1, "ホーミング": 2}, "abilities": {"魔法": 2}}


def duel(a: dict[str, Any] | None = None, b: dict[str, Any] | None = None, graze: dict[str, int] | None = None,
         **enc: Any) -> Combat:
    """a (shooter, acts first) against b; ``graze`` is set before any option is listed."""
    c = combat([char("a", "x", **{**SHOOTER, **(a or {})}), char("b", "y", **(b or {}))], **enc)
    for fid, g in (graze or {}).items():
        fi(c, fid).graze = g
    start_turn(c, declare={"a": fi(c, "a").dp, "b": 0})
    return c


def test_gt01_shot_evaded_gives_attacker_plus_defender_dice() -> None:
    """G-T01 (003:L122, L333): attack 3 DP + evasion 4 DP → +7 graze for the evader."""
    c = duel()
    ev = push(c, "shot:b:3:magic", [1, 1, 1])  # 知性3+〈ショット〉1 = 4 + 3 = 7
    assert kind(c) == "defence" and "達成値7" in c.pending().prompt  # type: ignore[union-attr]
    ev = push(c, "evade:4", [1, 1, 1, 1])  # 感覚3 + 4 = 7 ≥ 7 (ties to the defender, G-G09)
    assert fi(c, "b").graze == 7 and fi(c, "b").dp == 19 - 4 and fi(c, "a").dp == 19 - 3
    assert "グレイズ +7" in texts(ev)


def test_gt01_failed_evasion_gives_no_graze() -> None:
    c = duel()
    push(c, "shot:b:3:magic", [6, 6, 6])  # 4 + 18 = 22
    ev = push(c, "evade:4", [1, 1, 1, 1, 1, 1])
    # 7 < 22: hit; damage [魔法]Lv2 → 2D6[1,1] + 知性3 = 5
    assert fi(c, "b").graze == 0 and fi(c, "b").hp == 22 - 5
    assert "2D6[1,1]+3=5" in texts(ev)


def test_gt02_homing_evaded_gives_twice_the_dice() -> None:
    """G-T02 (003:L124, L334): homing evaded with 3 dice → +6."""
    c = duel()
    push(c, "homing:magic:b", [])  # 知性3+〈ホーミング〉2+10 = 15, no roll (G-G10)
    assert fi(c, "a").dp == 17
    push(c, "evade:3", [6, 6, 6])  # 3 + 18 = 21 ≥ 15
    assert fi(c, "b").graze == 6


def test_gt03_melee_approach_graze_to_attacker_none_for_evading_melee() -> None:
    """G-T03 (003:L126-128, L335): approach with 2 dice → attacker +2; evading the hit → +0."""
    c = duel(a={"skills": {"近接武器": 2, "回避": 6}, "feats": {"鍛錬": 2}, "abilities": {}},
             b={"skills": {"回避": 1}})
    # approach: 感覚3+〈回避〉6 = 9 + [6,4] = 19 ≥ 15 + 身体3 + max(1, 0) = 19
    ev = push(c, "melee:b:2", [6, 4])
    assert fi(c, "a").graze == 2 and "≥ 19 成功" in texts(ev)
    assert kind(c) == "melee_hit"
    push(c, "hit:1", [1])  # 身体3+〈【近接武器】〉2 + 1 = 6
    push(c, "evade:1", [3])  # 感覚3+〈回避〉1 + 3 = 7 ≥ 6
    assert fi(c, "b").graze == 0 and fi(c, "b").hp == 22 and fi(c, "a").dp == 19 - 3


def test_gt03_failed_approach_aborts_without_graze() -> None:
    c = duel(a={"skills": {"近接武器": 2}, "feats": {"鍛錬": 2}, "abilities": {}})
    ev = push(c, "melee:b:2", [1, 1])  # 3 + 2 = 5 < 18
    assert fi(c, "a").graze == 0 and "失敗" in texts(ev) and kind(c) == "action" and fi(c, "a").dp == 17


def test_gt04_barrage_pay_take_and_short_of_dp() -> None:
    """G-T04 (003:L118-121, L332) with DP reduction X = 3 ([魔法]Lv3, G-G06)."""
    c = combat([char("a", "x", skills={"弾幕": 1}, abilities={"魔法": 3}),
                char("b", "y"), char("c", "y"), char("d", "y", dp_max=2)])
    start_turn(c, declare={"a": 19, "b": 0, "c": 0, "d": 0})
    ev = push(c, "barrage:magic")
    assert fi(c, "a").dp == 18 and "DP減少3 または 固定ダメージ3" in texts(ev)
    assert c.pending().actor == "b" and set(keys(c)) == {"barrage:pay", "barrage:take"}  # type: ignore[union-attr]
    push(c, "barrage:pay")
    assert (fi(c, "b").dp, fi(c, "b").graze) == (16, 3)
    ev = push(c, "barrage:take")  # c ignores the barrage; d (2 DP < 3) is hit without a choice
    assert (fi(c, "c").hp, fi(c, "c").graze, fi(c, "c").dp) == (19, 0, 19)
    assert (fi(c, "d").hp, fi(c, "d").graze, fi(c, "d").dp) == (19, 0, 2)
    assert of_kind(ev, "barrage_short")


def test_gt05_graze_to_reiryoku() -> None:
    """G-T05: 11 graze → 霊力 +2, 1 left."""
    c = combat([char("a", "x", **SHOOTER), char("b", "y")])
    fi(c, "a").graze, fi(c, "a").reiryoku = 11, 5
    start_turn(c, declare={"a": 19, "b": 0})
    assert "graze:reiryoku:2" in keys(c) and "graze:reiryoku:3" not in keys(c)
    push(c, "graze:reiryoku:2")
    assert (fi(c, "a").reiryoku, fi(c, "a").graze) == (7, 1) and kind(c) == "action"


def test_gt05_shot_boost_two_to_one() -> None:
    """G-T05: shot boost with 7 graze → +3 damage, 1 left (spent after the damage roll, G-G18)."""
    c2 = duel(graze={"a": 7})
    push(c2, "shot:b:1:magic", [6])
    ev = push(c2, "none", [1, 1])  # damage 2D6[1,1]+3 = 5
    assert kind(c2) == "graze_boost" and keys(c2) == [f"graze:shot:{k}" for k in range(4)]
    ev = push(c2, "graze:shot:3")
    assert fi(c2, "a").graze == 1 and fi(c2, "b").hp == 22 - 8 and "ダメージ+3" in texts(ev)


def test_gt05_melee_boost_one_to_one() -> None:
    """G-T05: melee boost 1:1 — 5 graze → +5 damage."""
    c = duel(a={"stats": {"感覚": 6}, "skills": {"近接武器": 2, "回避": 6}, "feats": {"鍛錬": 2}, "abilities": {}},
             graze={"a": 4})
    push(c, "melee:b:1", [6])  # 感覚6+〈回避〉6 + 6 = 18 ≥ 15+3+0 = 18 → graze 4+1 = 5
    assert fi(c, "a").graze == 5
    push(c, "hit:1", [1])
    push(c, "none", [1, 1])  # damage 2D6[1,1] + 身体3 + 〈【近接武器】〉2 = 7
    assert keys(c)[-1] == "graze:melee:5"
    push(c, "graze:melee:5")
    assert fi(c, "b").hp == 22 - 12 and fi(c, "a").graze == 0


def test_gt05_resistance_three_to_one() -> None:
    """G-T05: resistance with 7 graze → 達成値 +2, 1 left (after the roll, G-G18)."""
    c = duel(a={"abilities": {"神術・陰陽術": 2}, "spells": ["sleep"]}, graze={"b": 7})
    ev = push(c, "spell:sleep:b:2", [3, 4])  # 意志3 + Lv2 + 7 = 12 ≥ TN 10
    assert fi(c, "a").reiryoku == 12 - 3 and "12 ≥ 10 成功" in texts(ev)
    assert kind(c) == "resist"
    push(c, "resist:2", [4, 3])  # 意志3+〈精神抵抗〉0 + 7 = 10 < TN 10 + caster Lv2 = 12 (G-G21)
    assert keys(c) == ["graze:resist:0", "graze:resist:1", "graze:resist:2"]
    ev = push(c, "graze:resist:2")
    assert fi(c, "b").graze == 1 and fi(c, "b").hp == 22 and "12 ≥ 12 成功" in texts(ev)


def test_gt06_multi_target_boost_is_paid_per_target() -> None:
    """G-T06 (003:L142-145): +2 to each of 2 targets costs 4 + 4 = 8."""
    assert boost_cost("shot", 2, 2) == 8
    assert boost_cost("melee", 3, 2) == 6


def test_gt07_reigeki() -> None:
    """G-T07: reduction 5, spend 6 graze → 3."""
    c = duel(a={"abilities": {"魔法": 5}}, graze={"b": 6})
    push(c, "barrage:magic")
    assert {"graze:reigeki:1", "graze:reigeki:2"} <= set(keys(c))
    ev = push(c, "graze:reigeki:2")
    assert "DP減少 5→3" in texts(ev) and "barrage:pay" in keys(c)
    push(c, "barrage:pay")
    assert (fi(c, "b").dp, fi(c, "b").graze) == (16, 3)


def test_gt07_reigeki_after_focus_halving() -> None:
    """G-T07 / G-R07: with 防御専念 5 → ceil(2.5) = 3, then 3 graze → 2."""
    c = combat([char("a", "x", skills={"弾幕": 1}, abilities={"魔法": 5}), char("b", "y"), char("c", "y")])
    fi(c, "b").graze = 3
    start_turn(c, declare={"a": 19, "b": 0, "c": 0}, rows={"b": "back"}, focus=["b"])
    ev = push(c, "barrage:magic")
    assert "DP減少5→3" in texts(ev)
    ev = push(c, "graze:reigeki:1")
    assert "DP減少 3→2" in texts(ev)
    push(c, "barrage:pay")
    assert (fi(c, "b").dp, fi(c, "b").graze) == (17, 2)


def test_gt08_focus_plus_five_and_barrage_damage_halved() -> None:
    """G-T08 (003:L72, L323): evasion +5; 弾幕 fixed damage 7 → 4."""
    c = combat([char("a", "x", skills={"弾幕": 1, "ホーミング": 2}, abilities={"魔法": 3}), char("b", "y"),
                char("c", "y")], options={"barrage_base_damage": 4})
    start_turn(c, declare={"a": 19, "b": 0, "c": 0}, rows={"b": "back"}, focus=["b"])
    push(c, "homing:magic:b")  # homing reaches the back row; 達成値 3+2+10 = 15
    assert "感覚+〈回避〉8+1D6" in next(o.label for o in c.pending().options if o.key == "evade:1")  # type: ignore
    ev = push(c, "evade:2", [6, 1])  # 感覚3 + 〈回避〉0 + 防御専念5 + 7 = 15 ≥ 15
    assert of_kind(ev, "evade")[0].data["total"] == 15 and "防御専念+5" in texts(ev)
    c2 = combat([char("a", "x", skills={"弾幕": 1}, abilities={"魔法": 3}), char("b", "y"), char("c", "y")],
                 options={"barrage_base_damage": 4})
    start_turn(c2, declare={"a": 19, "b": 0, "c": 0}, rows={"b": "back"}, focus=["b"])
    ev = push(c2, "barrage:magic")
    assert "ダメージ7→4" in texts(ev)
    push(c2, "barrage:take")
    assert fi(c2, "b").hp == 22 - 4


def test_gt28_wait_gives_no_graze_and_scene_end_clears_graze() -> None:
    """G-T28 (003:L62, L134, L146)."""
    c = duel(graze={"a": 4}, options={"max_turns": 1})
    push(c, "wait")
    assert fi(c, "a").graze == 4
    push(c, "wait")
    assert kind(c) == "scene_end" and c.pending().actor == "GM"  # type: ignore[union-attr]
    ev = push(c, "end_scene")
    assert fi(c, "a").graze == 0 and c.over and "グレイズ消滅" in texts(ev)
