"""G-T09..G-T15: homing, damage table by bullet source, melee, approach TN, guard."""

from __future__ import annotations

import pytest

from ikusa.engine.errors import InputError, RuleViolation
from ikusa.systems.sengensyou import encounter_from_dict
from ikusa.systems.sengensyou.attacks import approach_tn
from ikusa.systems.sengensyou.bullets import melee_numbers, variants
from ikusa.systems.sengensyou.character import CharacterSpec, new_fighter
from ikusa.systems.sengensyou.options import SengensyouOptions
from tests.systems.sengensyou.helpers import char, combat, fi, keys, of_kind, push, st, start_turn, texts


def fighter(**kw: object):  # type: ignore[no-untyped-def]
    return new_fighter(CharacterSpec.model_validate(char("a", "x", **kw)), SengensyouOptions())


def test_gt09_homing_targets_cost_and_fixed_value() -> None:
    """G-T09 (003:L272-275, L319): 知性4, 〈ホーミング〉5 → ≤ 3 targets, 6 DP, 達成値 19; a
    boosted target (+2 DP, 8 in all) faces 29."""
    c = combat([char("a", "x", stats={"知性": 4}, skills={"ホーミング": 5}, abilities={"魔法": 2}),
                *(char(t, "y") for t in "bcde")])
    start_turn(c, declare={"a": 19})
    opts = {o.key: o for o in c.pending().options}  # type: ignore[union-attr]
    assert opts["homing:magic:b,c,d"].cost == 6 and opts["homing:magic:b+1,c,d"].cost == 8
    assert not [k for k in opts if k.startswith("homing:") and len(k.split(":")[2].split(",")) > 3]
    with pytest.raises(RuleViolation, match="G-R16"):
        push(c, "homing:magic:b,c,d,e")
    push(c, "homing:magic:b+1,c,d")
    assert fi(c, "a").dp == 19 - 8
    assert "達成値29" in c.pending().prompt  # type: ignore[union-attr]
    ev = push(c, "evade:1", [1, 3])  # 3 + 1 = 4 < 29 → hit: ceil(2/2) = 1D6[3] + 知性4 = 7
    assert "1D6[3]+4=7" in texts(ev) and fi(c, "b").hp == 22 - 7 and fi(c, "b").graze == 0


def test_gt09_each_target_defends_against_its_own_value() -> None:
    """G-T09 / G-G34: the unboosted targets face 19."""
    c = combat([char("a", "x", stats={"知性": 4}, skills={"ホーミング": 5}, abilities={"魔法": 2}),
                *(char(t, "y") for t in "bcd")])
    start_turn(c, declare={"a": 19})
    push(c, "homing:magic:b+1,c")
    assert c.pending().actor == "b" and "達成値29" in c.pending().prompt  # type: ignore[union-attr]
    ev = push(c, "evade:6", [6, 6, 6, 6, 6, 6])  # 3 + 36 = 39 ≥ 29
    assert fi(c, "b").graze == 12
    assert c.pending().actor == "c" and "達成値19" in c.pending().prompt  # type: ignore[union-attr]
    ev = push(c, "none", [2])  # damage 1D6[2] + 知性4 = 6
    assert "1D6[2]+4=6" in texts(ev) and fi(c, "c").hp == 22 - 6


def test_gt10_homing_dice_halved_rounded_up() -> None:
    """G-T10 (003:L161, L274; X4): Lv5 → 3D+知性, Lv4 → 2D+知性; a shot at Lv5 → 5D+知性."""
    f5 = fighter(skills={"ホーミング": 1, "ショット": 1}, abilities={"魔法": 5})
    f4 = fighter(skills={"ホーミング": 1}, abilities={"魔法": 4})
    assert [v.damage_dice for v in variants(f5, "homing")] == [3]
    assert [v.damage_dice for v in variants(f4, "homing")] == [2]
    assert [v.damage_dice for v in variants(f5, "shot")] == [5]
    assert variants(f5, "shot")[0].damage_text() == "5D+知性"


def test_gt11_youdan_combined_with_song() -> None:
    """G-T11 (003:L264-266, G-G19): 感覚 + 〈ショット〉 + 1; 〈歌〉 below [妖力] is refused."""
    f = fighter(stats={"感覚": 5}, skills={"ショット": 2, "歌": 3}, abilities={"妖力": 3, "妖弾化": 1},
                youdan_skill="歌")
    (v,) = variants(f, "shot")
    assert (v.stat, v.check_base(f), v.damage_dice) == ("感覚", 5 + 2 + 1, 3)
    (h,) = variants(f, "homing", need_skill=False)
    assert h.check_base(f) == 5 + 0 + 10 + 1
    bad = char("m", "x", skills={"ショット": 2, "歌": 2}, abilities={"妖力": 3, "妖弾化": 1}, youdan_skill="歌")
    with pytest.raises(InputError, match="G-R15") as err:
        encounter_from_dict({"characters": [bad, char("b", "y")]}, "duel.yaml")
    assert err.value.source == "duel.yaml" and err.value.field == "characters[0].youdan_skill"


def test_gt12_shooting_weapon_damage_by_check_skill() -> None:
    """G-T12 (003:L267-269, G-G20): judged with 〈【射撃武器】〉3, [鍛錬]2, 身体4 → 2D+4+3;
    judged with 〈ショット〉 → 2D+4."""
    f = fighter(stats={"身体": 4}, skills={"ショット": 1, "射撃武器": 3}, feats={"鍛錬": 2})
    by_key = {v.key: v for v in variants(f, "shot")}
    assert (by_key["gun"].damage_dice, f.stat(by_key["gun"].stat) + by_key["gun"].fixed_damage) == (2, 4)
    assert (by_key["gun-w"].damage_dice, f.stat(by_key["gun-w"].stat) + by_key["gun-w"].fixed_damage) == (2, 7)
    assert by_key["gun"].check_base(f) == 5 and by_key["gun-w"].check_base(f) == 7
    c = combat([char("a", "x", stats={"身体": 4}, skills={"ショット": 1, "射撃武器": 3}, feats={"鍛錬": 2}),
                char("b", "y")])
    start_turn(c, declare={"a": 20})
    push(c, "shot:b:1:gun-w", [1])
    ev = push(c, "none", [1, 1])
    assert "2D6[1,1]+7=9" in texts(ev) and fi(c, "b").hp == 22 - 9


def test_homing_with_weapons_needs_wazamono() -> None:
    """G-R04 / G-R16: a shooting weapon homes only with the item [業物]."""
    plain = fighter(skills={"ホーミング": 2, "射撃武器": 1}, feats={"鍛錬": 2})
    assert variants(plain, "homing") == []
    item = fighter(skills={"ホーミング": 2, "射撃武器": 1}, feats={"鍛錬": 3}, items=["業物"])
    (v,) = variants(item, "homing")
    assert (v.damage_dice, v.stat) == (2, "身体")


def test_blade_wave_shot_adds_melee_skill() -> None:
    """G-R15 (003:L270-271): melee weapon as a shot only with [剣閃・波動]; +〈【近接武器】〉Lv."""
    f = fighter(stats={"身体": 5}, skills={"ショット": 1, "近接武器": 3}, feats={"鍛錬": 2, "剣閃・波動": 1})
    (v,) = variants(f, "shot")
    assert (v.key, v.damage_dice, v.fixed_damage, v.check_base(f)) == ("blade_wave", 2, 3, 6)
    assert variants(fighter(skills={"ショット": 1, "近接武器": 3}, feats={"鍛錬": 2}), "shot") == []


def test_gt13_melee_numbers() -> None:
    """G-T13 (003:L290-292): 身体4, 〈【近接武器】〉3, [鍛錬]3 → check 7 + dice; 3D+4+3."""
    f = fighter(stats={"身体": 4}, skills={"近接武器": 3}, feats={"鍛錬": 3})
    assert melee_numbers(f) == (7, 3, 7)


def test_gt13_melee_graze_four() -> None:
    """G-T13: spending 4 graze on a melee hit → +4."""
    c = combat([char("a", "x", stats={"身体": 4, "感覚": 6}, skills={"近接武器": 3, "回避": 6}, feats={"鍛錬": 3}),
                char("b", "y")])
    fi(c, "a").graze = 3
    start_turn(c, declare={"a": 20})
    push(c, "melee:b:1", [6])  # 6+6+6 = 18 ≥ 15+3+0 → graze 4
    ev = push(c, "hit:1", [2])
    assert "7+1D6[2]=9" in texts(ev)
    push(c, "none", [1, 1, 1])  # 3D6[1,1,1] + 4 + 3 = 10
    push(c, "graze:melee:4")
    assert fi(c, "b").hp == 22 - 14 and fi(c, "a").graze == 0


def test_gt14_approach_tn() -> None:
    """G-T14 (003:L320, G-G15): 身体3, 〈回避〉4, 〈弾幕〉2 → 3 + max(4, 2) + 15 = 22."""
    c = combat([char("a", "x"), char("b", "y", stats={"身体": 3}, skills={"回避": 4, "弾幕": 2})])
    assert approach_tn(st(c), fi(c, "b")) == 22


def test_gt15_failed_guard_reduces_and_only_once_per_turn() -> None:
    """G-T15 (003:L308-310): failed guard with 〈【近接武器】〉2 → −4; a second guard is refused."""
    shooter = {"skills": {"ショット": 1}, "abilities": {"魔法": 2}}
    c = combat([char("a1", "x", **shooter), char("a2", "x", **shooter), char("b", "y", skills={"近接武器": 2})])
    start_turn(c, declare={"a1": 19, "a2": 18, "b": 0})
    push(c, "shot:b:1:magic", [6])  # 4 + 6 = 10
    assert "guard:1" in keys(c)
    ev = push(c, "guard:1", [1, 3, 3])  # 身体3 + 2 + 1 = 6 < 10: fails, still −2×2; damage 3+3+3 = 9
    assert "失敗 (ダメージ -4)" in texts(ev) and "軽減 9-4=5" in texts(ev)
    assert fi(c, "b").hp == 22 - (3 + 3 + 3 - 4) and fi(c, "b").guard_used
    push(c, "shot:b:1:magic", [6])
    assert not [k for k in keys(c) if k.startswith("guard:")]
    with pytest.raises(RuleViolation, match="G-R19"):
        push(c, "guard:1", [6])


def test_guard_success_blocks_and_gives_no_graze() -> None:
    """G-R19: a successful guard: no damage, no graze."""
    c = combat([char("a", "x", skills={"ショット": 1}, abilities={"魔法": 2}), char("b", "y", skills={"近接武器": 2})])
    start_turn(c, declare={"a": 19, "b": 0})
    push(c, "shot:b:1:magic", [1])  # 5
    ev = push(c, "guard:1", [1])  # 6 ≥ 5
    assert of_kind(ev, "guard")[0].data["success"] and fi(c, "b").hp == 22 and fi(c, "b").graze == 0


def test_homing_boost_once_per_target_unless_repeatable() -> None:
    """G-G12: +10 per extra 2 DP at most once per target by default."""
    chars = [char("a", "x", skills={"ホーミング": 2}, abilities={"魔法": 2}), char("b", "y")]
    c = combat(chars)
    start_turn(c, declare={"a": 19, "b": 0})
    assert "homing:magic:b+1" in keys(c) and "homing:magic:b+2" not in keys(c)
    with pytest.raises(RuleViolation, match="G-G12"):
        push(c, "homing:magic:b+2")
    c2 = combat(chars, options={"homing_boost_repeatable": True})
    start_turn(c2, declare={"a": 19, "b": 0})
    push(c2, "homing:magic:b+2")
    assert fi(c2, "a").dp == 19 - 6 and "達成値35" in c2.pending().prompt  # type: ignore[union-attr]
