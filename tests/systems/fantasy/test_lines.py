"""#13 fantasy (lines.py): 射線の確保 and 全力移動 as actions on the rows/fronts model, 「呼吸を
整える」 as an option, ammunition and spell reach (F-H05, F-H06, F-H08, F-H11, F-R08, F-R09,
F-R16…F-R18, F-G13)."""

from __future__ import annotations

from typing import Any

import pytest

from ikusa.dice.source import ScriptedSource
from ikusa.engine.errors import RuleViolation
from ikusa.systems.fantasy.state import FantasyState
from tests.systems.fantasy.helpers import BOW, ch, make, start

SCREENED = {"line_of_fire": "screened"}


def archers(**kw: Any) -> FantasyState:
    """r: a fighter (front) and an archer (back, acts first); e: the same."""
    chars = [ch("a", "r"), ch("arch", "r", row="back", weapons=[BOW], values={"initiative": 20}),
             ch("b", "e"), ch("c", "e", row="back", weapons=[BOW])]
    st = make(chars, engagements=[["r.fore", "e.fore"]], **kw)
    start(st, [1, 1] * 4)
    assert st.current == "arch"
    return st


def refused(st: FantasyState, key: str) -> RuleViolation:
    before = (st.current, {f.id: (f.hp, f.actions, f.row, f.front) for f in st.fighters.values()})
    with pytest.raises(RuleViolation) as err:
        st.apply(key, ScriptedSource([]))
    assert (st.current, {f.id: (f.hp, f.actions, f.row, f.front) for f in st.fighters.values()}) == before
    return err.value


def test_open_lines_are_the_default_and_offer_no_aim() -> None:
    st = archers()
    keys = st.pending().keys()
    assert "attack:bow:c" in keys and "aim" not in keys


def test_screened_back_row_needs_line_of_fire_first() -> None:
    """line_of_fire: screened — c (back row) hides behind b's held front until 射線の確保."""
    st = archers(options=SCREENED)
    keys = st.pending().keys()
    assert "attack:bow:b" in keys and "attack:bow:c" not in keys
    err = refused(st, "attack:bow:c")
    assert err.rule == "F-H08" and "射線の確保" in str(err)
    aim = next(o for o in st.pending().options if o.key == "aim")
    assert aim.cost == 1 and "C" in aim.label
    ev = st.apply("aim", ScriptedSource([]))
    assert ev[0].kind == "aim" and st.fighters["arch"].actions == 1
    assert "attack:bow:c" not in st.pending().keys()  # 1 action left; an attack needs 2
    assert st.fighters["arch"].aimed == ("back", "fore")


def test_the_line_holds_until_the_shooter_moves() -> None:
    """射線の確保 holds into the next turn while the archer stays in the back row; moving to
    the front loses it (and from the front the back row is still screened)."""
    st = archers(options={**SCREENED, "actions_per_turn": 3})
    st.apply("aim", ScriptedSource([]))
    assert "attack:bow:c" in st.pending().keys()
    st.apply("attack:bow:c", ScriptedSource([6, 6, 1, 1, 3]))
    st.apply("end", ScriptedSource([]))
    while st.current != "arch" and st.pending() is not None:
        st.apply("end", ScriptedSource([1, 1] * 8))
    assert st.current == "arch" and st.fighters["arch"].aimed == ("back", "fore")
    keys = st.pending().keys()
    assert "attack:bow:c" in keys and "aim" not in keys
    st.apply("advance:fore", ScriptedSource([]))
    keys = st.pending().keys()
    assert "attack:bow:c" not in keys and "aim" in keys


def test_aim_costs_double_in_water() -> None:
    """F-R16/F-G13: 射線の確保 needs ×2 actions in 水場 (cost_line_of_fire 1 → 2)."""
    st = archers(options=SCREENED, environment=[{"id": "水場"}])
    aim = next(o for o in st.pending().options if o.key == "aim")
    assert aim.cost == 2


def test_an_unheld_front_screens_nothing() -> None:
    st = archers(options=SCREENED)
    st.fighters["b"].hp = 0
    st.fighters["b"].down = True  # the front is not held any more (F-H08)
    d = st.pending()
    assert d is not None and "attack:bow:c" in d.keys() and "aim" not in d.keys()


def test_the_cliff_blocks_back_to_back_even_with_aim() -> None:
    """F-R09: on the cliff ledge no 射線の確保 opens back row → enemy back row."""
    st = archers(options=SCREENED, battlefield="cliff_ledge")
    assert "aim" not in st.pending().keys()
    assert refused(st, "attack:bow:c").rule == "F-R09"


def corridor(rear: int = 0) -> FantasyState:
    chars = [ch("a", "r", values={"initiative": 20}), ch("x", "e"), ch("y", "e2")]
    chars += [ch(f"r{i}", "r", front="rear") for i in range(rear)]
    st = make(chars, battlefield="corridor", engagements=[["r.fore", "e.fore"], ["r.rear", "e2.fore"]])
    start(st, [1, 1] * len(chars))
    assert st.current == "a"
    return st


def test_run_to_the_other_front_draws_opportunity_attacks() -> None:
    """全力移動 (cost_run 2): fore → rear in one action, engaged enemies may strike."""
    st = corridor()
    run = next(o for o in st.pending().options if o.key == "run:rear")
    assert run.cost == 2
    ev = st.apply("run:rear", ScriptedSource([1, 1, 6, 6]))
    kinds = [e.kind for e in ev]
    assert "opportunity" in kinds and kinds[-1] == "run"
    assert (st.fighters["a"].row, st.fighters["a"].front) == ("front", "rear")


def test_run_into_a_full_front_is_refused_naming_f_r08() -> None:
    """F-R08 / F-T04: the corridor front holds 2; a third runner is refused."""
    st = corridor(rear=2)
    assert "run:rear" not in st.pending().keys()
    err = refused(st, "run:rear")
    assert err.rule == "F-R08" and "2人まで" in str(err)


def test_no_run_where_there_is_one_front() -> None:
    st = archers()
    assert not any(k.startswith("run:") for k in st.pending().keys())


def test_breathe_is_refused_by_default_naming_f_h11() -> None:
    st = archers()
    assert "breathe" not in st.pending().keys()
    assert refused(st, "breathe").rule == "F-H11"


def test_breathe_is_impossible_underwater() -> None:
    """F-R18: 水中においては「呼吸を整える」ことは不可能 (whatever the option)."""
    st = archers(options={"breathe_fatigue_dice": 1}, environment=[{"id": "水中"}])
    st.fighters["arch"].fatigue = 3
    assert refused(st, "breathe").rule == "F-R18"


def test_breathe_recovers_fatigue_and_hp_out_of_the_water() -> None:
    """breathe_fatigue_dice 2: the whole turn, 2D[2,5]=7 → fatigue 5 → 0, HP 15 → 20 (max)."""
    st = archers(options={"breathe_fatigue_dice": 2})
    f = st.fighters["arch"]
    f.fatigue, f.hp = 5, 15
    opt = next(o for o in st.pending().options if o.key == "breathe")
    assert opt.cost == 2
    ev = st.apply("breathe", ScriptedSource([2, 5]))
    assert (f.fatigue, f.hp) == (0, 20) and ev[0].rule == "F-H11,F-R18"
    assert st.current != "arch"  # it used the whole turn


def test_breathe_needs_fatigue_and_a_fresh_turn() -> None:
    st = archers(options={"breathe_fatigue_dice": 1, "actions_per_turn": 3})
    assert "breathe" not in st.pending().keys()  # no fatigue
    st.fighters["arch"].fatigue = 2
    st.apply("attack:bow:b", ScriptedSource([1, 1, 6, 6]))
    assert refused(st, "breathe").rule == "F-H11,F-H07"


def test_ammunition_runs_out() -> None:
    """F-H05: a bow with 1 arrow shoots once, then it is refused."""
    bow = {**BOW, "ammo": 1}
    chars = [ch("a", "r"), ch("arch", "r", row="back", weapons=[bow], values={"initiative": 20}), ch("b", "e")]
    st = make(chars, options={"actions_per_turn": 4})
    start(st, [1, 1] * 3)
    assert "[残り1]" in next(o.label for o in st.pending().options if o.key == "attack:bow:b")
    st.apply("attack:bow:b", ScriptedSource([1, 1, 6, 6]))
    err = refused(st, "attack:bow:b")
    assert err.rule == "F-H05" and "尽きた" in str(err)


def test_spell_reach() -> None:
    """F-H06: a bolt with range 10 m: the engaged front (2 + 5 = 7 m from the back row) yes,
    the enemy back row (2 + 5 + 5 = 12 m) no."""
    bolt = {"id": "bolt", "name": "ボルト", "target": "single", "save": "will", "damage_dice": 1, "range_m": 10}
    chars = [ch("a", "r"), ch("m", "r", row="back", spells=[bolt], values={"initiative": 20}),
             ch("b", "e"), ch("c", "e", row="back")]
    st = make(chars, engagements=[["r.fore", "e.fore"]])
    start(st, [1, 1] * 4)
    keys = st.pending().keys()
    assert "cast:bolt:b" in keys and "cast:bolt:c" not in keys
    err = refused(st, "cast:bolt:c")
    assert err.rule == "F-H06" and "10m" in str(err) and "12m" in str(err)
