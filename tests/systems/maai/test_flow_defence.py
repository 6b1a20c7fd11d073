"""Defences and counters in flow: S-T20 (reserved vs improvised), S-T30 (受け流し, 緊急回避),
S-T31 (一閃 counter), 無防備 and 強化奇襲 block defences (S-R55, S-R64)."""

from __future__ import annotations

from .maai_flow_support import find, kinds, push, state, unit

KEN = {"剣術": "免許"}
ONI = dict(yu=3, gi=1, fate=0, defence=12, wounds=6, skills={"棒術": "入門"},
           maneuvers=["kanabou.kyouda", "test.daikyouda"], name="鬼")


def _gen(*moves: str, **kw: object) -> dict[str, object]:
    return unit("g", "A", yu=2, gi=1, fate=0, skills=KEN, maneuvers=list(moves), name="源三郎", **kw)


def test_s_t20_s_t30_reserved_parry_costs_zero_and_nullifies() -> None:
    """S-T30: hit total 15; reserved 受け流し [9,8] + 技1 + 剣術2 = 20 ≥ 15 → nullified, cost 0."""
    s = state(_gen("katana.ukenagashi"), unit("oni", "B", **ONI))
    push(s, "reserve:katana.ukenagashi")
    push(s, "end")
    assert s.by_id["g"].vigor == 10
    ev = push(s, "use:kanabou.kyouda>g", 7, 5)
    assert find(ev, "attack").data["total"] == 15
    d = s.pending()
    assert d is not None and d.kind == "reaction" and d.actor == "g"
    opt = d.option("react:katana.ukenagashi")
    assert opt is not None and opt.cost == 0
    assert d.option("improv:katana.ukenagashi").cost == 2  # type: ignore[union-attr]  # S-T20
    ev = push(s, "react:katana.ukenagashi", 9, 8)
    dfn = find(ev, "defence")
    assert (dfn.data["total"], dfn.data["success"]) == (20, True)
    g = s.by_id["g"]
    assert g.vigor == 10 and g.wounds == 3 and g.reservations == []  # one use (S-R38)


def test_s_t20_improvised_parry_costs_two() -> None:
    """S-T20: without a reservation 受け流し is improvised for 1.5 × 1 → 2 活力."""
    s = state(_gen("katana.ukenagashi", "katana.yokogiri"), unit("oni", "B", **ONI))
    push(s, "pass")
    push(s, "use:kanabou.kyouda>g", 7, 5)
    ev = push(s, "improv:katana.ukenagashi", 9, 8)
    assert s.by_id["g"].vigor == 11 - 2
    assert find(ev, "defence").data["success"]


def test_s_t30_emergency_evasion_reduces_damage_by_one_min_one() -> None:
    """S-T30: 緊急回避 [3,4] + 技1 = 8 < 15 → failed, but a 3-戦力 attack deals 2; a 1-戦力 attack 1."""
    s = state(_gen("tantou.kinkyuu_kaihi"), unit("oni", "B", **ONI))
    push(s, "reserve:tantou.kinkyuu_kaihi")
    push(s, "end")
    push(s, "use:test.daikyouda>g", 7, 5)
    ev = push(s, "react:tantou.kinkyuu_kaihi", 3, 4)
    assert find(ev, "defence").data == {"unit": "g", "move": "tantou.kinkyuu_kaihi", "dice": [3, 4], "total": 8,
                                        "success": False}
    dmg = find(ev, "damage")
    assert dmg.data["damage"] == 2 and "S-R54" in dmg.rule
    assert s.by_id["g"].wounds == 1
    s2 = state(_gen("tantou.kinkyuu_kaihi"), unit("oni", "B", **ONI))
    push(s2, "reserve:tantou.kinkyuu_kaihi")
    push(s2, "end")
    push(s2, "use:kanabou.kyouda>g", 7, 5)
    push(s2, "react:tantou.kinkyuu_kaihi", 3, 4)
    assert s2.by_id["g"].wounds == 2  # 1-戦力 attack: still 1


def test_s_t31_issen_counter_after_parry() -> None:
    """S-T31: reserved 一閃 (3) + 受け流し (1); 鬼 hits 15; parry 20 nullifies; counter [7,6] + 勇2 +
    剣術2 = 17 ≥ 鬼 防備 12 → 鬼 −1 戦力."""
    s = state(_gen("katana.ukenagashi", "katana.issen"), unit("oni", "B", **ONI))
    push(s, "reserve:katana.issen")
    push(s, "reserve:katana.ukenagashi")
    push(s, "end")
    assert s.by_id["g"].vigor == 11 - 4
    push(s, "use:kanabou.kyouda>g", 7, 5)
    ev = push(s, "react:katana.ukenagashi", 9, 8, 7, 6)
    c = find(ev, "counter")
    assert (c.data["total"], c.data["defence"]) == (17, 12)
    assert s.by_id["oni"].wounds == 5 and s.by_id["g"].wounds == 3
    assert s.by_id["g"].reservations == []


def test_issen_triggers_on_a_hit_even_without_defence() -> None:
    """S-G38: 一閃 triggers on a melee hit whether or not the damage was nullified."""
    s = state(_gen("katana.issen", "katana.ukenagashi"), unit("oni", "B", **ONI))
    push(s, "reserve:katana.issen")
    push(s, "end")
    ev = push(s, "use:kanabou.kyouda>g", 7, 5)
    ev = push(s, "noreact", 7, 6)
    assert kinds(ev)[:3] == ["damage", "counter", "damage"]
    assert s.by_id["g"].wounds == 2 and s.by_id["oni"].wounds == 5


def test_defenceless_unit_gets_no_reaction() -> None:
    """S-R64 / S-G60: a 無防備 unit (here after a 失着) can use no defence; its reservations are void."""
    s = state(_gen("katana.ukenagashi", "katana.yokogiri"), unit("oni", "B", **ONI))
    push(s, "reserve:katana.ukenagashi")
    ev = push(s, "use:katana.yokogiri>oni", 1, 1, 10)  # 業報 (d100 = 10: weapon drop on the placeholder table)
    assert "table" in kinds(ev) and s.by_id["g"].defenceless and s.by_id["g"].reservations == []
    push(s, "end")
    ev = push(s, "use:kanabou.kyouda>g", 2, 4)  # 6 + 3 = 9 ≥ 10 − 4 = 6
    assert find(ev, "attack").data["defence"] == 6
    assert s.by_id["g"].wounds == 2  # no reaction was offered


def test_enhanced_surprise_blocks_defence() -> None:
    """S-R55 / S-G17: 隠密移動 from outside then attack → the target is 無防備 and cannot defend."""
    kuro = unit("k", "A", yu=2, gi=2, fate=0, skills={"忍術": "免許"}, zone="out",
                maneuvers=["move.onmitsu", "ninjatou.fui_no_ichigeki"])
    g = unit("g2", "B", gi=0, fate=0, skills=KEN, maneuvers=["katana.ukenagashi"], zone="in")
    s = state(kuro, g, zones=["in", "out"])
    push(s, "use:move.onmitsu>in")
    ev = push(s, "use:ninjatou.fui_no_ichigeki>g2", 3, 4)
    a = find(ev, "attack")
    assert a.data["defence"] == 6 and "強化奇襲" in a.text
    assert s.by_id["g2"].wounds == 2


def test_enhanced_surprise_after_resolution_option() -> None:
    """S-G17 option ``surprise.enhanced_defenseless_timing = after_resolution``: no −4 on the
    attack itself, still no defence, 無防備 afterwards."""
    kuro = unit("k", "A", yu=2, gi=2, fate=0, skills={"忍術": "免許"}, zone="out",
                maneuvers=["move.onmitsu", "ninjatou.fui_no_ichigeki"])
    g = unit("g2", "B", gi=0, fate=0, skills=KEN, maneuvers=["katana.ukenagashi"], zone="in")
    s = state(kuro, g, zones=["in", "out"], options={"surprise": {"enhanced_defenseless_timing": "after_resolution"}})
    push(s, "use:move.onmitsu>in")
    ev = push(s, "use:ninjatou.fui_no_ichigeki>g2", 3, 4)
    assert find(ev, "attack").data["defence"] == 10
    assert s.by_id["g2"].wounds == 2 and s.by_id["g2"].defenceless


def test_lethal_counter_lets_the_attacker_use_fate() -> None:
    """S-G51 applied to counters: the 一閃 would drop the attacker to 0 → its own fate may
    move one die of the counter roll: [7,1] + 4 = 12 ≥ 12 → −1 → 11: miss."""
    oni = dict(ONI, wounds=1, fate=1)
    s = state(_gen("katana.ukenagashi", "katana.issen"), unit("oni", "B", **oni))
    push(s, "reserve:katana.issen")
    push(s, "end")
    push(s, "use:kanabou.kyouda>g", 7, 5)
    push(s, "noreact", 7, 1)
    d = s.pending()
    assert d is not None and d.actor == "oni" and d.kind == "fate"
    ev = push(s, "fate:0-1")
    assert find(ev, "counter").data["total"] == 11 and s.by_id["oni"].wounds == 1


def test_s_g23_saint_auto_success() -> None:
    """S-G23: 聖人 — the dice are rolled, the check succeeds whatever 防備 (here 20 vs 12),
    doubles are 会心 and never 失着."""
    s = state(unit("g", "A", yu=0, gi=1, fate=0, skills={"剣術": "聖人"}, weapons=["katana"]),
              unit("oni", "B", **ONI))
    ev = push(s, "use:katana.yokogiri>oni", 2, 3)
    a = find(ev, "attack")
    assert a.data["total"] == 8 and a.data["defence"] == 12 and a.data["outcome"] == "成功"
    ev = push(s, "use:katana.yokogiri>oni", 1, 1)
    assert find(ev, "attack").data["outcome"] == "会心" and s.by_id["oni"].wounds == 6 - 1 - 2


def test_s_g38_counter_on_a_miss_only_with_any_melee_option() -> None:
    """S-G38: by default 一閃 needs a hit (nullified or not); option any_melee: also a miss."""
    for trig, counters in (("hit_or_nullified", 0), ("any_melee", 1)):
        s = state(_gen("katana.issen"), unit("oni", "B", **ONI), options={"counter": {"issen_triggers": trig}})
        push(s, "reserve:katana.issen")
        push(s, "end")
        ev = push(s, "use:kanabou.kyouda>g", *((2, 4) if not counters else (2, 4, 7, 6)))  # 6 + 3 = 9 < 10
        assert kinds(ev).count("counter") == counters
