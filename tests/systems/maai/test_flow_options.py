"""Ruleset options honoured by the flow (S.C config keys): S-G27 fate uses per roll, S-G60
無防備 scope, S-G35 duplicate reservations, S-G52 hard breath cap, S-G28 fumble checks."""

from __future__ import annotations

from .maai_flow_support import find, kinds, push, state, unit

KEN = {"剣術": "免許"}


def test_s_t35_derived_two_fate_uses_on_one_roll() -> None:
    """S-T35 (derived) with fate.max_uses_per_roll = 2: [3,5] + 1 = 9 → two uses → [4,6] → 11."""
    s = state(unit("x", "A", yu=2, gi=1, fate=0, skills=KEN, maneuvers=["katana.yokogiri"]),
              unit("t", "B", tai=1, un=0, wounds=1, fate=2, maneuvers=["katana.yokogiri"]),
              options={"fate": {"max_uses_per_roll": 2, "lethal_exception": False}})
    push(s, "use:katana.yokogiri>t", 8, 4, 3, 5)
    d = s.pending()
    assert d is not None and d.actor == "t" and "fate:0+1" in d.keys()
    push(s, "fate:0+1")
    ev = push(s, "fate:1+1")
    assert find(ev, "survival").data == {"unit": "t", "total": 11, "survived": True}
    assert s.by_id["t"].fate_left == 0


def test_s_g60_literal_defenceless_still_parries() -> None:
    """defenseless.blocks = evasion_counter_only: a 無防備 unit may still parry (not evade)."""
    oni = unit("oni", "B", yu=3, gi=1, fate=0, wounds=6, skills={"棒術": "入門"}, maneuvers=["kanabou.kyouda"])
    g = unit("g", "A", gi=1, fate=0, skills=KEN, maneuvers=["katana.ukenagashi", "katana.yokogiri",
                                                             "tantou.kinkyuu_kaihi"])
    s = state(g, oni, options={"defenseless": {"blocks": "evasion_counter_only"}})
    push(s, "use:katana.yokogiri>oni", 2, 2)  # 失着 → 無防備
    push(s, "end")
    push(s, "use:kanabou.kyouda>g", 5, 4)
    d = s.pending()
    assert d is not None and d.kind == "reaction"
    assert "improv:katana.ukenagashi" in d.keys() and "improv:tantou.kinkyuu_kaihi" not in d.keys()


def test_s_g35_duplicates_off_and_s_g52_hard_cap() -> None:
    g = unit("g", "A", gi=1, fate=0, skills=KEN, maneuvers=["katana.ukenagashi", "zanbatou.zanba"])
    e = unit("e", "B", fate=0, wounds=9, maneuvers=["move.basic"])
    s = state(g, e, options={"reservations": {"allow_duplicates": False}})
    push(s, "reserve:katana.ukenagashi")
    assert "reserve:katana.ukenagashi" not in s.pending().keys()  # type: ignore[union-attr]
    s2 = state(g, e, options={"breath": {"max_over_limit": 0}})
    push(s2, "use:zanbatou.zanba>e", 8, 3)
    assert "use:zanbatou.zanba>e" not in s2.pending().keys()  # type: ignore[union-attr]  # 3 + 3 > 5 + 0


def test_s_g28_defence_fumble_option() -> None:
    """S-G28: a defence roll's 失着 makes the defender 無防備 unless 'defense' is taken out of
    doubles.fumble_checks."""
    oni = unit("oni", "B", yu=3, gi=1, fate=0, wounds=6, skills={"棒術": "入門"}, maneuvers=["kanabou.kyouda"])
    g = unit("g", "A", gi=1, fate=0, skills=KEN, maneuvers=["katana.ukenagashi"])
    for checks, defenceless in ((("attack", "counter", "defense"), True), (("attack", "counter"), False)):
        s = state(g, oni, options={"doubles": {"fumble_checks": list(checks)}})
        push(s, "pass")
        push(s, "use:kanabou.kyouda>g", 7, 5)
        ev = push(s, "improv:katana.ukenagashi", 2, 2)
        assert ("defenceless" in kinds(ev)) is defenceless
