"""Statistics of the lab: Wilson against scipy, the paired difference, SPRT error rates,
precision stopping."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from scipy.stats import binomtest

from ikusa.lab.aggregate import Aggregate
from ikusa.lab.jobs import Done
from ikusa.lab.seeds import CHUNK
from ikusa.lab.stats import Sprt, paired_difference, parse_sprt, wilson, wilson_half_width
from ikusa.lab.sweep import PRECISION_BATCH, precision_plan


@pytest.mark.parametrize(("k", "n"), [(6386, 10000), (0, 50), (50, 50), (1, 3), (17, 400), (999, 1000)])
def test_wilson_matches_scipy(k: int, n: int) -> None:
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(ci.low, abs=1e-9)
    assert hi == pytest.approx(ci.high, abs=1e-9)


def test_wilson_does_not_collapse_at_zero() -> None:
    # a Wald interval is [0, 0] at 0/50; Wilson's upper end is 0.071 (research notes §4)
    assert wilson(0, 50)[1] == pytest.approx(0.0713, abs=1e-4)


def test_paired_difference_from_integer_sums_matches_numpy() -> None:
    rng = np.random.default_rng(1)
    a = rng.integers(0, 2, 500)
    b = np.where(rng.random(500) < 0.8, a, rng.integers(0, 2, 500))
    d = paired_difference(500, int(a.sum()), int(b.sum()), int((a * a).sum()), int((b * b).sum()),
                          int((a * b).sum()))
    assert d.mean == pytest.approx(float(b.mean() - a.mean()))
    assert d.var_paired == pytest.approx(float(np.var(b - a, ddof=1)))
    assert d.var_unpaired == pytest.approx(float(np.var(a, ddof=1) + np.var(b, ddof=1)))
    assert d.low < d.mean < d.high


def _sprt_run(rng: np.random.Generator, p_b: float, batch: int = 50, cap: int = 20_000) -> str | None:
    """One A/B comparison of Bernoulli(0.4) results, SPRT on the differing pairs."""
    t = Sprt(0.5, 0.6, 0.05, 0.05)
    pairs = 0
    while pairs < cap and t.decision is None:
        a = rng.random(batch) < 0.4
        b = rng.random(batch) < p_b
        t.add(int((b & ~a).sum()), int((a ^ b).sum()))
        pairs += batch
    return t.decision


def test_sprt_false_positive_rate_on_aa_within_alpha() -> None:
    rng = np.random.default_rng(20261129)
    trials = 400
    decisions = Counter(_sprt_run(rng, 0.4) for _ in range(trials))
    false_positive = decisions["H1"] / trials
    assert false_positive <= 0.05
    assert decisions["H0"] > 0.9 * trials  # it does decide, for H0


def test_sprt_finds_a_real_difference() -> None:
    rng = np.random.default_rng(7)
    decisions = Counter(_sprt_run(rng, 0.55) for _ in range(100))
    assert decisions["H1"] >= 90


def test_peeking_z_test_would_exceed_alpha() -> None:
    """The reason for the SPRT: a z-test checked after every batch finds 'differences' in A/A."""
    rng = np.random.default_rng(3)
    hits = 0
    for _ in range(200):
        a_sum = b_sum = n = disc = 0
        for _ in range(40):
            a = rng.random(200) < 0.4
            b = rng.random(200) < 0.4
            a_sum, b_sum, n = a_sum + int(a.sum()), b_sum + int(b.sum()), n + 200
            disc += int((a ^ b).sum())
            if disc and abs(b_sum - a_sum) / disc**0.5 > 1.96:
                hits += 1
                break
    assert hits / 200 > 0.15


def test_parse_sprt_names_bad_input() -> None:
    assert parse_sprt("0.5,0.6,0.01,0.1").alpha == 0.01
    for bad, word in [("0.5", "P0,P1"), ("0.5,x", "numbers"), ("0.5,0.5", "differ"), ("0,0.6", "P0")]:
        with pytest.raises(ValueError, match=word):
            parse_sprt(bad)


def _agg(wins: dict[str, int], battles: int) -> dict[str, object]:
    a = Aggregate(battles=battles, wins=Counter(wins))
    a.roster = {"u1": ("A", "u1"), "u2": ("B", "u2")}
    return a.to_json()


def test_precision_stopping_stops_at_the_first_precise_batch() -> None:
    """Chunks whose win counts make the half-width fall below 0.02 only at 2,000 battles."""
    plan = precision_plan(points=1, target=0.02, max_battles=50_000)
    # p = 0.6: half-width 0.030 at 1,000, 0.021 at 2,000, 0.0175 at 3,000
    per_chunk = {"A": 3 * CHUNK // 5, "B": CHUNK - 3 * CHUNK // 5}
    done: Done = {}
    assert sorted(plan(done)[0]) == list(range(PRECISION_BATCH))
    steps = []
    for _ in range(6):
        want = plan(done)[0]
        steps.append(len(want) * CHUNK)
        for c in want:
            done.setdefault((0, c), {"agg": _agg(per_chunk, CHUNK)})
        if plan(done)[0] == want:
            break
    n = steps[-1]
    assert wilson_half_width(int(0.6 * n), n) <= 0.02 < wilson_half_width(int(0.6 * (n - 1000)), n - 1000)
    assert steps == [1000, 2000, 3000]


def test_precision_stops_at_the_cap() -> None:
    plan = precision_plan(points=1, target=0.001, max_battles=1500)
    even = {"A": CHUNK // 2, "B": CHUNK - CHUNK // 2}
    done: Done = {(0, c): {"agg": _agg(even, CHUNK)} for c in range(1500 // CHUNK)}
    assert len(plan(done)[0]) * CHUNK == 1500
