"""Audit of the 千幻抄 engine against ANALYSIS Part 3: the deviations found and fixed.

Each test names the rule (G-R / G-G id) and fails on the engine as it was before the fix.
"""

from __future__ import annotations

from itertools import product

import pytest

from ikusa.engine.errors import RuleViolation
from ikusa.systems.sengensyou.check import fixed_dice_value
from ikusa.systems.sengensyou.checks_flow import p_at_least
from tests.systems.sengensyou.helpers import char, combat, fi, keys, kind, of_kind, push, st, start_turn, texts

SHOOTER = {"skills": {"ショット": 1, "弾幕": 1, "ホーミング": 1}, "abilities": {"魔法": 2}}
MELEE = {"stats": {"感覚": 6}, "skills": {"回避": 5, "近接武器": 1}, "feats": {"鍛錬": 1}}


def brute_hit(att_base: int, att_n: int, def_base: int, def_n: int, defender_wins_ties: bool) -> float:
    """P(attack beats a defence), by enumerating every face (independent of the engine)."""
    wins = total = 0
    for a in product(range(1, 7), repeat=att_n):
        for d in product(range(1, 7), repeat=def_n):
            total += 1
            at, de = att_base + sum(a), def_base + sum(d)
            wins += at > de if defender_wins_ties else at >= de
    return wins / total


def option(c: object, key: str) -> object:
    d = c.pending()  # type: ignore[attr-defined]
    assert d is not None
    o = d.option(key)
    assert o is not None, key
    return o


def test_gg26_no_wait_bonus_after_spending_dp_on_movement() -> None:
    """G-G26 / G-R06: 待機 = no attack and no DP spent on the own turn.  A rolled move spends DP,
    so the turn can only end without the +2 (was: 待機 offered and +2 granted)."""
    c = combat([char("a", "x"), char("b", "y")])
    start_turn(c, declare={"a": 19, "b": 0})
    push(c, "move:roll:1", [3])
    assert "wait" not in keys(c) and "end" in keys(c)
    with pytest.raises(RuleViolation, match="G-G26"):
        push(c, "wait")
    ev = push(c, "end")
    assert of_kind(ev, "end")[0].rule == "G-G26" and not fi(c, "a").waited
    ev = push(c, "wait")  # b waits; turn 2 starts with the recovery
    rec = {e.data["who"]: e.data["recovery"] for e in of_kind(ev, "dp_recovery")}
    assert rec == {"a": 2, "b": 2 + 2}


def test_gg26_free_movement_keeps_wait() -> None:
    """G-G26: dice-free movement is allowed during 待機."""
    c = combat([char("a", "x"), char("b", "y")])
    start_turn(c, declare={"a": 19, "b": 0})
    push(c, "move:free")
    assert "wait" in keys(c) and "end" not in keys(c)
    with pytest.raises(RuleViolation, match="G-R06"):
        push(c, "end")
    push(c, "wait")
    assert fi(c, "a").wait_bonus == 2


def test_gg09_ties_to_attacker_reach_every_odds() -> None:
    """G-G09 option defence_tie: evade, guard and shot odds all follow it (guard and shot odds
    used to assume ties to the defender whatever the option said)."""
    for tie, shift in (("defender", 0), ("attacker", 1)):
        c = combat([char("a", "x", **SHOOTER), char("b", "y", skills={"近接武器": 1}, dp=1)],
                   options={"defence_tie": tie})
        start_turn(c, declare={"a": 19, "b": 0})
        shot = option(c, "shot:b:1:magic")
        assert shot.odds == pytest.approx(brute_hit(3 + 1, 1, 3, 1, tie == "defender"))  # type: ignore[attr-defined]
        push(c, "shot:b:1:magic", [5])  # 3 + 1 + 5 = 9
        assert option(c, "evade:1").odds == pytest.approx(p_at_least(3, 1, 9 + shift))  # type: ignore[attr-defined]
        assert option(c, "guard:1").odds == pytest.approx(p_at_least(4, 1, 9 + shift))  # type: ignore[attr-defined]


def test_gr29_fixed_npc_values_make_odds_certain() -> None:
    """G-R29 / G-G30: an NPC's check is 判定値 + floor(3.5 × dice); odds of its defence are 0 or 1
    and a PC's shot odds are against that fixed value (they used to assume a roll)."""
    c = combat([char("a", "x", **SHOOTER), char("b", "y", dp=2)], pc_side="x", options={"npc_fixed_dice": True})
    start_turn(c, declare={"a": 19, "b": 0})
    fixed = 3 + fixed_dice_value(2)  # b evading with both DP: 3 + 7 = 10
    for n in (1, 2, 3):
        assert option(c, f"shot:b:{n}:magic").odds == pytest.approx(  # type: ignore[attr-defined]
            p_at_least(4, n, fixed + 1))
    push(c, "shot:b:2:magic", [3, 3])  # 4 + 6 = 10
    assert option(c, "evade:2").odds == 1.0 and option(c, "evade:1").odds == 0.0  # type: ignore[attr-defined]
    ev = push(c, "evade:2")
    assert of_kind(ev, "evade")[0].data["total"] == 10 and fi(c, "b").graze == 2 + 2


def test_gg35_recovery_start_adds_to_the_dp_left_after_the_lead_in() -> None:
    """G-G35 / G-R23: 'recovery' = the DP left after the tense lead-in + DP回復数 (it used to
    replace the recorded DP with DP回復数)."""
    c = combat([char("a", "x", dp=5), char("b", "y")], options={"dp_start": "recovery"})
    assert fi(c, "a").dp == 5 + 2 and fi(c, "b").dp == 0 + 2
    c = combat([char("a", "x", dp=18), char("b", "y")], options={"dp_start": "recovery"})
    assert fi(c, "a").dp == 19  # capped at DP最大値 (G-G03)
    c = combat([char("a", "x", dp=5), char("b", "y")])
    assert fi(c, "a").dp == 5 and fi(c, "b").dp == 19


def test_gr24_melee_hit_check_also_capped_beyond_30m() -> None:
    """G-R24: attacking from beyond 30 m rolls at most 3 dice — the melee hit check too (only
    the approach was capped)."""
    c = combat([char("a", "x", **MELEE), char("b", "y")], surprise={"side": "x", "range": "outside"})
    start_turn(c, declare={"a": 19, "b": 0})
    assert "melee:b:2" in keys(c) and "melee:b:3" not in keys(c)  # 3 dice, one kept for the hit
    push(c, "melee:b:2", [6, 6])  # 6 + 5 + 12 = 23 ≥ 15 + 3 + 0
    assert kind(c) == "melee_hit" and keys(c) == ["hit:1", "hit:2", "hit:3"]


def test_gr24_far_tn_applies_to_homing() -> None:
    """G-R24 / G-G29: from 100 m the hit must reach the GM's TN — homing's fixed 達成値 too."""
    c = combat([char("a", "x", **SHOOTER), char("b", "y")], surprise={"side": "x", "range": "far"})
    start_turn(c, declare={"a": 19, "b": 0})
    ev = push(c, "homing:magic:b")  # 3 + 1 + 10 = 14 < 15
    assert of_kind(ev, "far_tn")[0].data["success"] is False and kind(c) == "action"
    c = combat([char("a", "x", **SHOOTER), char("b", "y")], surprise={"side": "x", "range": "far"})
    start_turn(c, declare={"a": 19, "b": 0})
    ev = push(c, "homing:magic:b+1", [1])  # 24 ≥ 15; b (unaware beyond 30 m) cannot evade: hit
    assert of_kind(ev, "far_tn")[0].data["success"] is True and of_kind(ev, "damage")[0].data["amount"] == 1 + 3


def test_gr24_hit_odds_know_complete_surprise() -> None:
    """G-R24: an unaware, unvigilant target cannot evade, so the shot's odds are 100 %."""
    c = combat([char("a", "x", skills={"ショット": 1, "隠密": 1}, abilities={"魔法": 2}),
                char("b", "y", vigilant=False)], surprise={"side": "x", "range": "within"})
    start_turn(c, declare={"a": 19, "b": 0})
    assert option(c, "shot:b:1:magic").odds == 1.0  # type: ignore[attr-defined]


def test_gr27_hidden_character_in_focus_rolls_stealth() -> None:
    """G-R27: a hidden character not acting is checked every turn (also when 防御専念 ends its
    turn, which used to skip the check)."""
    c = combat([char("h", "x", hidden=True), char("f", "x"), char("b", "y", skills={"感知": 2})])
    start_turn(c, declare={"h": 19, "f": 0, "b": 0}, rows={"h": "back"}, focus=["h"])
    ev = push(c, "end")
    assert "発見された" in texts(ev) and not fi(c, "h").hidden


def test_gr10_melee_cannot_target_the_back_row() -> None:
    """G-R10 (003:L104): the back row is not a target of 近接攻撃."""
    c = combat([char("a", "x", **MELEE), char("b", "y"), char("k", "y")])
    start_turn(c, declare={"a": 19, "b": 0, "k": 0}, rows={"k": "back"})
    assert "melee:b:1" in keys(c) and not [k for k in keys(c) if k.startswith("melee:k:")]
    with pytest.raises(RuleViolation, match="G-R10"):
        push(c, "melee:k:1", [6])


def test_gr15_gun_shot_needs_both_skills_even_without_condition_b() -> None:
    """G-R15 (003:L269): 〈【射撃武器】〉〈ショット〉の両方のスキルが必要 — also when the G-G01
    option require_attack_skill is off (it used to allow a gun shot without 〈ショット〉)."""
    gun = {"skills": {"射撃武器": 2, "弾幕": 1}, "feats": {"鍛錬": 2}}
    c = combat([char("a", "x", **gun), char("b", "y")], options={"require_attack_skill": False})
    start_turn(c, declare={"a": 19, "b": 0})
    assert "barrage:gun" in keys(c) and not [k for k in keys(c) if k.startswith("shot:")]
    gun["skills"] = {"射撃武器": 2, "ショット": 1}
    c = combat([char("a", "x", **gun), char("b", "y")], options={"require_attack_skill": False})
    start_turn(c, declare={"a": 19, "b": 0})
    assert "shot:b:1:gun" in keys(c) and "shot:b:1:gun-w" in keys(c)


def test_action_options_most_used_first_and_labelled() -> None:
    """Play experience: attacks first (弾幕, ホーミング, ショット …), rolled movement last; each
    shot label says what the odds mean and what the shot costs the target."""
    c = combat([char("a", "x", **SHOOTER), char("b", "y")])
    start_turn(c, declare={"a": 19, "b": 0})
    ks = keys(c)
    assert ks[:3] == ["wait", "barrage:magic", "homing:magic:b"] and ks[-1] == "move:roll:19"
    assert ks.index("shot:b:19:magic") < ks.index("other:1") < ks.index("move:free")
    label = option(c, "shot:b:3:magic").label  # type: ignore[attr-defined]
    assert "全DP回避でも命中0%" in label and "回避に約" in label and "相手DP19" in label
    c = combat([char("a", "x", **SHOOTER), char("b", "y"), char("d", "y")])
    start_turn(c, declare={"a": 19, "b": 0, "d": 0})
    shots = [k for k in keys(c) if k.startswith("shot:")]
    assert shots[:4] == ["shot:b:1:magic", "shot:d:1:magic", "shot:b:2:magic", "shot:d:2:magic"]
    assert st(c).pending() is not None
