"""心府 (S-G12, S-T16, S-T38), 突破 (S-G13), 照準集中 (S-T47, S-T50), GM d100 tables and
失着 extras (S-G07, S-T51) in flow."""

from __future__ import annotations

import pytest

from ikusa.dice.source import ScriptedSource
from ikusa.engine.errors import RuleViolation

from .maai_flow_support import combat, find, kinds, push, state, unit


def _event_totals(events: list, kind: str = "attack") -> list[int]:  # type: ignore[type-arg]
    return [e.data["total"] for e in events if e.kind == kind]


def test_s_t16_shinpu_costs() -> None:
    """S-T16: 短刀 刺し base 1, 心府 −1 → floored to 1; 槍 刺し base 2, 心府 +1 → 3, with 竹内流 → 2."""
    s = state(unit("a", "A", gi=2, fate=0, weapons=["tantou", "yari"], maneuvers=["move.fumikomi"]),
              unit("b", "B", fate=0, wounds=9, weapons=["yari"], schools=["takeuchi"]))
    d = s.pending()
    assert d is not None and d.option("use:yari.sashi>b").cost == 2  # type: ignore[union-attr]
    ev = push(s, "use:move.fumikomi>b")
    assert find(ev, "shinpu").data == {"unit": "a", "target": "b"}
    d = s.pending()
    assert d is not None
    assert d.option("use:tantou.sashi>b").cost == 1  # type: ignore[union-attr]
    assert d.option("use:yari.sashi>b").cost == 3  # type: ignore[union-attr]
    b = s.by_id["b"]
    assert s.cost_now(b, next(m for m in b.moves if m.id == "yari.sashi")) == 2  # 竹内流免許 −1


def test_s_t38_short_weapon_fatigue_in_shinpu() -> None:
    """S-T38: 小太刀 連続斬り (cost 1) in 心府, six attacks → 0, 0, 0, −1, −2, −3 (S-T37 outside: −2 …)."""
    s = state(unit("a", "A", yu=0, gi=3, fate=0, skills={"剣術": "入門"}, weapons=["kodachi"],
                   maneuvers=["move.fumikomi"], breath_extensions={"test": 2}),
              unit("b", "B", fate=0, wounds=20, maneuvers=["move.basic"]))
    push(s, "use:move.fumikomi>b")
    events = []
    for _ in range(6):
        events += push(s, "use:kodachi.renzoku_giri>b", 5, 3)
    assert _event_totals(events) == [8, 8, 8, 7, 6, 5]
    assert s.by_id["a"].vigor == 13 - 1 - 6


def test_shinpu_exit_failure_defenceless_and_ranged_forbidden() -> None:
    """S-G12: 離脱 2d10 + 技 ≥ 11; failure → 無防備 and still in 心府.  Ranged weapons are
    not usable in 心府; walking away needs 離脱 first."""
    c = combat(unit("a", "A", gi=1, fate=0, weapons=["shuriken"], maneuvers=["move.fumikomi", "move.basic"]),
               unit("b", "B", fate=0, wounds=5, maneuvers=["move.basic"]), zones=["z1", "z2"])
    c.push("use:move.fumikomi>b", ScriptedSource([]))
    d = c.pending()
    assert d is not None and "use:shuriken.seimitsu_touteki>b" not in d.keys()
    for action, rule in (("use:shuriken.seimitsu_touteki>b", "S-G12"), ("use:move.basic>z2", "S-G12")):
        with pytest.raises(RuleViolation) as err:
            c.push(action, ScriptedSource([]))
        assert err.value.rule == rule
    ev = c.push("use:move.ridatsu", ScriptedSource([3, 4]))
    assert find(ev, "shinpu").data["success"] is False
    a = c.state.by_id["a"]  # type: ignore[attr-defined]
    assert a.defenceless and a.shinpu == {"b"}


def test_shinpu_exit_success() -> None:
    s = state(unit("a", "A", gi=1, fate=0, maneuvers=["move.fumikomi"]),
              unit("b", "B", fate=0, wounds=5, maneuvers=["move.basic"]))
    push(s, "use:move.fumikomi>b")
    push(s, "use:move.ridatsu", 6, 5)
    assert s.by_id["a"].shinpu == set() and s.by_id["b"].shinpu == set()


def test_breakthrough_success_and_failure() -> None:
    """S-G13: through a zone with 2 enemies: TN 11 + 2 = 13 with 2d10 + 勇."""
    units = (unit("a", "A", yu=2, gi=2, fate=0, zone="z1", maneuvers=["move.toppa"]),
             unit("b", "B", fate=0, zone="z2", maneuvers=["move.basic"]),
             unit("c", "B", fate=0, zone="z2", maneuvers=["move.basic"]))
    s = state(*units, zones=["z1", "z2", "z3"])
    d = s.pending()
    assert d is not None and d.option("use:move.toppa>z3") is not None
    ev = push(s, "use:move.toppa>z3", 6, 5)
    assert find(ev, "breakthrough").data == {"unit": "a", "total": 13, "success": True, "zone": "z3"}
    s2 = state(*units, zones=["z1", "z2", "z3"])
    ev = push(s2, "use:move.toppa>z3", 6, 4)
    assert find(ev, "breakthrough").data["success"] is False
    assert s2.by_id["a"].zone == "z2" and "無防備: 突破失敗" in find(ev, "defenceless").text


def test_s_t47_aim_focus_pierce() -> None:
    """S-T47: 急所貫き with 技+3: base 2 + N 3 = 5, no overload; [貫通 5] vs 重甲 (14) → 10."""
    s = state(unit("a", "A", gi=3, fate=0, skills={"忍術": "免許"}, weapons=["tanto"]),
              unit("b", "B", fate=0, wounds=9, armour=["重甲"], maneuvers=["move.basic"]))
    d = s.pending()
    assert d is not None
    assert {"use:tanto.kyuusho_nuki>b+aim3"} <= set(d.keys()) and "use:tanto.kyuusho_nuki>b+aim4" not in d.keys()
    assert d.option("use:tanto.kyuusho_nuki>b+aim3").cost == 5  # type: ignore[union-attr]
    ev = push(s, "use:tanto.kyuusho_nuki>b+aim3", 2, 3)
    a = find(ev, "attack")
    assert a.data["defence"] == 10 and a.data["total"] == 10
    assert s.by_id["b"].wounds == 7  # 2 戦力
    ev = push(s, "end")
    assert "overload" not in kinds(ev)


def test_s_t50_aim_focus_soft_limit_overload() -> None:
    """S-T50 (S-G08 soft limit): 貫通射 with 技+3, N = 3: cost 6 → overload with excess 1;
    [貫通 5] vs 重装甲 (16) → 11."""
    s = state(unit("a", "A", gi=3, tai=0, fate=0, skills={"弓術": "免許"}, weapons=["daikyu"]),
              unit("b", "B", fate=0, wounds=9, armour=["重装甲"], maneuvers=["move.basic"]))
    ev = push(s, "use:daikyu.kantsuusha>b+aim3", 4, 3)
    assert find(ev, "attack").data["defence"] == 11
    ev = push(s, "end", 9, 8)
    o = find(ev, "overload")
    assert (o.data["excess"], o.data["total"], o.data["success"]) == (1, 16, True)


def test_s_t51_gm_fumble_extras_weapon_drop_and_stance_collapse() -> None:
    """S-T51 / S-G07 GM mode: after a 失着 the GM adds 武器落とし → weapon maneuvers are gone
    until 武器を拾う (1 活力); 構え崩し → the next maneuver costs +1."""
    opts = {"tables": {"headless_mode": "gm"}}
    s = state(unit("a", "A", gi=2, fate=0, skills={"剣術": "入門"}, weapons=["katana"]),
              unit("b", "B", fate=0, wounds=9, maneuvers=["move.basic"]), options=opts)
    push(s, "use:katana.yokogiri>b", 3, 3)  # 6 < 10, doubles → 失着
    d = s.pending()
    assert d is not None and d.actor == "GM" and d.kind == "gm_table"
    assert set(d.keys()) == {"gm:none", "gm:weapon_drop", "gm:stance_collapse", "gm:slip"}
    push(s, "gm:weapon_drop")
    d = s.pending()
    assert d is not None and not any(k.startswith("use:katana") for k in d.keys())
    assert d.option("use:common.pick_up_weapon").cost == 1  # type: ignore[union-attr]
    push(s, "use:common.pick_up_weapon")
    assert "use:katana.yokogiri>b" in s.pending().keys()  # type: ignore[union-attr]
    s2 = state(unit("a", "A", gi=2, fate=0, skills={"剣術": "入門"}, weapons=["katana"]),
               unit("b", "B", fate=0, wounds=9, maneuvers=["move.basic"]), options=opts)
    push(s2, "use:katana.yokogiri>b", 3, 3)
    push(s2, "gm:stance_collapse")
    assert s2.pending().option("use:katana.yokogiri>b").cost == 3  # type: ignore[union-attr]
    push(s2, "use:katana.yokogiri>b", 8, 3)
    assert s2.by_id["a"].vigor == 12 - 2 - 3


def test_gouhou_placeholder_table_in_headless_mode() -> None:
    """S-G07: [1,1] failure = 業報 → d100 on the placeholder 致命的失敗表; 95 → weapon broken."""
    s = state(unit("a", "A", gi=2, fate=0, skills={"剣術": "入門"}, weapons=["katana"]),
              unit("b", "B", fate=0, wounds=9, maneuvers=["move.basic"]))
    ev = push(s, "use:katana.yokogiri>b", 1, 1, 95)
    t = find(ev, "table")
    assert (t.data["roll"], t.data["suggested"]) == (95, "weapon_broken")
    a = s.by_id["a"]
    assert a.broken and not any(a.weapon_usable(m) for m in a.moves if m.id.startswith("katana."))


BREAK_HOMEBREW = {
    "maneuvers": [{"id": "test.break_blow", "name": "砕き打ち", "weapon": "kanabou", "kind": "attack", "cost": 3,
                   "ability": "勇", "tags": ["pierce 3", "break"]}],
    "armour": [{"id": "aigis", "name": "アイギス", "weight": "重甲", "bonus": 4, "grade": "神機"}],
}


def _break_state(armour: str) -> object:
    from .maai_flow_support import HOMEBREW

    hb = {**HOMEBREW, "maneuvers": HOMEBREW["maneuvers"] + BREAK_HOMEBREW["maneuvers"],
          "armour": BREAK_HOMEBREW["armour"]}
    return state(unit("x", "A", yu=3, gi=3, fate=0, maneuvers=["test.break_blow"], weapon_grades={"kanabou": "名品"}),
                 unit("t", "B", fate=0, wounds=9, armour=[armour]), homebrew=hb)


def test_s_t43_break_permanent_until_field_repair() -> None:
    """S-T43: 名品金棒 [貫通 3]+[破壊] vs 一般 重甲 (+4): 3 ignored now and permanently, so a
    base-10 wearer has 防備 11; 応急補修 in 小康 restores it, once per armour (S-R50)."""
    s = _break_state("重甲")
    t = s.by_id["t"]  # type: ignore[attr-defined]
    assert s.defence_of(t, None) == 14  # type: ignore[attr-defined]
    ev = push(s, "use:test.break_blow>t", 6, 4)  # type: ignore[arg-type]
    assert find(ev, "attack").data["defence"] == 11
    assert find(ev, "break").data["losses"] == {"juukou": 3}
    assert s.defence_of(t, None) == 11  # type: ignore[attr-defined]
    push(s, "end")  # type: ignore[arg-type]
    d = s.pending()  # type: ignore[attr-defined]
    assert d is not None and d.actor == "x"
    ev = push(s, "pass")  # type: ignore[arg-type]  # t has nothing to do → 小康
    d = s.pending()  # type: ignore[attr-defined]
    assert d is not None and d.kind == "lull" and d.actor == "t"
    assert "maint:common.field_repair>0" in d.keys()
    push(s, "maint:common.field_repair>0")  # type: ignore[arg-type]
    assert s.defence_of(t, None) == 14 and t.armour[0].field_repairs == 1  # type: ignore[attr-defined]


def test_s_t45_break_void_against_higher_grade() -> None:
    """S-T45: [破壊] with a 名品 weapon against 神機 armour: only this attack's [貫通 3] applies."""
    s = _break_state("aigis")
    ev = push(s, "use:test.break_blow>t", 6, 4)  # type: ignore[arg-type]
    assert find(ev, "attack").data["defence"] == 11
    b = find(ev, "break")
    assert b.data["losses"] == {} and b.data["immune"] == ["aigis"]
    assert s.defence_of(s.by_id["t"], None) == 14  # type: ignore[attr-defined]
