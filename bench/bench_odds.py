"""Exact odds against icepool: ``python -m bench.bench_odds [--rounds N]`` (needs the
``bench`` extra: ``pip install -e '.[bench]'``).

The full maai odds table — P(success) for modifiers −3…+5 × TN 5…19, without fate and with
one fate intervention used to best effect (S-R14, S-G27) — computed by

* ikusa: :func:`ikusa.systems.maai.odds.success_table` (the engine's own :class:`Check`);
* the anchor, icepool: the same rules written as a function of the two d10 (S-R01…S-R12)
  and mapped over ``d10, d10`` with :func:`icepool.map`, one die per table cell.

Both tables are checked equal first.  Printed: in one process, interleaved rounds (ikusa's
caches cleared every round; icepool builds new dice every round), median and best; then
**cold**: each side in a fresh process (import + table), interleaved, median of the
rounds.  Then ``ikusa odds maai 2D10+3>=11`` as a cold process (the tables and
``--json``; target ≤ 100 ms).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

from ikusa.systems.maai import odds as maai_odds

Table = list[tuple[int, list[Fraction]]]


def ikusa_table() -> tuple[Table, Table]:
    # older code (the "before" of issue #12) had one cache, outcome_odds
    getattr(maai_odds, "clear_caches", maai_odds.outcome_odds.cache_clear)()
    return maai_odds.success_table(0), maai_odds.success_table(1)


def icepool_table() -> tuple[Table, Table]:
    """The anchor: the maai check as a function of the dice, mapped with icepool."""
    import icepool

    def rank(a: int, b: int, m: int, t: int) -> int:  # 天命 5 > 会心 4 > 成功 3 > 失敗 2 > 失着 1 > 業報 0
        if a + b + max(-10, min(10, m)) >= t:
            return 5 if a == b == 10 else 4 if a == b else 3
        return 0 if a == b == 1 else 1 if a == b else 2

    def with_fate(a: int, b: int, m: int, t: int) -> int:
        moves = [(a + d, b) for d in (-1, 1) if 1 <= a + d <= 10] + [(a, b + d) for d in (-1, 1) if 1 <= b + d <= 10]
        return max(rank(a, b, m, t), *(rank(x, y, m, t) for x, y in moves))

    def table(fn: Callable[[int, int, int, int], int]) -> Table:
        rows: Table = []
        for m in maai_odds.MOD_RANGE:
            row = []
            for t in maai_odds.TN_GRID:
                die = icepool.map(lambda a, b, m=m, t=t: fn(a, b, m, t), icepool.d10, icepool.d10)
                row.append(Fraction(sum(q for o, q in die.items() if o >= 3), die.denominator()))
            rows.append((m, row))
        return rows

    return table(rank), table(with_fate)


COLD = {
    "ikusa": "import time; t = time.perf_counter(); from bench.bench_odds import ikusa_table; ikusa_table(); "
             "print(time.perf_counter() - t)",
    "icepool": "import time; t = time.perf_counter(); from bench.bench_odds import icepool_table; icepool_table(); "
               "print(time.perf_counter() - t)",
}


def process_env() -> dict[str, str]:
    """This environment with byte-code caches written (as :func:`bench.bench_startup.process_env`;
    not imported from there: the cold ikusa side imports this module)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cold(side: str) -> tuple[float, float]:
    """(seconds inside the fresh process for import + table, whole-process seconds)."""
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", COLD[side]], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1], env=process_env()).stdout
    return float(out.strip()), time.perf_counter() - start


def process(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, capture_output=True, check=True, env=process_env())
    return time.perf_counter() - start


def fmt(ts: list[float]) -> str:
    return f"{statistics.median(ts) * 1000:7.1f} ms (best {min(ts) * 1000:6.1f})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args(argv)
    try:
        import icepool  # noqa: F401
    except ImportError:
        print("icepool is not installed (pip install -e '.[bench]'): the anchor is skipped")
        return
    if ikusa_table() != icepool_table():
        raise SystemExit("the two tables differ: the anchor does not compute the same odds")
    cells = 2 * len(maai_odds.MOD_RANGE) * len(maai_odds.TN_GRID)
    warm: dict[str, list[float]] = {"ikusa": [], "icepool": []}
    for _ in range(args.rounds):
        for side, fn in (("ikusa", ikusa_table), ("icepool", icepool_table)):
            t = time.perf_counter()
            fn()
            warm[side].append(time.perf_counter() - t)
    print(f"full maai odds table ({cells} cells: mods −3…+5 × TN 5…19, fate 0 and 1), "
          f"{args.rounds} interleaved rounds")
    print(f"  in process  ikusa   {fmt(warm['ikusa'])}   anchor icepool {fmt(warm['icepool'])}   "
          f"ratio {statistics.median(warm['ikusa']) / statistics.median(warm['icepool']):.2f}")
    inner: dict[str, list[float]] = {"ikusa": [], "icepool": []}
    whole: dict[str, list[float]] = {"ikusa": [], "icepool": []}
    for _ in range(args.rounds):
        for side in ("ikusa", "icepool"):
            a, b = cold(side)
            inner[side].append(a)
            whole[side].append(b)
    print(f"  cold, import + table inside a fresh process: ikusa {fmt(inner['ikusa'])}   "
          f"anchor icepool {fmt(inner['icepool'])}   "
          f"ratio {statistics.median(inner['ikusa']) / statistics.median(inner['icepool']):.2f}")
    print(f"  cold, whole process:                         ikusa {fmt(whole['ikusa'])}   "
          f"anchor icepool {fmt(whole['icepool'])}")
    exe = Path(sys.executable).with_name("ikusa")
    if exe.exists():
        runs: dict[str, list[float]] = {"rich": [], "json": []}
        process([str(exe), "odds", "maai", "2D10+3>=11"])  # byte-code caches written
        for _ in range(args.rounds):
            runs["rich"].append(process([str(exe), "odds", "maai", "2D10+3>=11"]))
            runs["json"].append(process([str(exe), "odds", "maai", "2D10+3>=11", "--json"]))
        print(f"  ikusa odds maai 2D10+3>=11 as a cold process: tables {fmt(runs['rich'])}; --json "
              f"{fmt(runs['json'])} (target ≤ 100 ms)")


if __name__ == "__main__":
    main()
