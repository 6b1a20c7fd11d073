"""Surprise (002 不意打ち): F-T01…F-T03, F-R01…F-R05, F-G01…F-G03."""

from __future__ import annotations

from ikusa.dice.source import ScriptedSource
from ikusa.systems.fantasy.options import FantasyOptions
from ikusa.systems.fantasy.resolution import Check, roll_check
from ikusa.systems.fantasy.surprise import group_value, notices
from tests.systems.fantasy.helpers import ch, make, mods_of, start

OPTS = FantasyOptions()


def test_t01_group_is_judged_on_lowest() -> None:
    """F-T01/F-R02: 14, 9, 12 → 9; detector 10 ≥ 9 finds the group; solo weakest → 12 > 10."""
    assert group_value([14, 9, 12]) == 9
    detector = Check("st.intuition.perceive", "d", (3, 4), 3)
    assert detector.total == 10
    assert notices(detector, 9, OPTS)
    assert not notices(detector, group_value([14, 12]), OPTS)
    assert notices(detector, 10, OPTS)  # F-G02 tie favours the observer
    assert not notices(detector, 10, FantasyOptions(surprise_tie="hider"))
    fumble = roll_check(ScriptedSource([1, 1]), OPTS, "skill.danger_sense", "d", 20, [])
    assert fumble.auto_fail and not notices(fumble, 2, OPTS)  # 自動失敗 (F-G04)


def _sneakers(solo: bool) -> list[dict[str, object]]:
    return [
        ch("s1", "rogues", values={"stealth": 10}),
        ch("s2", "rogues", values={"stealth": 5}, unit="solo" if solo else None),
        ch("s3", "rogues", values={"stealth": 8}),
        ch("guard", "town", values={"intuition": 6}),
    ]


def test_t01_full_flow_group_found() -> None:
    """F-T01 end to end: stealth 14/9/12, guard 直感ST 10 → group found → guard not surprised."""
    st = make(_sneakers(False), surprise={"mode": "stealth", "hiders": ["rogues"]})
    ev = start(st, [2, 2, 2, 2, 2, 2, 2, 2] + [1, 2] * 4)
    stealth = next(e for e in ev if e.kind == "stealth")
    assert stealth.data["totals"] == [14, 9, 12] and stealth.data["value"] == 9
    det = next(e for e in ev if e.kind == "detect")
    assert det.data["total"] == 10 and det.data["found"] == {"rogues": True}
    assert not st.fighters["guard"].surprised


def test_t01_full_flow_solo_weakest() -> None:
    """F-T01: the weakest going solo is its own unit; the group (12) is not found, the solo (9) is."""
    st = make(_sneakers(True), surprise={"mode": "stealth", "hiders": ["rogues"]},
              options={"aware_if_any_detected": False})
    ev = start(st, [2, 2, 2, 2, 2, 2, 2, 2] + [1, 2] * 3)
    det = next(e for e in ev if e.kind == "detect")
    assert det.data["found"] == {"rogues": False, "solo": True}
    assert st.fighters["guard"].surprised  # missed the group → surprised (option: all must be found)


def _ambush() -> list[dict[str, object]]:
    return [
        ch("y", "gob", values={"hide": 10, "initiative": 5}),
        ch("x", "pc", values={"danger_sense": 0, "evasion": 4}),
        ch("z", "pc", values={"danger_sense": 20}),
    ]


def test_t02_round1_surprised_no_initiative_no_action_penalty() -> None:
    """F-T02/F-R03/F-R04: X missed the ambush; Z saw it.  X rolls no initiative and never acts in
    round 1; Y's attack on X meets evasion −2 (不意打ち)."""
    st = make(_ambush(), surprise={"mode": "ambush", "hiders": ["gob"]})
    ev = start(st, [3, 3, 2, 2, 3, 3, 6, 6, 1, 2])  # 潜伏16; X 4 misses; Z 26 sees; init Y 17, Z 3
    assert st.fighters["x"].surprised and not st.fighters["z"].surprised
    assert st.fighters["x"].initiative is None
    order = next(e for e in ev if e.kind == "order").data["order"]
    assert order == ["y", "z"]
    d = st.pending()
    assert d is not None and d.actor == "y"
    out = st.apply("attack:sword:x", ScriptedSource([4, 4, 3, 3, 2]))
    atk = out[0]
    assert mods_of(atk.data, "evade") == [("不意打ち", -2)]
    assert atk.data["evade"]["total"] == 3 + 3 + 4 - 2


def test_t02_surprised_cannot_opportunity_attack() -> None:
    """F-T02/F-R04: a surprised character is not counted among opportunity attackers."""
    st = make([ch("y", "gob", values={"initiative": 5}), ch("x", "pc")], surprised=["x"])
    start(st, [6, 6])
    ev = st.apply("withdraw", ScriptedSource([]))
    opp = next(e for e in ev if e.kind == "opportunity")
    assert opp.data["attackers"] == [] and opp.data["excluded"] == ["x"]
    assert "不意打ち" in opp.text


def test_t03_round2_penalty_until_own_turn() -> None:
    """F-T03/F-R05/F-G01: in round 2 X is after Y; Y's attack still meets −2; once X's turn
    has begun the penalty is gone."""
    st = make([ch("y", "gob", values={"initiative": 5}), ch("x", "pc", values={"initiative": 0})], surprised=["x"])
    start(st, [1, 2])  # round 1: only Y
    st.apply("end", ScriptedSource([6, 6, 1, 2]))  # round 2: Y 17, X 3
    assert st.round == 2 and st.pending() is not None and st.pending().actor == "y"  # type: ignore[union-attr]
    ev = st.apply("attack:sword:x", ScriptedSource([4, 4, 3, 3, 2]))
    assert mods_of(ev[0].data, "evade") == [("不意打ち", -2)]
    assert any(e.kind == "surprise_end" for e in ev)  # Y spent both actions → X's turn begins
    assert st.pending().actor == "x"  # type: ignore[union-attr]
    assert all(d.id != "surprised" for _c, d in st.effective(st.fighters["x"]))


def test_g03_no_surprise_round_everyone_aware_acts() -> None:
    """F-G03: aware characters on both sides act in round 1."""
    st = make([ch("y", "gob", values={"initiative": 5}), ch("x", "pc"), ch("w", "pc")], surprised=["x"])
    ev = start(st, [1, 1, 1, 2])
    assert next(e for e in ev if e.kind == "order").data["order"] == ["y", "w"]


def test_g01_option_penalty_ends_with_round_one() -> None:
    """F-G01 option: surprise_until_first_turn=False → in round 2 the penalty is already gone."""
    st = make([ch("y", "gob", values={"initiative": 5}), ch("x", "pc", values={"initiative": 0})], surprised=["x"],
              options={"surprise_until_first_turn": False})
    start(st, [1, 2])
    assert any(d.id == "surprised" for _c, d in st.effective(st.fighters["x"]))
    st.apply("end", ScriptedSource([6, 6, 1, 2]))
    assert st.round == 2 and st.pending().actor == "y"  # type: ignore[union-attr]
    assert all(d.id != "surprised" for _c, d in st.effective(st.fighters["x"]))
