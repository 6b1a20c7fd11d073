"""#13: 千幻抄 status conditions on the effect mechanism (sengensyou/status.py).

* G-G03: no DP recovery while immobile, confined or with vision blocked (and DP回復停止);
* G-R08/G-R09: immobile or confined → no 移動, no 逃走 (refused naming the rule);
* G-G08 (003:L317): an ally's 弾幕 lets the holder roll to recover, with no DP spent
  (判定値 + resist_max_dice dice ≥ the condition's TN, data/conditions.yaml);
* G-R02: the GM's DP不要判定 makes the holder's next check cost no DP, once.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ikusa.dice.source import RandomSource, ScriptedSource
from ikusa.engine.errors import InputError, RuleViolation
from ikusa.systems.sengensyou.rules_text import describe
from ikusa.systems.sengensyou.status import statuses
from tests.systems.ruling_driver import Session

PARTY = "examples/sengensyou/party_battle.yaml"
DUEL = "examples/sengensyou/spellcard_duel.yaml"


def until(s: Session, stop: Callable[[object], bool], answer: Callable[[list[str]], str], limit: int = 400) -> None:
    """Answer decisions with ``answer(keys)`` until ``stop(decision)``."""
    for _ in range(limit):
        d = s.state.pending()
        assert d is not None
        if stop(d):
            return
        s.act(answer([o.key for o in d.options]), RandomSource(7))
    raise AssertionError("the decision never came")


def passive(keys: list[str]) -> str:
    """Wait on own turns, pay 弾幕 with DP, no focus, keep rows, first otherwise."""
    for k in ("wait", "barrage:pay", "focus:no", "row:front", "none"):
        if k in keys:
            return k
    return keys[0]


def test_immobile_stops_dp_recovery_until_removed() -> None:
    """G-G03: 魂魄妖夢 DP回復数 3 (ceil((3+5)/3)); 移動不能 → +0 at the next turn start."""
    s = Session(PARTY)
    s.rule({"op": "condition", "unit": "youmu", "name": "移動不能", "reason": "結界の檻"})
    s.rule({"op": "set", "unit": "youmu", "resource": "dp", "value": 5})
    until(s, lambda d: (s.state.turn == 2 and d.kind != "initiative") or s.state.turn > 2, passive)
    rec = [t for t in s.texts("dp_recovery") if t.startswith("魂魄妖夢")]
    assert rec == ["魂魄妖夢 DP回復 3 (待機 +2) [移動不能: G-G03] DP回復停止 → +0 (DP 5→5/24)"]
    s.rule({"op": "condition", "unit": "youmu", "name": "immobile", "on": False})
    until(s, lambda d: (s.state.turn == 3 and d.kind != "initiative") or s.state.turn > 3, passive)
    rec = [t for t in s.texts("dp_recovery") if t.startswith("魂魄妖夢")]
    assert rec[-1] == "魂魄妖夢 DP回復 3 (待機 +2) → +5 (DP 5→10/24)"


@pytest.mark.parametrize("name", ["視界遮断", "閉じ込め", "DP回復停止"])
def test_every_recovery_stopping_condition_stops_it(name: str) -> None:
    s = Session(DUEL)
    s.rule({"op": "condition", "unit": "marisa", "name": name})
    s.rule({"op": "set", "unit": "marisa", "resource": "dp", "value": 3})
    until(s, lambda d: s.state.turn >= 2 and d.kind == "action", passive)
    rec = [t for t in s.texts("dp_recovery") if t.startswith("霧雨魔理沙")]
    assert len(rec) == 1 and rec[0].endswith("DP回復停止 → +0 (DP 3→3/22)"), rec


def test_immobile_forbids_moving_and_escaping_naming_the_rule() -> None:
    s = Session(DUEL)
    s.rule({"op": "condition", "unit": "reimu", "name": "immobile"})
    s.rule({"op": "condition", "unit": "marisa", "name": "視界遮断"})
    until(s, lambda d: d.kind == "action", passive)
    d = s.state.pending()
    keys = d.keys()
    me = s.state.f(d.actor)
    moves = [k for k in keys if k.startswith("move:") or k == "escape"]
    if me.id == "reimu":
        assert moves == []
        before = len(s.events)
        with pytest.raises(RuleViolation) as err:
            s.state.apply("move:free", ScriptedSource([]))
        assert err.value.rule == "G-G03" and "移動不能" in str(err.value) and "G-R08" in str(err.value)
        assert len(s.events) == before
    else:  # 視界遮断 stops recovery but not movement
        assert "move:free" in keys and "escape" in keys


def _barrage_with_ally_held(dice: list[int]) -> Session:
    s = Session(PARTY)
    s.rule({"op": "condition", "unit": "youmu", "name": "移動不能"})
    until(s, lambda d: d.kind == "action" and d.actor in ("reimu", "mystia"), passive)
    key = next(k for k in s.state.pending().keys() if k.startswith("barrage:"))
    s.act(key, ScriptedSource([]))
    src = ScriptedSource(dice)  # every enemy pays with DP (no dice); the last answer triggers G-G08
    for _ in range(10):
        d = s.state.pending()
        if d.kind != "barrage":
            break
        s.act("barrage:pay" if "barrage:pay" in d.keys() else d.keys()[0], src)
    assert src.remaining == 0
    return s


def test_an_allys_barrage_lets_the_held_character_recover_without_dp() -> None:
    """G-G08: 妖夢 身体6 + 〈肉体抵抗〉2 = 8, + 3D6 (resist_max_dice) ≥ 14 (data TN)."""
    youmu_dp = Session(PARTY).state.f("youmu").dp
    s = _barrage_with_ally_held([2, 2, 2])
    line = s.texts("status_recovery")
    assert line and "魂魄妖夢 移動不能の回復判定 身体+〈肉体抵抗〉 8+3D6[2,2,2]=14 ≥ 14 → 回復 (DP消費無し)" in line[0]
    assert not s.state.fx.book.conditions("youmu") and s.state.f("youmu").dp == youmu_dp


def test_a_failed_recovery_keeps_the_condition() -> None:
    s = _barrage_with_ally_held([1, 2, 2])
    assert "8+3D6[1,2,2]=13 < 14 → 回復せず" in s.texts("status_recovery")[0]
    assert s.state.fx.book.conditions("youmu") == {"immobile"}


def test_free_check_refunds_the_dp_of_one_check_only() -> None:
    """G-R02: the GM lets 霊夢's next check be made without DP: the dice are rolled, the DP
    come back, and the following check costs DP again."""
    s = Session(DUEL)
    s.rule({"op": "condition", "unit": "reimu", "name": "DP不要判定", "reason": "GMの特例"})
    until(s, lambda d: d.kind == "action" and d.actor == "reimu", passive)
    dp = s.state.f("reimu").dp
    s.act("move:roll:2", ScriptedSource([3, 4]))
    assert s.state.f("reimu").dp == dp
    assert any("GMの許可でDPを消費しない判定 (2D, DP2返還" in t for t in s.texts("free_check"))
    assert "free_check" not in s.state.fx.book.conditions("reimu")
    other = next(k for k in s.state.pending().keys() if k.startswith("other:1"))
    s.act(other, ScriptedSource([5]))
    assert s.state.f("reimu").dp == dp - 1


def test_unknown_condition_is_one_line_listing_the_known_ones() -> None:
    s = Session(DUEL)
    with pytest.raises(InputError) as err:
        s.rule({"op": "condition", "unit": "reimu", "name": "石化"})
    assert err.value.field == "name" and "移動不能" in str(err.value) and "DP不要判定" in str(err.value)


def test_conditions_topic_prints_the_data() -> None:
    text = "\n".join(describe("conditions"))
    for d in statuses().values():
        assert d.name in text
        if d.recovery is not None:
            assert f"≥ {d.recovery.tn}" in text
    assert describe("状態異常") == describe("conditions")


def test_encounter_effects_may_hold_a_condition(tmp_path: object) -> None:
    from pathlib import Path

    import yaml

    from ikusa.engine.runner import load_encounter
    from tests.systems.ruling_driver import ROOT

    data = yaml.safe_load((ROOT / DUEL).read_text("utf-8"))
    data["effects"] = [{"unit": "marisa", "effect": {"name": "檻", "condition": "confined"}}]
    path = Path(str(tmp_path)) / "held.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    st = load_encounter(path).new_combat().state
    assert st.fx.book.conditions("marisa") == {"confined"}
    data["effects"] = [{"unit": "marisa", "effect": {"name": "檻", "condition": "caged"}}]
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    with pytest.raises(InputError) as err:
        load_encounter(path)
    assert "caged" in str(err.value) and "閉じ込め" in str(err.value)
