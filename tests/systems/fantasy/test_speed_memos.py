"""The speed work of issue #12 changes nothing a player sees (fantasy):

* ``pending()`` reuses its last decision (and a kept option list, option_cache.py) only while
  what it depends on is unchanged: at every step of generated battles the decision equals one
  computed by a fresh copy of the state with nothing kept, option for option (key, label,
  cost, odds, data);
* a state changed behind the engine's back (a test or a tool setting fields directly) is
  never answered from the old list;
* the per-scope memos of ``effective()`` and of the formation exist only while options are
  listed, and give the same answers as the direct computation.
"""

from __future__ import annotations

import copy
import random

from ikusa.dice.source import RandomSource
from ikusa.engine.protocol import Decision
from ikusa.systems.fantasy.conditions import Cond
from ikusa.systems.fantasy.legal import candidates
from ikusa.systems.fantasy.option_cache import OptionBook
from ikusa.systems.fantasy.policies import GreedyPolicy, RandomPolicy
from ikusa.systems.fantasy.state import FantasyState
from tests.systems.fantasy.helpers import ch, make, start
from tests.systems.fantasy.test_properties import random_battle


def _fresh(st: FantasyState) -> Decision | None:
    """The decision a state with no memo computes (a deep copy, memos and kept lists dropped)."""
    other = copy.deepcopy(st)
    other._pending_memo = None
    other._option_book = OptionBook()
    return other.pending()


def _same(a: Decision | None, b: Decision | None) -> None:
    assert (a is None) == (b is None)
    if a is None or b is None:
        return
    assert (a.actor, a.kind, a.prompt) == (b.actor, b.kind, b.prompt)
    assert [(o.key, o.label, o.cost, o.odds, o.data) for o in a.options] == \
        [(o.key, o.label, o.cost, o.odds, o.data) for o in b.options]


def test_reused_decisions_equal_fresh_ones_in_generated_battles() -> None:
    reused = 0
    for seed in range(12):
        st = random_battle(seed)
        rng = random.Random(seed)
        dice = RandomSource(seed)
        pol = GreedyPolicy() if seed % 2 else RandomPolicy()
        steps = 0
        while (d := st.pending()) is not None and steps < 400:
            again = st.pending()
            reused += again is d
            _same(again, _fresh(st))
            st.apply(pol.choose(st, d, rng), dice)
            steps += 1
    assert reused > 50  # the memo is really used (an action decision asked twice is the same object)


def test_a_direct_change_is_never_answered_from_the_old_list() -> None:
    st = make([ch("a", "x", values={"initiative": 9}), ch("b", "y"), ch("c", "y", row="back")])
    start(st, [6, 6, 1, 1, 1, 1])
    first = st.pending()
    assert first is not None and first.actor == "a" and "attack:sword:b" in first.keys()
    st.fighters["a"].conds.append(Cond("prone"))  # in place: the list object is the same
    after = st.pending()
    assert after is not first and "attack:sword:b" not in after.keys() and "stand" in after.keys()
    _same(after, _fresh(st))
    st.fighters["a"].conds.clear()
    st.fighters["b"].hp = 0
    st.fighters["b"].down = True
    later = st.pending()
    assert later is not None and not any(k.endswith(":b") for k in later.keys())
    _same(later, _fresh(st))
    st.fighters["a"].actions = 0
    none_left = st.pending()
    assert none_left is not None and [o.key for o in none_left.options if o.cost] == []


def test_the_scope_memos_agree_with_the_direct_computation_and_end_with_the_scope() -> None:
    for seed in range(6):
        st = random_battle(seed)
        dice = RandomSource(seed)
        rng = random.Random(seed)
        steps = 0
        while (d := st.pending()) is not None and steps < 200:
            if st.current is not None and not st.placing:
                f = st.fighters[st.current]
                direct = [(c.key, c.label, c.cost, c.odds, c.data, str(c.why_not)) for c in candidates(st, f)]
                with st.reading():
                    memo = [(c.key, c.label, c.cost, c.odds, c.data, str(c.why_not)) for c in candidates(st, f)]
                    assert st._eff_memo is not None and st.formation.memo is not None
                assert memo == direct
                form = st.formation
                assert st._eff_memo is None and form.memo is None and form.engaged_memo is None
                assert form.pincer_memo is None
            st.apply(RandomPolicy().choose(st, d, rng), dice)
            steps += 1


def _book_after(st: FantasyState, lists: int, hits: int) -> OptionBook:
    """A book that kept ``lists`` lists (distinct keys), the first ``hits`` answered again as kept."""
    book = OptionBook()
    opts = st.pending()
    assert opts is not None
    for i in range(lists):
        book.keep(("k", i), st, list(opts.options))
        if i < hits:
            assert book.get(("k", i)) is not None
    assert len(book.lists) == lists and book.keeping
    return book


def test_the_option_book_stops_keeping_at_256_lists_when_fewer_than_one_in_four_came_back() -> None:
    st = make([ch("a", "x"), ch("b", "y")])
    start(st, [6, 6, 1, 1])
    rare = _book_after(st, 256, 63)  # 63 × 4 < 256: the next list is not kept
    rare.keep(("k", "new"), st, [])
    assert not rare.keeping and len(rare.lists) == 256 and rare.get(("k", 0)) is not None
    often = _book_after(st, 256, 64)  # one in four: keeps on
    often.keep(("k", "new"), st, [])
    assert often.keeping and often.get(("k", "new")) == ()
    full = _book_after(st, OptionBook.LIMIT, OptionBook.LIMIT)  # full and reused: starts afresh
    full.keep(("k", "new"), st, [])
    assert full.keeping and list(full.lists) == [("k", "new")] and full.hits == 0
