"""Check resolution (F-H01…F-H04, F-G04, F-G05) and the exact odds shown on options."""

from __future__ import annotations

import itertools

import pytest

from ikusa.dice.source import ScriptedSource
from ikusa.systems.fantasy.options import FantasyOptions
from ikusa.systems.fantasy.resolution import (
    Applied,
    hit_probability,
    roll_check,
    success_probability,
)

OPTS = FantasyOptions()


def test_check_text_shows_every_modifier_and_rule() -> None:
    c = roll_check(ScriptedSource([3, 4]), OPTS, "attack.melee", "A", 5,
                   [Applied(-2, "水場", "F-R16"), Applied(1, "挟み撃ち", "F-R08")])
    assert c.total == 11
    assert c.text() == "近接命中 2D[3,4]+5-2(水場 F-R16)+1(挟み撃ち F-R08)=11"


def test_g04_automatic_results_and_g05_tn() -> None:
    """F-G04: (1,1) fails whatever the total, (6,6) succeeds; F-G05: 達成値 ≥ TN succeeds."""
    fail = roll_check(ScriptedSource([1, 1]), OPTS, "st.fort", "A", 30, [])
    assert fail.auto_fail and not fail.succeeds_against(2, OPTS) and "自動失敗" in fail.text()
    win = roll_check(ScriptedSource([6, 6]), OPTS, "st.fort", "A", -30, [])
    assert win.auto_success and win.succeeds_against(40, OPTS)
    tie = roll_check(ScriptedSource([4, 4]), OPTS, "st.fort", "A", 4, [])
    assert tie.succeeds_against(12, OPTS)
    assert not tie.succeeds_against(12, FantasyOptions(success_at_tn=False))
    plain = roll_check(ScriptedSource([1, 1]), FantasyOptions(auto_failure="none"), "st.fort", "A", 30, [])
    assert not plain.auto_fail and plain.succeeds_against(32, OPTS)


def brute_hit(margin: int) -> float:
    pairs = list(itertools.product(range(1, 7), repeat=2))
    hits = 0
    for a in pairs:
        for e in pairs:
            if a == (1, 1):
                continue
            if (a == (6, 6) and e != (6, 6)) or e == (1, 1):
                hits += 1
            elif e != (6, 6) and sum(a) + margin > sum(e):
                hits += 1
    return hits / 1296


@pytest.mark.parametrize("margin", [-12, -5, -1, 0, 1, 3, 12])
def test_hit_probability_matches_enumeration(margin: int) -> None:
    assert hit_probability(margin, OPTS) == pytest.approx(brute_hit(margin))


def test_success_probability() -> None:
    """2D+3 against TN 12: success needs 9+ → 10/36 (F-T07's odds); (6,6) always, (1,1) never."""
    assert success_probability(3, 12, OPTS) == pytest.approx(10 / 36)
    assert success_probability(-20, 12, OPTS) == pytest.approx(1 / 36)
    assert success_probability(20, 12, OPTS) == pytest.approx(35 / 36)
