"""Dice-pool checks inside the combat engine (G-R01, G-R03, G-R29).

達成値 = 判定値 + the sum of n d6, where n is the DP spent.  ``pool`` is the one place the
engine rolls a check; with ``fixed`` (GM fixed value, G-R29) no dice are drawn and each die
counts 3.5 (G-G30 rounding).  ``p_at_least`` gives exact odds for Option.odds.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import NamedTuple

from ikusa.dice.source import DiceSource
from ikusa.systems.sengensyou.check import fixed_dice_value, pool_total


class PoolRoll(NamedTuple):
    """One dice-pool check: 判定値 ``base``, the faces rolled, and 達成値 ``total`` (a named
    tuple: immutable, and cheaper to make than a frozen dataclass — issue #12: one per check)."""

    base: int
    faces: tuple[int, ...]
    total: int
    fixed: bool = False
    #: GM effects and one-off modifiers inside ``base``, as (value, name) (issue #8)
    mods: tuple[tuple[int, str], ...] = ()

    @property
    def n(self) -> int:
        return len(self.faces)

    def show(self) -> str:
        """``知性+スキル 9 + 3D6[4,2,6] = 21`` style text (``9+1(祝福)+3D6…`` with effects)."""
        b = str(self.base)
        if self.mods:
            b = f"{self.base - sum(v for v, _ in self.mods)}" + "".join(f"{v:+d}({n})" for v, n in self.mods)
        if self.fixed:
            return f"{b}+固定値{self.total - self.base}={self.total}"
        if not self.faces:
            return f"{b}(ダイス無し)={self.total}"
        faces = ",".join(str(f) for f in self.faces)
        return f"{b}+{len(self.faces)}D6[{faces}]={self.total}"


def pool(base: int, n: int, dice: DiceSource, purpose: str, *, fixed: bool = False,
         rounding: str = "floor", roller: str = "") -> PoolRoll:
    """Roll a dice-pool check: 判定値 ``base`` + ``n`` d6 (G-R01)."""
    if fixed:
        return PoolRoll(base, (), base + fixed_dice_value(n, "ceil" if rounding == "ceil" else "floor"), True)
    faces = tuple(dice.roll(6, n, purpose, roller=roller)) if n else ()
    return PoolRoll(base, faces, pool_total(base, faces))


def roll_damage(n: int, dice: DiceSource, purpose: str, roller: str = "") -> tuple[int, ...]:
    """Damage dice ("XD" in the damage columns; never tied to DP, G-R01)."""
    return tuple(dice.roll(6, n, purpose, roller=roller)) if n > 0 else ()


@cache
def _counts(n: int) -> tuple[int, ...]:
    """Ways to roll each sum with n d6 (index = sum); 6**n outcomes in all (exact)."""
    if n <= 0:
        return (1,)
    # issue #12: one more die on n − 1 dice (each sum = the six sums a face below it), O(n)
    # per pool instead of convolving all n dice afresh; the same counts as dice.odds.sum_counts
    prev = _counts(n - 1)
    return (0, *(sum(prev[max(0, t - 6):t]) for t in range(1, 6 * n + 1)))


@cache
def _tail(n: int) -> tuple[int, ...]:
    """tail[k] = ways to roll a sum ≥ k with n d6 (k = 0 .. 6n+1)."""
    c = _counts(n)
    out = [0] * (len(c) + 1)
    for i in range(len(c) - 1, -1, -1):
        out[i] = out[i + 1] + c[i]
    return tuple(out)


@cache
def _p_tail(n: int) -> tuple[float, ...]:
    """p[k] = P(n d6 ≥ k) as the float of the exact ratio (k = 0 .. 6n+1)."""
    total = 6**n
    return tuple(float(w / total) for w in _tail(n))


def p_at_least(base: int, n: int, target: int) -> float:
    """P(base + n d6 ≥ target), exact ratio returned as a float (for Option.odds)."""
    p = _p_tail(n)
    need = target - base
    return p[0 if need < 0 else need if need < len(p) else -1]


def p_beats(base_a: int, n_a: int, base_b: int, n_b: int) -> float:
    """P(A's 達成値 ≥ B's 達成値) for two pool checks (ties to A), exact ratio as a float.
    Only the difference of the two 判定値 matters (issue #12: far fewer cached cases)."""
    return p_beats_by(base_b - base_a, n_a, n_b)


def p_beats_by(lead: int, n_a: int, n_b: int) -> float:
    """P(n_a d6 ≥ n_b d6 + ``lead``), exact ratio as a float.

    Issue #12: O(1) with no cache of its own.  The sum of n_b d6 is symmetric (B and 7 n_b − B
    have one distribution: turn every die face f into 7 − f), so A ≥ B + lead counts the same
    pairs of rolls as A + B' ≥ lead + 7 n_b with B' another n_b d6: the tail of n_a + n_b dice,
    the same integer over the same 6**n_a × 6**n_b outcomes, hence the same float
    (``tests/systems/sengensyou/test_pool_odds_exact.py``)."""
    return p_at_least(0, n_a + n_b, lead + 7 * n_b)


@lru_cache(maxsize=4096)
def fewest_dice(need: int, most: int) -> int | None:
    """The fewest dice k (1 … ``most``) with P(k d6 ≥ ``need``) ≥ 1/2, as :func:`p_at_least`
    computes it; None when even ``most`` dice fall short (a pure function of two integers)."""
    for k in range(1, most + 1):
        if p_at_least(0, k, need) >= 0.5:
            return k
    return None
