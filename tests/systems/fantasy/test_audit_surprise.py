"""Audit of 002 不意打ち (F-R04, F-R05, F-G01): the surprised characters' round-1 formation
decision (陣形だけを決定), and the −2 on every ST as well as every evasion."""

from __future__ import annotations

import pytest

from ikusa.dice.source import ScriptedSource
from ikusa.engine.combat import Combat
from ikusa.engine.errors import RuleViolation
from ikusa.systems.fantasy.options import FantasyOptions
from ikusa.systems.fantasy.resolution import roll_check
from ikusa.systems.fantasy.surprise import notices
from tests.systems.fantasy.helpers import ch, make, mods_of, start

OPTS = FantasyOptions()


def test_f_r04_surprised_decide_formation_only_before_round_one() -> None:
    """F-R04: after the surprise, the surprised X's only decision is its place (no dice, no
    initiative, no action, no opportunity attack); round 1 starts after it, without X."""
    st = make([ch("y", "gob", values={"initiative": 5}), ch("x", "pc"), ch("w", "pc", row="back")],
              surprised=["x"])
    ev = st.apply("start", ScriptedSource([]))
    assert [e.kind for e in ev if e.kind in ("round", "initiative")] == []
    d = st.pending()
    assert d is not None and d.actor == "x" and d.kind == "formation"
    assert d.keys() == ["place:keep", "place:back"]  # open field: one front; staying first
    assert all(o.cost == 0 for o in d.options)
    with pytest.raises(RuleViolation) as rv:
        st.apply("withdraw", ScriptedSource([]))
    assert rv.value.rule == "F-R04"
    src = ScriptedSource([6, 6, 1, 1])  # round 1 initiative: Y, W (X rolls none)
    ev = st.apply("place:back", src)
    assert src.remaining == 0
    assert ev[0].kind == "formation" and ev[0].rule == "F-R04" and "後衛" in ev[0].text
    assert not any(e.kind == "opportunity" for e in ev)
    assert st.fighters["x"].row == "back" and st.fighters["x"].initiative is None
    assert next(e for e in ev if e.kind == "order").data["order"] == ["y", "w"]


def test_f_r04_formation_respects_corridor_capacity_and_second_front() -> None:
    """F-R04 + F-R08: in the corridor the surprised may take the fore or the rear front while
    it has room (cap 2); a full front is refused naming F-R08."""
    chars = [ch("p1", "pc"), ch("p2", "pc"), ch("x", "pc", row="back"), ch("g", "gob", values={"initiative": 5})]
    st = make(chars, battlefield="corridor", surprised=["x"])
    st.apply("start", ScriptedSource([]))
    d = st.pending()
    assert d is not None and d.keys() == ["place:keep", "place:front.rear"]
    with pytest.raises(RuleViolation) as rv:
        st.apply("place:front.fore", ScriptedSource([]))
    assert rv.value.rule == "F-R08"
    st.apply("place:front.rear", ScriptedSource([1, 1, 1, 1, 6, 6]))
    x = st.fighters["x"]
    assert (x.row, x.front) == ("front", "rear")


def test_f_r04_formation_decision_is_undoable_and_replays() -> None:
    """The formation decision is an ordinary recorded decision: undo and replay reproduce it."""
    chars = [ch("y", "gob", values={"initiative": 5}), ch("x", "pc")]
    combat = Combat("fantasy", {}, lambda: make(chars, surprised=["x"]))
    combat.push("start", ScriptedSource([]))
    combat.push("place:back", ScriptedSource([3, 3]))
    assert combat.state.fighters["x"].row == "back"  # type: ignore[attr-defined]
    combat.pop()
    assert combat.state.fighters["x"].row == "front"  # type: ignore[attr-defined]
    assert combat.state.pending().kind == "formation"  # type: ignore[attr-defined]


def test_f_r04_surprised_take_minus_two_on_every_st() -> None:
    """F-R04/F-G01: 全ての回避、ST判定に−2 — a spell's 精神ST and the cliff's 直感ST too."""
    bolt = {"id": "bolt", "name": "ボルト", "target": "single", "save": "will", "damage_dice": 0,
            "damage_bonus": 1}
    st = make([ch("y", "gob", values={"initiative": 5}, spells=[bolt]), ch("x", "pc", values={"will": 3})],
              surprised=["x"])
    st.apply("start", ScriptedSource([]))
    st.apply("place:keep", ScriptedSource([1, 2]))
    ev = st.apply("cast:bolt:x", ScriptedSource([6, 5, 4, 4, 1, 2, 1, 2]))  # + round-2 initiative
    save = next(e for e in ev if e.kind == "save")
    assert mods_of(save.data, "save") == [("不意打ち", -2)]
    assert save.data["save"]["total"] == 4 + 4 + 3 - 2 and "-2(不意打ち F-R04)" in save.text

    st = make([ch("y", "gob", values={"initiative": 5}), ch("x", "pc", values={"intuition": 4, "evasion": 0})],
              battlefield="cliff_ledge", surprised=["x"])
    st.apply("start", ScriptedSource([]))
    st.apply("place:keep", ScriptedSource([1, 2]))
    ev = st.apply("trip:x", ScriptedSource([5, 5, 1, 2, 3, 3]))  # 直感ST 3+3+4−2 = 8 < 12 → falls
    fall = next(e for e in ev if e.kind == "fall_check")
    assert fall.data["fell"] and "-2(不意打ち F-R04)" in fall.text and "=8" in fall.text


def test_f_r04_surprised_sleeper_does_not_reposition() -> None:
    """F-R04 + F-R11/F-G07: a surprised character who cannot act at all (睡眠) makes no formation
    decision; round 1 starts at once."""
    st = make([ch("y", "gob", values={"initiative": 5}), ch("x", "pc", conditions=[{"id": "睡眠"}])],
              surprised=["x"])
    ev = st.apply("start", ScriptedSource([1, 2]))
    assert any(e.kind == "round" for e in ev)
    d = st.pending()
    assert d is not None and d.kind == "action" and d.actor == "y"


def test_f_g04_hider_automatic_failure_gives_the_group_away() -> None:
    """F-R02 + F-G04: one member's 自動失敗 (1,1) finds the whole group even with a high total;
    an observer's own 自動失敗 still misses it."""
    chars = [ch("h1", "gob", values={"hide": 20}), ch("h2", "gob", values={"hide": 20}),
             ch("x", "pc", values={"danger_sense": 0}), ch("z", "pc", values={"danger_sense": 0})]
    st = make(chars, surprise={"mode": "ambush", "hiders": ["gob"]})
    ev = start(st, [1, 1, 6, 5, 2, 3, 1, 1] + [1, 2] * 3)  # h1 22 自動失敗, h2 31; x 5; z 自動失敗
    stealth = next(e for e in ev if e.kind == "stealth")
    assert stealth.data["value"] == 22 and stealth.data["auto_fail"] and "自動失敗がいる" in stealth.text
    assert not st.fighters["x"].surprised  # 5 < 22, but the group is given away
    assert st.fighters["z"].surprised


def test_f_g04_all_hiders_automatic_success_only_found_by_automatic_success() -> None:
    detector = roll_check(ScriptedSource([6, 5]), OPTS, "skill.danger_sense", "d", 30, [])
    assert not notices(detector, 2, OPTS, perfect=True)
    assert notices(roll_check(ScriptedSource([6, 6]), OPTS, "skill.danger_sense", "d", 0, []), 2, OPTS,
                   perfect=True)
