"""p_beats_by (G-R05 opposed pool checks, the odds of every shot option) against a brute-force
count of every pair of sums: the same float, lead by lead, for pools of 0..8 dice."""

from __future__ import annotations

from ikusa.systems.sengensyou.checks_flow import _counts, p_beats, p_beats_by


def _brute(lead: int, n_a: int, n_b: int) -> float:
    ca, cb = _counts(n_a), _counts(n_b)
    ways = sum(x * y for a, x in enumerate(ca) for b, y in enumerate(cb) if a >= b + lead)
    return float(ways / (6**n_a * 6**n_b))


def test_p_beats_by_is_the_exact_count() -> None:
    for n_a in range(9):
        for n_b in range(9):
            for lead in range(-6 * n_b - 3, 6 * n_a + 4):
                assert p_beats_by(lead, n_a, n_b) == _brute(lead, n_a, n_b), (lead, n_a, n_b)


def test_p_beats_examples() -> None:
    assert p_beats(0, 1, 0, 1) == 21 / 36  # 1d6 vs 1d6, ties to A
    assert p_beats(5, 0, 0, 1) == 5 / 6  # a fixed 5 against 1d6
    assert p_beats(0, 1, 6, 0) == 1 / 6


def test_pool_counts_are_the_dice_modules() -> None:
    from ikusa.dice.odds import sum_counts

    for n in range(31):
        dist = [0] * (6 * n + 1)
        for total, ways in sum_counts(n, 6):
            dist[total] = ways
        assert _counts(n) == tuple(dist), n
    assert sum(_counts(40)) == 6**40



def _paired_column(n_a: int, n_b: int, leads: range) -> list[float]:
    """The count p_beats_by made before issue #12's O(1) form, lead by lead: B's counts paired
    with A's tail (the same integers, worked out the long way)."""
    ca, cb = _counts(n_a), _counts(n_b)
    tail = [0] * (len(ca) + 1)
    for k in range(len(ca) - 1, -1, -1):
        tail[k] = tail[k + 1] + ca[k]
    last = len(ca)
    return [float(sum(y * tail[min(max(b + lead, 0), last)] for b, y in enumerate(cb)) / (6**n_a * 6**n_b))
            for lead in leads]


def test_p_beats_by_large_pools_match_the_paired_count() -> None:
    """Pools up to 30 dice (a character's whole DP), every lead that can matter and beyond."""
    for n_a in (0, 1, 5, 12, 19, 30):
        for n_b in (0, 2, 7, 16, 25, 30):
            leads = range(-6 * n_b - 2, 6 * n_a + 3)
            assert [p_beats_by(lead, n_a, n_b) for lead in leads] == _paired_column(n_a, n_b, leads), (n_a, n_b)
