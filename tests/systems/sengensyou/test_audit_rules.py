"""Audit of ANALYSIS Part 3: rules that had no test of their own before (each test would fail if
the engine broke that rule)."""

from __future__ import annotations

import pytest

from ikusa.engine.errors import RuleViolation
from tests.systems.sengensyou.helpers import char, combat, fi, keys, kind, of_kind, push, st, start_turn, texts

SHOOTER = {"skills": {"ショット": 1, "弾幕": 1, "ホーミング": 2}, "abilities": {"魔法": 2}}


def test_gr05_defence_declared_after_seeing_the_value_with_its_dp() -> None:
    """G-R05 (003:L33-35): the defender sees the attack's 達成値 and only then picks the DP."""
    c = combat([char("a", "x", **SHOOTER), char("b", "y", dp=4)])
    start_turn(c, declare={"a": 19, "b": 0})
    push(c, "shot:b:2:magic", [6, 5])  # 3 + 1 + 11 = 15
    d = c.pending()
    assert d is not None and d.kind == "defence" and "達成値15" in d.prompt
    assert [k for k in keys(c) if k.startswith("evade:")] == ["evade:1", "evade:2", "evade:3", "evade:4"]
    assert all("≥ 15" in o.label for o in d.options if o.key.startswith("evade:"))


def test_gr07_focus_is_declared_after_initiative_and_only_then() -> None:
    """G-R07 (003:L66): 防御専念 is declared at turn start after the initiative is fixed, never
    on the action decision."""
    c = combat([char("a", "x"), char("k", "x"), char("b", "y", **SHOOTER)])
    ev = start_turn(c, declare={"a": 0, "k": 0, "b": 19}, rows={"k": "back"}, focus=["k"])
    kinds = [e.kind for e in ev]
    assert kinds.index("initiative") < kinds.index("rows") < kinds.index("focus")
    assert kind(c) == "action" and not [k for k in keys(c) if k.startswith("focus")]
    with pytest.raises(RuleViolation):
        push(c, "focus:yes")


def test_gr07_focus_halves_the_barrage_for_the_focused_only() -> None:
    """G-R07 / G-G25: only the 防御専念 character's 弾幕 is halved (切り上げ)."""
    c = combat([char("a", "x", skills={"弾幕": 1}, abilities={"魔法": 5}), char("f", "y"), char("k", "y")])
    start_turn(c, declare={"a": 19, "f": 0, "k": 0}, rows={"k": "back"}, focus=["k"])
    push(c, "barrage:magic")
    assert "DP減少5" in c.pending().prompt  # type: ignore[union-attr]  # f: full
    push(c, "barrage:pay")
    assert c.pending().actor == "k" and "DP減少3 / ダメージ3" in c.pending().prompt  # type: ignore[union-attr]


def test_gr15_element_user_judges_with_the_better_of_chisei_and_kankaku() -> None:
    """G-R15 (003:L262): [属性使い] uses 知性 or 感覚 for the check and the damage."""
    c = combat([char("a", "x", stats={"感覚": 6}, skills={"ショット": 1}, abilities={"属性使い": 2}),
                char("b", "y")])
    start_turn(c, declare={"a": 19, "b": 0})
    label = c.pending().option("shot:b:1:element").label  # type: ignore[union-attr]
    assert "7+1D6" in label and "ダメージ2D+感覚" in label  # 感覚6 + 〈ショット〉1


def test_gr30_evasive_manoeuvre_is_no_target_for_shots() -> None:
    """G-R30 (003:L256-258): in the simplified rules 回避機動 neither makes nor receives ショット."""
    c = combat([char("p", "pc", **SHOOTER), char("boss", "npc"), char("mob", "npc")], pc_side="pc", leader="boss",
               options={"simplified": True})
    ev = []
    while kind(c) == "row":
        d = c.pending()
        assert d is not None
        ev += push(c, "row:back" if d.actor == "mob" else "row:front")
    assert "回避機動" in texts(ev) and "接敵機動" in texts(ev)
    while kind(c) != "action" or c.pending().actor != "p":  # type: ignore[union-attr]
        push(c, "focus:no" if kind(c) == "focus" else "wait")
    assert "shot:boss:1:magic" in keys(c) and not [k for k in keys(c) if k.startswith("shot:mob:")]


def test_gg16_guard_allowed_against_spells() -> None:
    """G-G16: ガード works against shot, homing, melee and spells (not 弾幕)."""
    c = combat([char("a", "x", abilities={"魔法": 1}, spells=["fire_bolt"]), char("b", "y", skills={"近接武器": 2})])
    start_turn(c, declare={"a": 19, "b": 0})
    push(c, "spell:fire_bolt:b:2", [6, 6])  # 3 + 1 + 12 = 16 ≥ 10
    assert kind(c) == "defence" and "guard:1" in keys(c)
    ev = push(c, "guard:1", [1, 2, 3, 4])  # 3 + 2 + 1 = 6 < 16: fails; damage 3D[2,3,4] + 3 = 12 − 4
    assert of_kind(ev, "guard")[0].data["reduction"] == 4 and fi(c, "b").guard_used
    assert fi(c, "b").hp == 22 - 8


def test_gg18_graze_from_a_barrage_cannot_pay_its_own_reigeki() -> None:
    """G-G18: graze earned in an exchange is usable only once it is resolved: a target with 2
    graze paying a 弾幕 of 3 gets no 霊撃 option within that 弾幕."""
    c = combat([char("a", "x", skills={"弾幕": 1}, abilities={"魔法": 3}), char("b", "y")])
    start_turn(c, declare={"a": 19, "b": 0})
    fi(c, "b").graze = 2
    push(c, "barrage:magic")
    assert not [k for k in keys(c) if k.startswith("graze:reigeki")]
    push(c, "barrage:pay")
    assert fi(c, "b").graze == 5 and fi(c, "b").dp == 16


def test_gr12_reigeki_only_against_barrage() -> None:
    """G-R12 (003:L141): 霊撃 only when a 弾幕 attack is made — not in a shot's defence."""
    c = combat([char("a", "x", **SHOOTER), char("b", "y")])
    start_turn(c, declare={"a": 19, "b": 0})
    fi(c, "b").graze = 9
    push(c, "shot:b:1:magic", [3])
    assert kind(c) == "defence" and not [k for k in keys(c) if k.startswith("graze:")]


def test_gr21_deploy_card_any_time_even_inside_a_defence() -> None:
    """G-R21: a 展開型 card may be deployed at any timing — here while answering a shot; the DP
    it recovers is usable for the evasion, and the card then takes the damage."""
    c = combat([char("a", "x", **SHOOTER), char("b", "y", abilities={"神術・陰陽術": 4}, spell_cards=["fuuma_jin"],
                                                  dp=1)])
    start_turn(c, declare={"a": 19, "b": 0})
    push(c, "shot:b:2:magic", [6, 6])  # 16
    assert "deploy:fuuma_jin" in keys(c) and "evade:2" not in keys(c)
    ev = push(c, "deploy:fuuma_jin")
    assert of_kind(ev, "sc_recovery")[0].data["recovery"] == 4 and fi(c, "b").dp == 5
    assert kind(c) == "defence" and "evade:5" in keys(c)
    ev = push(c, "none", [1, 1])  # 2D + 知性3 = 5 → the card (HP 10) takes it
    assert fi(c, "b").hp == 22 and of_kind(ev, "sc_absorb")[0].data["absorbed"] == 5


def test_gr28_reinforcement_dp_is_capped_and_it_acts_that_turn() -> None:
    """G-R28 / G-G03: DP回復数 × 2 (never above DP最大値); joins the initiative of its turn."""
    c = combat([char("a", "x"), char("b", "y")],
               reinforcements=[{"turn": 2, "character": char("r", "x", dp_recovery=12)}])
    start_turn(c, declare={"a": 19, "b": 0})
    push(c, "wait")
    ev = push(c, "wait")
    assert fi(c, "r").dp == 19 and of_kind(ev, "reinforcement")[0].data["dp"] == 19
    start_turn(c)
    assert "r" in st(c).order
