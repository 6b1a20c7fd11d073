"""Statistics of the balance lab: every figure with its error.

* :func:`wilson` — the 95 % Wilson score interval of a proportion (it never collapses to
  [0, 0] at 0/n the way a Wald interval does; the same figures as
  ``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")``).
* :func:`paired_difference` — mean difference of paired per-battle scores with its
  normal-approximation interval, and the variance it would have had unpaired.
* :class:`Sprt` — Wald's sequential probability ratio test on a Bernoulli ``p`` (H0
  ``p = p0`` against H1 ``p = p1``), the way fishtest and cutechess stop a comparison as soon
  as it is decided instead of peeking at a z-test.
* :func:`half_width_ok` — precision stopping (SimulationCraft's ``target_error``).

Pure functions of integers: the aggregates they read are exact counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import log, sqrt

#: two-sided 95 % normal quantile
Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """95 % Wilson score interval of ``k`` successes in ``n`` trials.

    >>> [round(x, 4) for x in wilson(6386, 10000)]
    [0.6291, 0.648]
    >>> [round(x, 3) for x in wilson(0, 50)]
    [0.0, 0.071]
    """
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def wilson_half_width(k: int, n: int, z: float = Z95) -> float:
    lo, hi = wilson(k, n, z)
    return (hi - lo) / 2


def half_width_ok(counts: dict[str, int], n: int, target: float) -> bool:
    """True when every proportion ``counts[x] / n`` has a Wilson half-width ≤ ``target``."""
    return n > 0 and all(wilson_half_width(k, n) <= target for k in counts.values())


@dataclass(frozen=True, slots=True)
class PairedDifference:
    """``mean`` = mean of (B − A) per pair, with its 95 % interval; ``var_paired`` is the
    variance of the per-pair difference, ``var_unpaired`` = var(A) + var(B), the variance
    of the difference of two independent battles (so ``reduction`` = unpaired / paired)."""

    n: int
    mean: float
    low: float
    high: float
    var_paired: float
    var_unpaired: float

    @property
    def reduction(self) -> float:
        return self.var_unpaired / self.var_paired if self.var_paired > 0 else float("inf")


def paired_difference(n: int, sum_a: int, sum_b: int, sum_a2: int, sum_b2: int, sum_ab: int,
                      z: float = Z95) -> PairedDifference:
    """The paired difference of integer scores from their sums (Σa, Σb, Σa², Σb², Σab), so
    chunks merge as integers in any order."""
    if n < 2:
        return PairedDifference(n, 0.0, 0.0, 0.0, 0.0, 0.0)
    mean_a, mean_b = sum_a / n, sum_b / n
    var_a = (sum_a2 - n * mean_a * mean_a) / (n - 1)
    var_b = (sum_b2 - n * mean_b * mean_b) / (n - 1)
    cov = (sum_ab - n * mean_a * mean_b) / (n - 1)
    var_d = max(0.0, var_a + var_b - 2 * cov)
    mean = mean_b - mean_a
    half = z * sqrt(var_d / n)
    return PairedDifference(n, mean, mean - half, mean + half, var_d, var_a + var_b)


@dataclass(slots=True)
class Sprt:
    """Wald's SPRT on Bernoulli trials: H0 ``p = p0`` against H1 ``p = p1`` (``p1 ≠ p0``),
    with error rates ``alpha`` (accepting H1 when H0 holds) and ``beta``.

    >>> t = Sprt(0.5, 0.6)
    >>> t.add(60, 100).decision
    'H1'
    """

    p0: float
    p1: float
    alpha: float = 0.05
    beta: float = 0.05
    successes: int = 0
    trials: int = 0
    trace: list[tuple[int, float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name, v in (("P0", self.p0), ("P1", self.p1)):
            if not 0 < v < 1:
                raise ValueError(f"SPRT {name} must be strictly between 0 and 1, not {v}")
        for name, v in (("ALPHA", self.alpha), ("BETA", self.beta)):
            if not 0 < v < 0.5:
                raise ValueError(f"SPRT {name} must be in (0, 0.5), not {v}")
        if self.p0 == self.p1:
            raise ValueError("SPRT P0 and P1 must differ")

    @property
    def lower(self) -> float:
        return log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return log((1 - self.beta) / self.alpha)

    @property
    def llr(self) -> float:
        k, n = self.successes, self.trials
        return k * log(self.p1 / self.p0) + (n - k) * log((1 - self.p1) / (1 - self.p0))

    @property
    def decision(self) -> str | None:
        """``"H1"``, ``"H0"`` or ``None`` (continue)."""
        llr = self.llr
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def add(self, successes: int, trials: int) -> Sprt:
        """Add a batch of trials and record the log-likelihood ratio in ``trace``."""
        self.successes += successes
        self.trials += trials
        self.trace.append((self.trials, self.llr))
        return self


def parse_sprt(text: str) -> Sprt:
    """``P0,P1[,ALPHA,BETA]`` as typed after ``--sprt``."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) not in (2, 4):
        raise ValueError(f"--sprt wants P0,P1 or P0,P1,ALPHA,BETA, not {text!r}")
    try:
        nums = [float(p) for p in parts]
    except ValueError:
        raise ValueError(f"--sprt wants numbers, not {text!r}") from None
    if len(nums) == 2:
        return Sprt(nums[0], nums[1])
    return Sprt(nums[0], nums[1], nums[2], nums[3])
