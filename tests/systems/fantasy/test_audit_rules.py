"""Audit fixes against 002 (ANALYSIS Part 2): stacking with senses (F-R13/F-G11), the pincered
front-only unit (F-R08), 「呼吸を整える」 (F-R18/F-H11)."""

from __future__ import annotations

import pytest

from ikusa.dice.source import ScriptedSource
from ikusa.engine.errors import RuleViolation
from ikusa.systems.fantasy.actions import attack_mods
from ikusa.systems.fantasy.conditions import Cond, effective
from tests.systems.fantasy.helpers import ch, make, start


def test_f_r13_g11_dwarf_blinded_in_unlit_cave_is_still_blind() -> None:
    """F-R13: 暗視 negates darkness from lack of light, not physical blindness.  A dwarf blinded
    for 3 rounds inside an unlit cave (暗闇, cause light, no end): the cave's darkness is
    negated, the blindness is not; one 暗闇 applies (F-G11: same condition does not stack)."""
    conds = [Cond("darkness", 3, "physical"), Cond("darkness", None, "light")]
    eff = effective(conds, ["darkvision"])
    assert [(c.id, c.cause, c.rounds) for c, _d in eff] == [("darkness", "physical", 3)]
    assert effective(conds, []) and [c.rounds for c, _d in effective(conds, [])] == [None]  # longer wins
    assert effective([Cond("darkness", None, "light")], ["darkvision"]) == []
    st = make([ch("d", "pc", race="dwarf", conditions=[{"id": "盲目", "rounds": 3, "cause": "physical"}]),
               ch("g", "gob")], environment=[{"id": "暗闇", "cause": "light"}])
    assert [(a.source, a.value) for a in st.mods(st.fighters["d"], ("evade.melee",))] == [("暗闇・盲目", -4)]
    assert [a.value for a in st.mods(st.fighters["g"], ("evade.melee",))] == [-4]  # human: the cave


def _pincer(with_rear_member: bool) -> list[dict[str, object]]:
    return [ch("p1", "pc"), ch("p2", "pc", front="rear" if with_rear_member else "fore"),
            ch("g1", "gob", unit="gf"), ch("g2", "gob", unit="gr")]


@pytest.mark.parametrize("with_rear_member", [True, False])
def test_f_r08_pincered_front_only_unit_is_attacked_from_both_sides(with_rear_member: bool) -> None:
    """F-R08/F-T06: a unit of front-liners only, engaged fore and rear, is pincered (+1) and can be
    attacked from behind even when nobody of it stands at the rear front (both at fore)."""
    st = make(_pincer(with_rear_member), battlefield="corridor",
              engagements=[["pc.fore", "gf.fore"], ["pc.rear", "gr.fore"]])
    g2 = st.fighters["g2"]
    assert st.formation.pincered("pc")
    reach = {t.id for t in st.formation.melee_targets(g2)}
    assert reach == ({"p2"} if with_rear_member else {"p1", "p2"})
    assert [(a.source, a.value) for a in attack_mods(st, g2, st.fighters["p1"], ("attack.melee",))] == [
        ("挟み撃ち", 1)]


def test_f_r08_no_pincer_when_engaged_on_one_side_only() -> None:
    """F-R08: 前後から挟み撃ち — a front-only unit engaged only at its fore is not pincered."""
    st = make([ch("p1", "pc"), ch("g1", "gob", unit="gf")], battlefield="corridor",
              engagements=[["pc.fore", "gf.fore"]])
    assert not st.formation.pincered("pc")
    assert attack_mods(st, st.fighters["g1"], st.fighters["p1"], ("attack.melee",)) == []


def test_f_r18_breathe_refused_underwater_and_undefined_elsewhere() -> None:
    """F-R18: 水中においては「呼吸を整える」ことは不可能; elsewhere 002 gives no effect (F-H11):
    never an option, and refused naming the rule."""
    st = make([ch("a", "pc", values={"initiative": 9}), ch("b", "gob")], environment=[{"id": "水中"}])
    start(st, [1, 2, 1, 2])
    d = st.pending()
    assert d is not None and "breathe" not in d.keys()
    with pytest.raises(RuleViolation) as rv:
        st.apply("breathe", ScriptedSource([]))
    assert rv.value.rule == "F-R18" and "呼吸を整える" in str(rv.value)
    st = make([ch("a", "pc", values={"initiative": 9}), ch("b", "gob")])
    start(st, [1, 2, 1, 2])
    with pytest.raises(RuleViolation) as rv:
        st.apply("breathe", ScriptedSource([]))
    assert rv.value.rule == "F-H11"
