"""Squads (S-G14, S-R22, S-R61), 出血 (S-G19) and school counters (S-R57, S-G39) in flow."""

from __future__ import annotations

from .maai_flow_support import find, kinds, push, state, unit

KEN = {"剣術": "免許"}


def test_squad_command_formation_and_cost_s_t11() -> None:
    """S-R22 / S-T11: 分隊命令 costs 2, 1 with 智+2; S-G14: formation 防備 +1 for the squad until 小康."""
    s = state(unit("boss", "A", gi=2, fate=0, grade="主", squad="s1", maneuvers=["squad.command"]),
              unit("m", "A", grade="卒", fate=0, squad="s1", maneuvers=["move.basic"]),
              unit("e", "B", fate=0, maneuvers=["move.basic"]))
    d = s.pending()
    assert d is not None and d.option("use:squad.command").cost == 2  # type: ignore[union-attr]
    s2 = state(unit("boss", "A", gi=2, fate=0, grade="主", squad="s1", maneuvers=["squad.command"],
                    abilities={"勇": 0, "技": 2, "體": 0, "智": 2, "美": 0, "運": 0}),
               unit("m", "A", grade="卒", fate=0, squad="s1", maneuvers=["move.basic"]),
               unit("e", "B", fate=0, maneuvers=["move.basic"]))
    assert s2.pending().option("use:squad.command").cost == 1  # type: ignore[union-attr]
    ev = push(s2, "use:squad.command")
    assert find(ev, "command").data["squad"] == "s1"
    assert s2.defence_of(s2.by_id["m"], None) == 9 + 1


def test_leader_down_costs_cohesion_and_rout() -> None:
    """S-R61: a 主 down → 結束力 −1; S-G14: at 0 the squad's 雑/卒 rout (option rout_at)."""
    s = state(unit("x", "A", yu=3, gi=3, fate=0, skills=KEN, weapons=["katana"]),
              unit("boss", "B", grade="主", wounds=1, fate=0, squad="s1", maneuvers=["move.basic"]),
              unit("m", "B", grade="卒", fate=0, squad="s1", maneuvers=["move.basic"]),
              options={"squad": {"cohesion_start": 1}})
    ev = push(s, "use:katana.yokogiri>boss", 8, 3, 9, 9)  # last two: the 主's survival roll
    assert find(ev, "cohesion").data == {"squad": "s1", "cohesion": 0}
    assert find(ev, "rout").data == {"unit": "m"}
    assert s.winner == "A" and "survival" in kinds(ev)


def test_bleed_each_maai_until_bound() -> None:
    """S-G19: 急所貫き inflicts 出血: −1 戦力 at each following 間合 start until 止血 (1 活力)."""
    s = state(unit("a", "A", gi=3, fate=0, skills={"忍術": "免許"}, weapons=["tanto"]),
              unit("b", "B", gi=0, fate=0, wounds=9, maneuvers=["move.basic"]))
    ev = push(s, "use:tanto.kyuusho_nuki>b", 6, 5)
    assert "bleed" in kinds(ev) and s.by_id["b"].wounds == 7
    push(s, "end")
    d = s.pending()
    assert d is not None and d.actor == "a"
    ev = push(s, "pass")
    # b: bind the wound is offered in b's breath
    d = s.pending()
    assert d is not None and d.actor == "b" and d.option("use:common.bind_wound").cost == 1  # type: ignore[union-attr]
    ev = push(s, "pass")
    assert s.maai == 2 and s.by_id["b"].wounds == 6  # the bleed at the 間合 start
    assert find(ev, "damage").rule == "S-G19"


def test_ittou_tanpaku_defence_and_counter_bonus() -> None:
    """S-G39: 一刀短拍: +2 on the defence roll and +3 on the counter."""
    oni = unit("oni", "B", yu=3, gi=1, fate=0, defence=12, wounds=6, skills={"棒術": "入門"},
               maneuvers=["kanabou.kyouda"])
    s = state(unit("g", "A", yu=2, gi=1, fate=0, skills=KEN, weapons=["katana"], schools=["ittou_tanpaku"]), oni)
    push(s, "reserve:katana.issen")
    push(s, "reserve:katana.ukenagashi")
    push(s, "end")
    push(s, "use:kanabou.kyouda>g", 7, 5)  # 15
    ev = push(s, "react:katana.ukenagashi", 6, 4, 3, 4)  # 10 + 3 + 2 = 15 ≥ 15; counter 7 + 4 + 3 = 14 ≥ 12
    assert find(ev, "defence").data["total"] == 15 and find(ev, "defence").data["success"]
    assert find(ev, "counter").data["total"] == 14 and s.by_id["oni"].wounds == 5


def test_taikyoku_zero_vigor_counter_counts_toward_cap() -> None:
    """S-R57: 太極剣舞 counters cost 0 and count toward the 0-活力 cap (2 per 間合)."""
    s = state(unit("g", "A", yu=2, gi=1, fate=0, skills=KEN, weapons=["katana"], schools=["taikyoku_kenbu"],
                   feats=["kata_a"]),
              unit("e", "B", fate=0, maneuvers=["move.basic"]))
    d = s.pending()
    assert d is not None and d.option("reserve:katana.issen").cost == 0  # type: ignore[union-attr]
    push(s, "reserve:katana.issen")
    push(s, "use:kata_a")
    assert s.by_id["g"].zero_used == ["katana.issen", "kata_a"]
    assert "reserve:katana.issen" not in s.pending().keys()  # type: ignore[union-attr]
