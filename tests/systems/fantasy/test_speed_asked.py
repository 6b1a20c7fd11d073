"""apply() checks an action against the decision pending() last answered (issue #12: one
state snapshot per decision, not two), and stays exact when the state was changed in
between: an action the old list lacks is checked against a fresh pending(), so it is
accepted when it became legal and refused with its rule when it is not; an apply or a GM
ruling forgets the asked decision, so nothing stale is ever applied against."""

from __future__ import annotations

import pytest

from ikusa.dice.source import ScriptedSource
from ikusa.engine.errors import RuleViolation
from ikusa.engine.rulings import parse_ruling
from ikusa.systems.fantasy.conditions import Cond
from ikusa.systems.fantasy.state import FantasyState
from tests.systems.fantasy.helpers import ch, make, start


def _duel() -> FantasyState:
    st = make([ch("a", "x", values={"initiative": 9}), ch("b", "y"), ch("c", "y", row="back")],
              options={"actions_per_turn": 3})
    start(st, [6, 6, 1, 1, 1, 1])
    return st


def test_an_action_made_legal_by_a_direct_change_is_accepted() -> None:
    st = _duel()
    first = st.pending()
    assert first is not None and first.actor == "a" and "stand" not in first.keys()
    st.fighters["a"].conds.append(Cond("prone"))  # behind the engine's back, after pending()
    events = st.apply("stand", ScriptedSource([]))
    assert [e.kind for e in events] == ["stand"] and not st.fighters["a"].has("prone")


def test_an_action_no_list_holds_is_refused_with_its_rule_and_changes_nothing() -> None:
    st = _duel()
    d = st.pending()
    assert d is not None and "stand" not in d.keys()
    with pytest.raises(RuleViolation) as err:
        st.apply("stand", ScriptedSource([]))
    assert err.value.rule == "F-R12"
    again = st.pending()
    assert st.fighters["a"].actions == 3 and again is not None and again.keys() == d.keys()


def test_apply_and_rulings_forget_the_asked_decision() -> None:
    st = _duel()
    d = st.pending()
    assert d is not None and st._asked is d
    st.apply("cover", ScriptedSource([]))
    assert st._asked is None
    d = st.pending()
    assert d is not None and st._asked is d and "attack:sword:b" in d.keys()
    # a ruling lays 伏せ on the actor: its attack is still listed in the asked decision, but
    # apply checks it against the state after the ruling (F-R12: 伏せ cannot melee)
    st.apply_ruling(parse_ruling({"op": "condition", "unit": "a", "name": "伏せ"}), ScriptedSource([]))
    assert st._asked is None
    with pytest.raises(RuleViolation) as err:
        st.apply("attack:sword:b", ScriptedSource([]))
    assert err.value.rule == "F-R12"
