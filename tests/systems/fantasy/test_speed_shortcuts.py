"""The shortcuts of issue #12's second fantasy pass give the answers of the long way, at
every step of generated battles (random fields, environments, senses, conditions,
surprise):

* the answers an :class:`~ikusa.systems.fantasy.applying.Applying` keeps (modifiers, the
  condition forbidding a check, capability flags, cost multipliers) equal the ones worked
  out from the applying (Cond, ConditionDef) pairs directly, for every fighter;
* the option list (``options_for``, built directly by option_list.py) is the full candidate
  list minus the forbidden ones, candidate for candidate (more cases: test_option_list.py);
* counting toward a front (F-T14) and being led (F-G12) answer as the applying pairs do;
* a front's melee reach (``Formation.reach_from``) is what a fighter standing there reaches
  (``melee_targets`` with the fighter moved there for the question);
* a clone shares the condition-set book and still plays the same battle as the original.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from ikusa.dice.source import RandomSource
from ikusa.systems.fantasy.conditions import effective
from ikusa.systems.fantasy.legal import candidates, options_for
from ikusa.systems.fantasy.policies import GreedyPolicy, RandomPolicy
from ikusa.systems.fantasy.resolution import blocked_by, condition_modifiers
from ikusa.systems.fantasy.state import FantasyState
from tests.systems.fantasy.test_properties import random_battle

TAGS = [("attack.melee",), ("attack.ranged", "attack.thrown"), ("evade.ranged", "evade.ranged.engaged"),
        ("evade.melee",), ("st.will",), ("st.intuition.avoid",), ("magic.area", "magic.area_other")]
FLAGS = ("can_act", "can_evade", "can_melee", "always_hit", "counts_for_front")
ACTIONS = ("move", "line_of_fire", "cover", "run")


def _direct_pairs(st: FantasyState, fid: str) -> list[tuple[str, str]]:
    f = st.fighters[fid]
    return [(c.id, d.id) for c, d in effective(st.conds_of(f), f.spec.all_senses(), st.table)]


def _check_fighters(st: FantasyState) -> None:
    for f in st.fighters.values():
        pairs = st.effective(f)
        assert [(c.id, d.id) for c, d in pairs] == _direct_pairs(st, f.id)
        for tags in TAGS:
            assert st.mods(f, tags) == condition_modifiers(tags, pairs) + st.fx.mods(f.id, tags)
            assert st.blocked(f, tags) == blocked_by(tags, pairs)
        for name in FLAGS:
            want = next((d for _c, d in pairs if (name == "always_hit") == bool(getattr(d, name))), None)
            assert st.flag(f, name) == want
        for action in ACTIONS:
            assert st.multiplier(f, action) == max([d.action_multipliers.get(action, 1) for _c, d in pairs] + [1])
        env = [d for _c, d in pairs if d.breath]  # F-R18/F-G14 from the pairs (breathless() skips the lookup)
        sinking = f.spec.out_of_depth and f.spec.armor in ("medium", "heavy") and any(
            d.heavy_armor_cannot_swim for d in env)
        assert st.breathless(f) == (bool(env) and (not f.spec.air or sinking))
        # F-T14 / F-G12 (they skip the lookup when nothing held could say otherwise)
        assert st.counts_for_front(f) == all(d.counts_for_front for _c, d in pairs)
        assert st.can_be_led(f) == any(d.can_be_led for _c, d in pairs)
        _pairs, app = st._applying(f)
        if app is not None:  # the breath environments it keeps (F-R18) are the applying ones
            assert list(app.breath) == [d for _c, d in pairs if d.breath]


def _check_options(st: FantasyState) -> None:
    if st.current is None or st.placing or st.over:
        return
    f = st.fighters[st.current]
    with st.reading():
        full = candidates(st, f)
    assert [(o.key, o.label, o.cost, o.odds, o.data) for o in options_for(st, f)] == \
        [(c.key, c.label, c.cost, c.odds, c.data) for c in full if c.why_not is None]
    form = st.formation
    for fr in ("fore", "rear"):
        saved = (f.row, f.front)
        f.row, f.front = "front", fr
        try:
            tried = [t.id for t in form.melee_targets(f)]
        finally:
            f.row, f.front = saved
        assert [t.id for t in form.reach_from((f.unit, fr))] == tried


def _generated_steps() -> Iterator[FantasyState]:
    """Every decision of 16 seeded generated battles (greedy and random by turns, at most 150
    decisions each): the state, before its pending decision is answered."""
    for seed in range(16):
        st = random_battle(seed)
        rng = random.Random(seed)
        dice = RandomSource(seed)
        pol = GreedyPolicy() if seed % 2 else RandomPolicy()
        n = 0
        while (d := st.pending()) is not None and n < 150:
            yield st
            st.apply(pol.choose(st, d, rng), dice)
            n += 1


def test_shortcuts_agree_with_the_long_way_in_generated_battles() -> None:
    steps = 0
    for st in _generated_steps():
        _check_fighters(st)
        _check_options(st)
        steps += 1
    assert steps > 300


def test_a_clone_shares_the_condition_book_and_fights_the_same_battle() -> None:
    for seed in range(6):
        st = random_battle(seed)
        rng = random.Random(seed)
        dice = RandomSource(seed)
        for _ in range(6):
            d = st.pending()
            if d is None:
                break
            st.apply(RandomPolicy().choose(st, d, rng), dice)
        twin = st.clone()
        assert twin._applies is st._applies and twin.fighters["a0"] is not st.fighters["a0"]
        logs = []
        for s in (st, twin):
            r, dd = random.Random(99), RandomSource(99)
            log = []
            while (d := s.pending()) is not None and len(log) < 200:
                log.extend(e.text for e in s.apply(RandomPolicy().choose(s, d, r), dd))
            logs.append((log, s.summary()))
        assert logs[0] == logs[1]


def test_kept_formation_memos_give_the_answers_of_fresh_ones() -> None:
    """The members/engagement/pincer memos a reading scope takes over from the last one (the
    fighters stand where they stood) answer as memos made afresh, at every step."""
    kept = 0
    for st in _generated_steps():
        if st.current is not None and not st.placing:
            f = st.fighters[st.current]
            form = st.formation
            carried = form.kept
            with st.reading():
                kept += form.kept is carried and carried is not None
                got = [(c.key, c.label, c.cost, c.odds, c.data, str(c.why_not)) for c in candidates(st, f)]
                units = {u: (form.pincered(u), [m.id for m in form.unit_members(u)],
                             [(fr, form.engaged_with((u, fr))) for fr in ("fore", "rear")]) for u in form.units()}
            form.kept = None
            with st.reading():
                assert got == [(c.key, c.label, c.cost, c.odds, c.data, str(c.why_not)) for c in candidates(st, f)]
                assert units == {u: (form.pincered(u), [m.id for m in form.unit_members(u)],
                                     [(fr, form.engaged_with((u, fr))) for fr in ("fore", "rear")])
                                 for u in form.units()}
    assert kept > 100  # the memos really are carried over


class _Relay:
    """A dice source that is not a RandomSource (as Combat's recording source is): every roll
    goes through ``roll`` with its purpose."""

    def __init__(self, inner: RandomSource) -> None:
        self.inner = inner
        self.purposes: list[str] = []

    def roll(self, sides: int, count: int = 1, purpose: str = "", roller: str = "") -> list[int]:
        self.purposes.append(purpose)
        return self.inner.roll(sides, count, purpose, roller)


def test_a_check_rolled_from_a_seeded_source_draws_what_the_purposeful_roll_draws() -> None:
    """roll_check takes a seeded source's two dice with RandomSource.pair (no purpose text):
    the same values, check after check, as through roll() (F-H02: 2D6; other dice too)."""
    from ikusa.systems.fantasy.options import FantasyOptions
    from ikusa.systems.fantasy.resolution import roll_check

    for sides in (6, 10):
        opts = FantasyOptions(die_sides=sides)
        fast, slow = RandomSource(7), _Relay(RandomSource(7))
        for i in range(300):
            a = roll_check(fast, opts, "attack.melee", "A", i % 5, ())
            b = roll_check(slow, opts, "attack.melee", "A", i % 5, ())
            assert (a.dice, a.total, a.auto_fail, a.auto_success) == (b.dice, b.total, b.auto_fail, b.auto_success)
        assert slow.purposes[0] == "A 近接命中"  # a source that shows purposes still gets them
