"""Water (002 [水場]/[水中]): F-T15…F-T19, F-R16…F-R18, F-G13…F-G15."""

from __future__ import annotations

import pytest

from ikusa.dice.source import RandomSource, ScriptedSource
from ikusa.engine.errors import RuleViolation
from ikusa.systems.fantasy.actions import move_cost, move_distance
from ikusa.systems.fantasy.legal import weapon_range
from ikusa.systems.fantasy.resolution import Damage, thrown_falloff
from ikusa.systems.fantasy.state import FantasyState
from tests.systems.fantasy.helpers import BOW, CLUB, JAVELIN, SWORD, ch, make, start

LONGSWORD = {"id": "long", "name": "ロングソード", "category": "long_sword", "damage_dice": 2, "damage_type": "斬"}
AXE = {"id": "taxe", "name": "投げ斧", "kind": "thrown", "category": "axe", "damage_dice": 1, "damage_type": "斬",
       "range_m": 10}


def water(env: str, **a_kw: object) -> FantasyState:
    a = ch("a", "r", values={"initiative": 10}, **a_kw)
    st = make([a, ch("b", "e")], environment=[{"id": env}])
    start(st, [1, 2, 1, 2])
    return st


def test_t15_wading() -> None:
    """F-T15/F-R16: a 1-action move needs 2; melee hit, all evasion, 直感ST −2; not ranged hit."""
    st = water("水場")
    a = st.fighters["a"]
    assert move_cost(st, a) == 2 and move_distance(st, a) == 10
    mods = {t: [(m.source, m.value) for m in st.mods(a, (t,))] for t in
            ["attack.melee", "attack.ranged", "evade.ranged", "st.intuition.perceive", "st.fort"]}
    assert mods == {"attack.melee": [("水場", -2)], "attack.ranged": [], "evade.ranged": [("水場", -2)],
                    "st.intuition.perceive": [("水場", -2)], "st.fort": []}
    opt = next(o for o in st.pending().options if o.key == "withdraw")
    assert opt.cost == 2
    st.apply("withdraw", ScriptedSource([1, 2, 6, 6], fallback=RandomSource(0)))


def test_t16_submerged_moves_weapons() -> None:
    """F-T16/F-R17: 1 action/10 m → 2 actions/5 m; melee −4; bow unusable; javelin −4 and range halved;
    long sword unusable, short sword fine; 斬 thrown weapons unusable (F-G14)."""
    st = water("水中", weapons=[SWORD, LONGSWORD, BOW, JAVELIN, AXE])
    a = st.fighters["a"]
    assert move_cost(st, a) == 2 and move_distance(st, a) == 5
    assert [(m.source, m.value) for m in st.mods(a, ("attack.melee",))] == [("水中", -4)]
    assert [(m.source, m.value) for m in st.mods(a, ("attack.ranged", "attack.thrown"))] == [
        ("水中", -4)]
    jav = a.weapon("jav")
    assert jav is not None and weapon_range(st, a, jav) == 15
    keys = st.pending().keys()
    assert "attack:sword:b" in keys and "attack:jav:b" in keys
    for bad in ("attack:bow:b", "attack:long:b", "attack:taxe:b"):
        assert bad not in keys
        with pytest.raises(RuleViolation) as rv:
            st.apply(bad, ScriptedSource([]))
        assert rv.value.rule.startswith("F-R17") and "水中" in rv.value.section


def test_t17_thrown_falloff() -> None:
    """F-T17/F-G14: 12 m 刺 → −2, 叩 → −4; damage floored at 0."""
    assert thrown_falloff(12, 1) == -2 and thrown_falloff(12, 2) == -4
    assert thrown_falloff(4, 2) == 0 and thrown_falloff(15, 1) == -3
    from ikusa.systems.fantasy.resolution import Applied

    assert Damage([1], 0, [Applied(-4, "水中", "F-R17")]).total == 0


@pytest.mark.parametrize(("weapon", "expected"), [(JAVELIN, 5 + 4 - 2), (CLUB, 5 + 4 - 4)])
def test_t17_falloff_in_play(weapon: dict[str, object], expected: int) -> None:
    """F-T17 in play: thrower in the back row, target 12 m away (2 m engaged + 5 m row + 5 m row)."""
    st = make([ch("a", "r", row="back", weapons=[weapon], values={"initiative": 10, "ranged": 10}),
               ch("a2", "r"), ch("b", "e", row="back", values={"evasion": 0}), ch("b2", "e")],
              environment=[{"id": "水中"}])
    start(st, [1, 2] * 4)
    assert st.formation.distance(st.fighters["a"], st.fighters["b"]) == 12
    ev = st.apply(f"attack:{weapon['id']}:b", ScriptedSource([5, 5, 1, 2, 5], fallback=RandomSource(0)))
    dmg = next(e for e in ev if e.kind == "damage")
    assert dmg.data["damage"] == expected and f"{expected - 9:+d}(水中 12m F-R17,F-G14)" in dmg.text


def test_t18_drowning() -> None:
    """F-T18/F-R18/F-G15: 肉体値 3 without air: rounds 1–3 no damage; from round 4, 1D on own turn."""
    st = make([ch("a", "r", body=3, air=False, hp=99), ch("b", "e", hp=99, body=0)],
              environment=[{"id": "水中"}])
    src = RandomSource(5)
    events = st.apply("start", src)
    while st.round <= 6:
        events += st.apply("end", src)
    drown = [e for e in events if e.kind == "drowning"]
    assert [e.data["round_underwater"] for e in drown] == [4, 5, 6]
    assert all(e.data["id"] == "a" for e in drown)  # b breathes (air default true)
    assert st.fighters["a"].fatigue == sum(e.data["damage"] for e in drown)
    assert st.fighters["a"].hp == 99 - st.fighters["a"].fatigue
    assert all(1 <= e.data["damage"] <= 6 for e in drown)


def test_t19_heavy_armour_cannot_swim() -> None:
    """F-T19/F-R17: out of depth in 中装鎧 → the move (swim) is refused; light armour may move."""
    st = water("水中", armor="medium", out_of_depth=True)
    with pytest.raises(RuleViolation) as rv:
        st.apply("withdraw", ScriptedSource([]))
    assert rv.value.rule == "F-R17" and "泳げない" in rv.value.message
    st2 = water("水中", armor="light", out_of_depth=True)
    assert "withdraw" in st2.pending().keys()


@pytest.mark.parametrize(("env", "expected"), [
    ([], {"move": 1, "line_of_fire": 1, "cover": 1, "run": 2}),
    ([{"id": "水場"}], {"move": 2, "line_of_fire": 2, "cover": 2, "run": 4}),
    ([{"id": "水中"}], {"move": 2, "line_of_fire": 2, "cover": 2, "run": 4}),
])
def test_g13_action_costs_doubled(env: list[dict[str, str]], expected: dict[str, int]) -> None:
    """F-R16/F-R17/F-G13: 移動・射線の確保・遮蔽を取る・全力移動 need ×2 actions in water."""
    st = make([ch("a", "r"), ch("b", "e")], environment=env)
    a = st.fighters["a"]
    assert {k: st.action_cost(a, k) for k in expected} == expected


def test_g14_sinking_non_swimmer_breath_rules_at_once() -> None:
    """F-G14: out of depth in 中装鎧 a character sinks; the breath rules apply even with air."""
    st = make([ch("a", "r", body=1, armor="heavy", out_of_depth=True, hp=99), ch("b", "e", hp=99)],
              environment=[{"id": "水中"}])
    src = RandomSource(2)
    events = st.apply("start", src)
    while st.round <= 3:
        events += st.apply("end", src)
    assert [e.data["round_underwater"] for e in events if e.kind == "drowning"] == [2, 3]
    assert st.breathless(st.fighters["a"]) and not st.breathless(st.fighters["b"])


def test_move_event_shows_multiplier_and_rule() -> None:
    st = water("水場")
    ev = st.apply("withdraw", ScriptedSource([1, 2, 6, 6], fallback=RandomSource(0)))
    move = next(e for e in ev if e.kind == "move")
    assert move.rule == "F-G13,F-R16" and "1×2=2アクション, 水場" in move.text
