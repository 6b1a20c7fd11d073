"""Status conditions (002 状態異常): F-T08…F-T14, F-R10…F-R15, F-G06…F-G12 — what each
forbids and what it modifies, with exact numbers."""

from __future__ import annotations

import pytest

from ikusa.dice.source import RandomSource, ScriptedSource
from ikusa.engine.errors import RuleViolation
from ikusa.systems.fantasy.actions import hit_roll, hit_text, st_check
from ikusa.systems.fantasy.conditions import Cond, builtin_conditions, effective
from ikusa.systems.fantasy.state import FantasyState
from tests.systems.fantasy.helpers import BOW, SWORD, ch, make, start


def duel(a_kw: dict[str, object] | None = None, b_kw: dict[str, object] | None = None,
         **enc: object) -> FantasyState:
    """A (initiative 10) acts first against B; both front, engaged."""
    a = ch("a", "red", values={"initiative": 10}, **(a_kw or {}))
    b = ch("b", "blue", **(b_kw or {}))
    st = make([a, b], **enc)
    start(st, [1, 2, 1, 2])
    return st


def mods(st: FantasyState, who: str, *tags: str) -> list[tuple[str, int]]:
    return [(m.source, m.value) for m in st.mods(st.fighters[who], tags)]


def test_t08_paralysis_always_hit_unless_auto_fail() -> None:
    """F-T08/F-R10: an attack that would miss hits a paralysed target (no evasion roll); (1,1) misses."""
    st = duel(b_kw={"conditions": [{"id": "麻痺"}], "values": {"evasion": 30}})
    a, b = st.fighters["a"], st.fighters["b"]
    hit, parts, data = hit_roll(st, a, b, ("attack.melee",), 0, True, ScriptedSource([1, 2]))
    assert hit and "evade" not in data and "麻痺" in hit_text(parts)
    hit, _t, _d = hit_roll(st, a, b, ("attack.melee",), 0, True, ScriptedSource([1, 1]))
    assert not hit


def test_t08_paralysis_st_rules() -> None:
    """F-T08/F-G06: 避ける直感ST → not allowed (auto-fail); 頑健ST → rolled normally; 知覚の直感ST allowed."""
    st = duel(b_kw={"conditions": [{"id": "paralysis"}], "values": {"fort": 3, "intuition": 20}})
    b = st.fighters["b"]
    avoid = st_check(st, b, "intuition_avoid", ScriptedSource([]))
    assert avoid.blocked is not None and not avoid.succeeds_against(2, st.opts)
    assert "麻痺" in avoid.text() and "自動失敗" in avoid.text()
    fort = st_check(st, b, "fort", ScriptedSource([4, 5]))
    assert fort.total == 12 and fort.mods == ()
    assert st_check(st, b, "intuition_perceive", ScriptedSource([1, 2])).total == 23


def test_paralysed_and_sleeping_do_not_act_or_hold_front() -> None:
    """F-G06/F-G07: no turn, no front holding, no opportunity attacks."""
    st = make([ch("a", "red", values={"initiative": 10}, conditions=[{"id": "麻痺"}]),
               ch("b", "red", conditions=[{"id": "睡眠"}]), ch("c", "blue", row="back")])
    ev = start(st, [1, 2, 1, 2, 1, 2])
    skips = [e.data["condition"] for e in ev if e.kind == "skip"]
    assert skips == ["paralysis", "sleep"]
    assert st.pending().actor == "c"  # type: ignore[union-attr]
    assert st.formation.valid_count(("red", "fore")) == 0


def test_t09_sleep_wakes_prone_on_damage() -> None:
    """F-T09/F-R11: a sleeper hit for 3 takes 3, wakes, is 伏せ; next melee evasion −2."""
    st = duel(a_kw={"weapons": [{**SWORD, "damage_dice": 1, "damage_bonus": 0}]},
              b_kw={"conditions": [{"id": "睡眠"}]})
    ev = st.apply("attack:sword:b", ScriptedSource([2, 3, 3]))
    b = st.fighters["b"]
    assert b.hp == 17 and not b.has("sleep") and b.has("prone")
    assert any(e.kind == "wake" for e in ev)
    assert mods(st, "b", "evade.melee") == [("伏せ", -2)]


def test_sleep_will_spells_ineffective_and_ally_wakes() -> None:
    """F-R11/F-G07: a Will-save spell does nothing to a sleeper; an ally spends 1 action to wake it."""
    spell = {"id": "hold", "name": "ホールド", "save": "will", "condition": "麻痺", "rounds": 2}
    st = duel(a_kw={"spells": [spell]}, b_kw={"conditions": [{"id": "睡眠"}]})
    ev = st.apply("cast:hold:b", ScriptedSource([5, 5], fallback=RandomSource(0)))
    assert any(e.kind == "spell_immune" for e in ev) and not st.fighters["b"].has("paralysis")
    st2 = make([ch("a", "red", values={"initiative": 10}), ch("a2", "red", conditions=[{"id": "sleep"}]),
                ch("b", "blue")])
    start(st2, [1, 2, 1, 2, 1, 2])
    assert "wake:a2" in st2.pending().keys()  # type: ignore[union-attr]
    st2.apply("wake:a2", ScriptedSource([]))
    assert st2.fighters["a2"].has("prone") and not st2.fighters["a2"].has("sleep")


def test_t10_prone_evasion_melee_and_ranged() -> None:
    """F-T10/F-R12/F-G08: prone evasion −2 against melee and against ranged from inside the
    engagement area or from above; normal against a distant archer."""
    st = make([ch("a", "red", values={"initiative": 10}, weapons=[SWORD, BOW]),
               ch("archer", "red", row="back", weapons=[BOW]),
               ch("high", "red", row="back", weapons=[BOW], elevated=True),
               ch("b", "blue", conditions=[{"id": "伏せ"}])])
    start(st, [1, 2] * 4)
    a, archer, high, b = (st.fighters[k] for k in ("a", "archer", "high", "b"))
    from ikusa.systems.fantasy.actions import evade_tags

    assert mods(st, "b", *evade_tags(st, a, b, True)) == [("伏せ", -2)]
    assert mods(st, "b", *evade_tags(st, archer, b, False)) == []
    assert mods(st, "b", *evade_tags(st, a, b, False)) == [("伏せ", -2)]
    assert mods(st, "b", *evade_tags(st, high, b, False)) == [("伏せ", -2)]
    assert mods(st, "b", "st.intuition.avoid") == [("伏せ", -2)]


def test_prone_forbids_melee_and_stand_up() -> None:
    """F-R12: a prone character cannot melee (F-R12 named), may shoot, and stands up for 1 action."""
    st = duel(a_kw={"conditions": [{"id": "prone"}], "weapons": [SWORD, BOW]})
    keys = st.pending().keys()  # type: ignore[union-attr]
    assert "attack:sword:b" not in keys and "attack:bow:b" in keys and "stand" in keys
    with pytest.raises(RuleViolation) as exc:
        st.apply("attack:sword:b", ScriptedSource([]))
    assert exc.value.rule == "F-R12" and "伏せ" in exc.value.section
    st.apply("stand", ScriptedSource([]))
    assert not st.fighters["a"].has("prone") and st.fighters["a"].actions == 1


def test_t11_darkness() -> None:
    """F-T11/F-R13: blind attacker melee −4, ranged −6; defender evasion −4, 直感ST −4;
    single-target spell cannot be cast; self-centred area spell allowed."""
    bolt = {"id": "bolt", "name": "ボルト", "target": "single", "damage_dice": 1}
    nova = {"id": "nova", "name": "ノヴァ", "target": "area", "area": "小円", "center": "self", "select": True,
            "damage_dice": 1}
    ball = {"id": "ball", "name": "ボール", "target": "area", "area": "中円", "center": "other", "damage_dice": 1}
    st = duel(a_kw={"conditions": [{"id": "盲目", "cause": "physical"}], "spells": [bolt, nova, ball]})
    assert mods(st, "a", "attack.melee") == [("暗闇・盲目", -4)]
    assert mods(st, "a", "attack.ranged") == [("暗闇・盲目", -6)]
    assert mods(st, "a", "evade.ranged") == [("暗闇・盲目", -4)]
    assert mods(st, "a", "st.intuition.perceive") == [("暗闇・盲目", -4)]
    keys = st.pending().keys()  # type: ignore[union-attr]
    assert "cast:nova:self" in keys and "cast:bolt:b" not in keys and "cast:ball:blue" not in keys
    with pytest.raises(RuleViolation) as exc:
        st.apply("cast:bolt:b", ScriptedSource([]))
    assert exc.value.rule == "F-R13"


def test_t12_poor_visibility_numbers() -> None:
    """F-T12/F-R14/F-G10: melee −2, ranged −3, evasion −2, 直感ST −2, single 魔法強度 −2, area
    elsewhere −2, with selective exclusion −4 in total; area on self 0."""
    st = duel(a_kw={"conditions": [{"id": "視界不良", "cause": "fog"}]})
    total = {t: sum(v for _s, v in mods(st, "a", *t.split("+"))) for t in
             ["attack.melee", "attack.ranged", "evade.melee", "st.intuition.avoid", "magic.single",
              "magic.area+magic.area_other", "magic.area+magic.area_other+magic.area_select",
              "magic.area+magic.area_self"]}
    assert total == {"attack.melee": -2, "attack.ranged": -3, "evade.melee": -2, "st.intuition.avoid": -2,
                     "magic.single": -2, "magic.area+magic.area_other": -2,
                     "magic.area+magic.area_other+magic.area_select": -4, "magic.area+magic.area_self": 0}


def test_t13_senses_negate_light_causes_only() -> None:
    """F-T13: dwarf or elf in moonlight → no penalty; dwarf in fog → full; darkvision vs physical blindness → full."""
    table = builtin_conditions()
    moon = [Cond("poor_visibility", cause="light")]
    assert effective(moon, ["darkvision"], table) == []
    assert effective(moon, ["lowlight"], table) == []
    assert [d.id for _c, d in effective(moon, [], table)] == ["poor_visibility"]
    assert [d.id for _c, d in effective([Cond("poor_visibility", cause="fog")], ["darkvision"], table)] == [
        "poor_visibility"]
    assert effective([Cond("darkness", cause="light")], ["darkvision"], table) == []
    assert [d.id for _c, d in effective([Cond("darkness", cause="light")], ["lowlight"], table)] == ["darkness"]
    assert [d.id for _c, d in effective([Cond("darkness", cause="physical")], ["darkvision"], table)] == [
        "darkness"]
    st = make([ch("d", "a", race="dwarf"), ch("e", "b", race="elf"), ch("h", "b")],
              environment=[{"id": "視界不良", "cause": "light"}])
    assert mods(st, "d", "attack.melee") == [] and mods(st, "e", "attack.melee") == []
    assert mods(st, "h", "attack.melee") == [("視界不良", -2)]


def test_t14_stun() -> None:
    """F-T14/F-R15: evasion −2, all ST −2; front of 2 with 1 stunned → 1 valid; no opportunity attack."""
    st = make([ch("a", "red", values={"initiative": 10}), ch("b1", "blue"),
               ch("b2", "blue", conditions=[{"id": "朦朧", "rounds": 2}])])
    start(st, [1, 2] * 3)
    assert mods(st, "b2", "evade.melee") == [("朦朧", -2)]
    assert mods(st, "b2", "st.fort") == [("朦朧", -2)] and mods(st, "b2", "st.will") == [("朦朧", -2)]
    assert st.formation.valid_count(("blue", "fore")) == 1
    ev = st.apply("withdraw", ScriptedSource([1, 2, 6, 5]))  # OA 2D[1,2]+5=8 vs 回避 2D[6,5]+4=15
    opp = next(e for e in ev if e.kind == "opportunity")
    assert opp.data["attackers"] == ["b1"] and opp.data["excluded"] == ["b2"]
    assert "機会攻撃 1人" in opp.text


def test_stun_needs_duration_and_expires() -> None:
    """F-R15: the duration is always stated; after it the character recovers (F-H12)."""
    from ikusa.engine.errors import InputError

    with pytest.raises(InputError) as exc:
        make([ch("a", "r", conditions=[{"id": "朦朧"}]), ch("b", "b")])
    assert "characters[0].conditions[0].id" in str(exc.value) and "F-R15" in str(exc.value)
    st = make([ch("a", "r", conditions=[{"id": "朦朧", "rounds": 1}]), ch("b", "b", values={"initiative": 10})])
    start(st, [1, 2, 1, 2])
    ev = st.apply("end", ScriptedSource([1, 2, 1, 2]))
    kinds = [e.kind for e in ev]
    assert kinds.index("skip") < kinds.index("condition_end") < kinds.index("round")
    assert not st.fighters["a"].has("stun") and st.round == 2


def test_g11_stacking() -> None:
    """F-G11: different conditions add (伏せ + 水場 → 直感ST −4); 暗闇/視界不良 take the worse;
    水中 replaces 水場; the same condition twice keeps the longer duration."""
    st = make([ch("a", "r", conditions=[{"id": "伏せ"}, {"id": "水場"}, {"id": "視界不良", "cause": "fog"},
                                         {"id": "暗闇", "cause": "physical"}]), ch("b", "b")])
    assert sorted(mods(st, "a", "st.intuition.avoid")) == sorted([("伏せ", -2), ("水場", -2), ("暗闇・盲目", -4)])
    table = builtin_conditions()
    both = effective([Cond("wading"), Cond("submerged")], [], table)
    assert [d.id for _c, d in both] == ["submerged"]
    twice = effective([Cond("stun", 1), Cond("stun", 3)], [], table)
    assert [(c.id, c.rounds) for c, _d in twice] == [("stun", 3)]


def test_cover_bonus_until_next_turn() -> None:
    """遮蔽 (F-H08, invented effect): +2 evasion against ranged only, ends at the next own turn."""
    st = duel()
    st.apply("cover", ScriptedSource([]))
    assert mods(st, "a", "evade.ranged") == [("遮蔽", 2)] and mods(st, "a", "evade.melee") == []
    assert "cover" not in st.pending().keys()  # type: ignore[union-attr]
    st.apply("end", ScriptedSource([]))  # B's turn
    ev = st.apply("end", ScriptedSource([1, 2, 1, 2]))  # round 2: A first again
    assert any(e.kind == "cover_end" for e in ev) and mods(st, "a", "evade.ranged") == []


def test_advance_rear_refused_outside_corridor() -> None:
    st = make([ch("a", "r", row="back", values={"initiative": 10}), ch("b", "e")])
    start(st, [1, 2, 1, 2])
    with pytest.raises(RuleViolation) as rv:
        st.apply("advance:rear", ScriptedSource([]))
    assert rv.value.rule == "F-R08"


def test_custom_condition_in_encounter() -> None:
    """Conditions are data: a GM-defined 石化 (petrified) blocks acting and evading, from the file."""
    stone = {"id": "petrified", "name": "石化", "rules": ["F-R06"], "section": "GM ruling", "can_act": False,
             "can_evade": False, "always_hit": True, "counts_for_front": False,
             "modifiers": [{"applies_to": ["st.fort"], "value": 4}]}
    st = duel(b_kw={"conditions": [{"id": "石化"}]}, conditions=[stone])
    assert mods(st, "b", "st.fort") == [("石化", 4)]
    assert st.formation.valid_count(("blue", "fore")) == 0
    hit, parts, _d = hit_roll(st, st.fighters["a"], st.fighters["b"], ("attack.melee",), 0, True,
                              ScriptedSource([1, 2]))
    assert hit and "石化" in hit_text(parts)
    from ikusa.engine.errors import InputError

    with pytest.raises(InputError) as exc:
        duel(conditions=[{**stone, "wakes_on_damage_to": "nothing"}])
    assert exc.value.field == "conditions[0].wakes_on_damage_to"
    with pytest.raises(InputError) as exc:
        duel(conditions=[{**stone, "can_act": "maybe"}])
    assert exc.value.field == "conditions.0.can_act"


def test_g12_stunned_ally_led_by_the_hand() -> None:
    """F-R15/F-G12: a stunned character walks when led; the move uses the leader's actions and the
    stunned one draws the opportunity attacks."""
    st = make([ch("a", "r", values={"initiative": 10}, row="back"),
               ch("s", "r", conditions=[{"id": "朦朧", "rounds": 2}]), ch("b", "e")])
    start(st, [1, 2] * 3)
    ev = st.apply("lead:s", ScriptedSource([1, 2, 6, 5]))  # B's opportunity attack 8 vs 回避 15-2
    opp = next(e for e in ev if e.kind == "opportunity")
    assert opp.data["id"] == "s" and opp.data["attackers"] == ["b"]
    assert st.fighters["s"].row == "back" and st.fighters["a"].actions == 1
    assert any(e.kind == "lead" for e in ev)


def test_stun_cured_by_mental_cure() -> None:
    """F-R15: 朦朧 is cured by a means that heals mental conditions (cure tag 'mental'); 麻痺 is not."""
    calm = {"id": "calm", "name": "サニティ", "target": "single", "ally": True, "cures": ["mental"]}
    st = make([ch("a", "r", values={"initiative": 10}, row="back", spells=[calm]),
               ch("s", "r", conditions=[{"id": "朦朧", "rounds": 3}]),
               ch("p", "r", row="back", conditions=[{"id": "麻痺"}]), ch("b", "e")])
    start(st, [1, 2] * 4)
    opt = next(o for o in st.pending().options if o.key == "cast:calm:s")  # type: ignore[union-attr]
    assert opt.data["cures"] == 1
    ev = st.apply("cast:calm:s", ScriptedSource([3, 3], fallback=RandomSource(0)))
    assert any(e.kind == "cured" for e in ev) and not st.fighters["s"].has("stun")
    assert not any(e.kind == "save" for e in ev)
    st2 = make([ch("a", "r", values={"initiative": 10}, row="back", spells=[calm]),
                ch("p", "r", conditions=[{"id": "麻痺"}]), ch("b", "e")])
    start(st2, [1, 2] * 3)
    st2.apply("cast:calm:p", ScriptedSource([3, 3], fallback=RandomSource(0)))
    assert st2.fighters["p"].has("paralysis")
