"""The state's unit change log (FlowBase.unit_changes, issue #12 target 3): every bump of a
unit's revision (Unit.urev) is logged, the log starts anew when long (its attack lists are then
built again) and still agrees with a fresh build; the greedy AI's reading of a span's targets
(BreathWait.span_targets) picks what reading the options alone picks."""

from __future__ import annotations

from typing import Any

from bench.bench_large import build
from ikusa.systems.maai.breath_flow import LOG_MAX_PER_UNIT
from ikusa.systems.maai.policies import GreedyPolicy
from ikusa.systems.maai.state import MaaiState
from tests.systems.maai.mass_play import play_checking
from tests.systems.maai.test_attack_lists import agrees


def test_a_revision_bump_is_logged_in_the_state() -> None:
    st = MaaiState(build(20))
    u = st.units[3]
    n = len(st.unit_changes)
    u.urev += 1
    assert st.unit_changes[n:] == [u] and all(x.changes is st.unit_changes for x in st.units)


def test_the_log_starts_anew_when_long_and_the_lists_still_agree() -> None:
    """A battle logs about one change per unit; bumps without a change (as many as the limit
    allows, now and then) make the log start anew: the lists on the old one are built again."""
    renewed = 0
    longest = 0
    last: dict[int, list[Any]] = {}
    limit = LOG_MAX_PER_UNIT * 40 + 64

    def check(st: MaaiState) -> int:
        nonlocal renewed, longest
        log = st.unit_changes
        if last.get(id(st)) is not None and last[id(st)] is not log:
            renewed += 1
        last[id(st)] = log
        longest = max(longest, len(log))
        if st.wait is not None and st.wait.decision.kind == "breath" and len(log) % 7 == 0:
            for _ in range(limit // 3):
                st.units[len(log) % len(st.units)].urev += 1
        return int(agrees(st))

    served, _ = play_checking(build(40), GreedyPolicy(), (1, 2), check)
    assert served > 50
    assert renewed >= 2 and longest <= limit + limit // 3 + 8


def test_greedy_on_span_targets_chooses_as_on_the_options_alone() -> None:
    policy = GreedyPolicy()
    compared = 0

    def check(st: MaaiState) -> int:
        nonlocal compared
        d: Any = st.pending()
        if d is None or d.kind != "breath" or getattr(d, "span_targets", None) is None:
            return 0
        if not any(t is not None for t in d.span_targets):
            return 0
        with_targets = policy._breath_choice(st, d)
        saved, d.span_targets = d.span_targets, None
        try:
            alone = policy._breath_choice(st, d)
        finally:
            d.span_targets = saved
        assert with_targets == alone
        compared += 1
        return 1

    play_checking(build(40), policy, (1, 2, 3), check)
    assert compared > 100
