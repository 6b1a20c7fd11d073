"""Breaths in flow: overload (S-T15), the 0-活力 [型] cap (S-T32), 戦力 (S-T34), 連撃疲労
(S-T37), and illegal actions refused with the rule named and the state unchanged."""

from __future__ import annotations

import pytest

from ikusa.dice.source import ScriptedSource
from ikusa.engine.errors import RuleViolation

from .maai_flow_support import combat, find, kinds, push, state, unit

ZANBA = ["zanbatou.zanba", "zanbatou.kiriage"]
KEN: dict[str, str] = {"剣術": "入門"}


def test_s_t15_overload_success_next_limit_3() -> None:
    """S-T15: 斬馬 3 + 切上げ 3 = 6 > 5, 體+1: 2d10 + 1 − 1; [6,6] = 12 ≥ 11 → success, both
    maneuvers resolved, next breath limit 3; the doubles carry no 会心 effect."""
    s = state(unit("a", "A", gi=1, tai=1, fate=0, maneuvers=ZANBA, skills=KEN),
              unit("b", "B", gi=0, wounds=9, fate=0, maneuvers=["kanabou.kyouda"]))
    push(s, "use:zanbatou.zanba>b", 6, 5)
    push(s, "use:zanbatou.kiriage>b", 7, 4)
    assert s.by_id["b"].wounds == 7  # both maneuvers resolved
    ev = push(s, "end", 6, 6)
    o = find(ev, "overload")
    assert o.data == {"unit": "a", "excess": 1, "total": 12, "success": True, "vigor": 5}
    assert "defenceless" not in kinds(ev) and s.by_id["a"].vigor == 5
    ev = push(s, "pass")  # b passes; a's next breath begins with limit 3
    assert find(ev, "breath").data["limit"] == 3


def test_s_t15_overload_failure_loses_vigor_and_defenceless() -> None:
    """S-T15 failure variant: [3,4] = 7 < 11 → maneuvers still resolved, remaining 活力 → 0, 無防備."""
    s = state(unit("a", "A", gi=1, tai=1, fate=0, maneuvers=ZANBA, skills=KEN),
              unit("b", "B", gi=0, wounds=9, fate=0, maneuvers=["kanabou.kyouda"]))
    push(s, "use:zanbatou.zanba>b", 6, 5)
    push(s, "use:zanbatou.kiriage>b", 7, 4)
    ev = push(s, "end", 3, 4)
    o = find(ev, "overload")
    assert (o.data["total"], o.data["success"]) == (7, False)
    a = s.by_id["a"]
    assert a.vigor == 0 and a.defenceless and s.by_id["b"].wounds == 7
    assert s.defence_of(a, None) == 6  # 10 − 4 (S-T36)


def test_breath_within_limit_has_no_overload() -> None:
    s = state(unit("a", "A", gi=1, fate=0, maneuvers=["katana.yokogiri"], skills=KEN),
              unit("b", "B", wounds=9, fate=0, maneuvers=["kanabou.kyouda"]))
    push(s, "use:katana.yokogiri>b", 6, 5)
    push(s, "use:katana.yokogiri>b", 6, 5)
    ev = push(s, "end")
    assert "overload" not in kinds(ev)


def test_s_t32_third_zero_vigor_kata_refused_then_back_after_lull() -> None:
    """S-T32 / S-R59: 1st and 2nd 0-活力 [型] allowed, the 3rd refused naming S-R59 with the
    state unchanged; after 小康 two are available again."""
    c = combat(unit("a", "A", gi=1, fate=0, maneuvers=["katana.yokogiri"], feats=["kata_a", "kata_b", "kata_c"]),
               unit("b", "B", fate=0, maneuvers=["kanabou.kyouda"]))
    c.push("use:kata_a", ScriptedSource([]))
    c.push("use:kata_b", ScriptedSource([]))
    before = c.state.summary()
    n = len(c.record)
    with pytest.raises(RuleViolation) as err:
        c.push("use:kata_c", ScriptedSource([]))
    assert err.value.rule == "S-R59"
    assert c.state.summary() == before and len(c.record) == n
    with pytest.raises(RuleViolation) as err2:
        c.push("use:kata_a", ScriptedSource([]))
    assert err2.value.rule == "S-R59"
    c.push("end", ScriptedSource([]))
    c.push("pass", ScriptedSource([]))  # b
    c.push("pass", ScriptedSource([]))  # a again (count 11), passes → 小康 → 第2間合
    d = c.pending()
    assert d is not None and d.actor == "a"
    assert c.state.maai == 2  # type: ignore[attr-defined]
    assert {"use:kata_a", "use:kata_b", "use:kata_c"} <= set(d.keys())
    c.push("use:kata_c", ScriptedSource([]))
    c.push("use:kata_a", ScriptedSource([]))
    assert "use:kata_b" not in c.pending().keys()  # type: ignore[union-attr]


def test_s_t34_two_crits_take_four_wounds() -> None:
    """S-T34: 戦力 4 (體+1): 会心, 会心 → 4 → 2 → 0 → 戦闘不能."""
    s = state(unit("x", "A", gi=1, fate=0, maneuvers=["katana.yokogiri"], skills={"剣術": "入門"}),
              unit("t", "B", tai=1, fate=0, maneuvers=["kanabou.kyouda"]))
    assert s.by_id["t"].wounds == 4
    push(s, "use:katana.yokogiri>t", 5, 5)
    assert s.by_id["t"].wounds == 2
    ev = push(s, "use:katana.yokogiri>t", 6, 6, 7, 7)  # last two dice: t's survival roll
    assert s.by_id["t"].wounds == 0 and s.by_id["t"].incapacitated
    assert "down" in kinds(ev) and s.pending() is None and s.winner == "A"


def test_s_t34_s_t37_four_normal_hits_with_fatigue() -> None:
    """S-T34: normal hits only → 4 needed.  S-T37: the 4th melee attack of a breath is −2."""
    s = state(unit("x", "A", gi=3, fate=0, maneuvers=["katana.yokogiri"], skills={"剣術": "入門"}),
              unit("t", "B", tai=1, fate=0, maneuvers=["kanabou.kyouda"]))
    for _ in range(3):
        push(s, "use:katana.yokogiri>t", 7, 3)
    assert s.by_id["t"].wounds == 1
    ev = push(s, "use:katana.yokogiri>t", 9, 3, 8, 7)
    a = find(ev, "attack")
    assert a.data["total"] == 10 and "連撃疲労-2" in a.text
    assert s.by_id["t"].incapacitated


def test_illegal_actions_refused_with_rule_and_state_unchanged() -> None:
    c = combat(unit("a", "A", gi=1, fate=0, maneuvers=["katana.yokogiri", "katana.ukenagashi"], zone="z1"),
               unit("b", "B", fate=0, maneuvers=["kanabou.kyouda"], zone="z2"),
               unit("c", "B", fate=0, wounds=5, maneuvers=["kanabou.kyouda"], zone="z1"), zones=["z1", "z2"])
    before = c.state.summary()
    cases = {"use:katana.yokogiri>b": "S-G15", "use:zanbatou.zanba>c": "S-G11", "react:katana.ukenagashi": "S-R35"}
    for action, rule in cases.items():
        with pytest.raises(RuleViolation) as err:
            c.push(action, ScriptedSource([]))
        assert err.value.rule == rule, action
        assert c.state.summary() == before and c.record == []
    # a fumble (失着) makes a 無防備: no reservation in the rest of the breath (S-R64)
    c.push("use:katana.yokogiri>c", ScriptedSource([1, 1, 50]))  # 業報: d100 50 on the placeholder table
    assert c.state.by_id["a"].defenceless  # type: ignore[attr-defined]
    snap = c.state.summary()
    with pytest.raises(RuleViolation) as err:
        c.push("reserve:katana.ukenagashi", ScriptedSource([]))
    assert err.value.rule == "S-R64"
    assert c.state.summary() == snap


def test_s_t13_heavy_armour_vigor_each_maai() -> None:
    """S-T13: 技+1 in 重甲 with 體+0 → max 活力 10, back to 10 at every 間合 start."""
    s = state(unit("a", "A", gi=1, tai=0, fate=0, armour=["重甲"], maneuvers=["katana.yokogiri"], skills=KEN),
              unit("b", "B", fate=0, wounds=9, maneuvers=["katana.yokogiri"]))
    assert s.by_id["a"].max_vigor == 10
    push(s, "use:katana.yokogiri>b", 8, 3)
    push(s, "end")
    push(s, "pass")  # b (10) …
    push(s, "pass")  # … a (8) passes too → 小康 → 第2間合
    assert s.maai == 2 and s.by_id["a"].vigor == 10


def test_s_t14_breath_limit_six_with_sokusen_armour() -> None:
    """S-T14: 速戦速決の鎧 → limit 6: spending 6 is fine, 7 overloads with excess 1."""
    for spend, overload in (((2, 2, 2), False), ((2, 2, 3), True)):
        s = state(unit("a", "A", yu=5, gi=3, tai=0, fate=0, armour=["sokusen_sokketsu"],
                       maneuvers=["katana.yokogiri", "zanbatou.zanba"], skills=KEN),
                  unit("b", "B", fate=0, wounds=20, maneuvers=["move.basic"]))
        assert find(s.ev, "breath").data["limit"] == 6
        for cost in spend:
            push(s, "use:katana.yokogiri>b" if cost == 2 else "use:zanbatou.zanba>b", 8, 3)
        ev = push(s, "end", *((9, 9) if overload else ()))
        assert ("overload" in kinds(ev)) is overload
        if overload:
            assert find(ev, "overload").data["excess"] == 1


def test_s_t40_special_crits() -> None:
    """S-T40: 会心 with 斬馬刀 → 3 戦力; 会心 with 鉄砲 → 2 to the target and 1 to the enemy behind."""
    skills = {"剣術": "入門", "砲術": "入門"}
    s = state(unit("a", "A", yu=2, gi=2, fate=0, weapons=["zanbatou", "teppou"], skills=skills),
              unit("b", "B", fate=0, wounds=9, maneuvers=["move.basic"]),
              unit("c", "B", fate=0, wounds=9, maneuvers=["move.basic"]))
    push(s, "use:zanbatou.zanba>b", 5, 5)
    assert s.by_id["b"].wounds == 6
    ev = push(s, "use:teppou.shageki>b", 6, 6)
    assert [(e.data["unit"], e.data["damage"]) for e in ev if e.kind == "damage"] == [("b", 2), ("c", 1)]
    assert "use:teppou.shageki>b" not in s.pending().keys()  # type: ignore[union-attr]  # one shot (S-G20)
