"""Integer aggregates of many battles, merged in any order (so a sweep gives the same numbers
on one core, on many, on a Dask cluster and after ``--resume``).

Everything is a count or a sum of integers; floats (rates, means, intervals) are computed only
when the results are written.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ikusa.lab.metrics import BattleMetrics

UNIT_FIELDS = ("dealt", "taken", "survived", "down", "vigor", "dp", "fate")
PAIR_FIELDS = ("n", "a", "b", "a2", "b2", "ab", "la", "lb", "la2", "lb2", "lab", "a_better", "b_better")


@dataclass(slots=True)
class Aggregate:
    battles: int = 0
    decisions: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    lengths: Counter[int] = field(default_factory=Counter)
    units: dict[str, Counter[str]] = field(default_factory=dict)
    roster: dict[str, tuple[str, str]] = field(default_factory=dict)

    def add_battle(self, m: BattleMetrics) -> None:
        self.battles += 1
        self.decisions += m.decisions
        self.wins[m.winner] += 1
        self.lengths[m.length] += 1
        for uid, u in m.units.items():
            c = self.units.get(uid)
            if c is None:
                c = self.units[uid] = Counter()
            for f in UNIT_FIELDS:
                c[f] += getattr(u, f)
        for uid, who in m.roster.items():
            self.roster.setdefault(uid, who)

    def merge(self, other: Aggregate) -> None:
        self.battles += other.battles
        self.decisions += other.decisions
        self.wins.update(other.wins)
        self.lengths.update(other.lengths)
        for uid, c in other.units.items():
            self.units.setdefault(uid, Counter()).update(c)
        for uid, who in other.roster.items():
            self.roster.setdefault(uid, who)

    def to_json(self) -> dict[str, Any]:
        return {
            "battles": self.battles,
            "decisions": self.decisions,
            "wins": {k: self.wins[k] for k in sorted(self.wins)},
            "lengths": {str(k): self.lengths[k] for k in sorted(self.lengths)},
            "units": {u: {f: self.units[u][f] for f in UNIT_FIELDS} for u in sorted(self.units)},
            "roster": {u: list(self.roster[u]) for u in sorted(self.roster)},
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Aggregate:
        return cls(
            int(d["battles"]), int(d["decisions"]), Counter({k: int(v) for k, v in d["wins"].items()}),
            Counter({int(k): int(v) for k, v in d["lengths"].items()}),
            {u: Counter({f: int(v) for f, v in c.items()}) for u, c in d["units"].items()},
            {u: (str(w[0]), str(w[1])) for u, w in d["roster"].items()},
        )

    # -- derived figures -----------------------------------------------------------------
    def length_quantile(self, q: float) -> int:
        """The smallest length L with at least ``q`` of the battles ≤ L."""
        if not self.battles:
            return 0
        need = q * self.battles
        seen = 0
        for k in sorted(self.lengths):
            seen += self.lengths[k]
            if seen >= need:
                return k
        return max(self.lengths)  # pragma: no cover - float rounding only

    def mean_length(self) -> float:
        return sum(k * v for k, v in self.lengths.items()) / self.battles if self.battles else 0.0

    def survival(self) -> list[tuple[int, float]]:
        """(L, share of battles still going after L) for every length seen."""
        out = [(0, 1.0)]
        left = self.battles
        for k in sorted(self.lengths):
            left -= self.lengths[k]
            out.append((k, left / self.battles if self.battles else 0.0))
        return out


@dataclass(slots=True)
class Paired:
    """Sums over battle pairs (A and B with the same seed): score a/b = 1 when the focus
    side wins, l = battle length."""

    sums: Counter[str] = field(default_factory=Counter)

    def add_pair(self, a: int, b: int, la: int, lb: int) -> None:
        s = self.sums
        s["n"] += 1
        s["a"] += a
        s["b"] += b
        s["a2"] += a * a
        s["b2"] += b * b
        s["ab"] += a * b
        s["la"] += la
        s["lb"] += lb
        s["la2"] += la * la
        s["lb2"] += lb * lb
        s["lab"] += la * lb
        if b > a:
            s["b_better"] += 1
        elif a > b:
            s["a_better"] += 1

    def merge(self, other: Paired) -> None:
        self.sums.update(other.sums)

    def to_json(self) -> dict[str, int]:
        return {f: self.sums[f] for f in PAIR_FIELDS}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Paired:
        return cls(Counter({k: int(v) for k, v in d.items()}))

