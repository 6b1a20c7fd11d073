"""Battles per second for the 千幻抄 engine (random and greedy policies on the examples).

Run: ``python -m bench.bench_sengensyou [N]`` (N battles per row, default 300).  Also checks
the invariants on every battle, so it doubles as a large property run.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from pathlib import Path

from ikusa.dice.source import RandomSource
from ikusa.engine.runner import load_encounter, policy_for, run_ai
from ikusa.systems.sengensyou.state import SengensyouState

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "sengensyou"


def main(n: int = 300) -> None:
    for name in ("spellcard_duel", "party_battle"):
        loaded = load_encounter(EXAMPLES / f"{name}.yaml")
        for pol in ("random", "greedy"):
            wins: Counter[str | None] = Counter()
            turns = decisions = 0
            t0 = time.perf_counter()
            for seed in range(n):
                c = loaded.new_combat()
                run_ai(c, policy_for(loaded.module, pol), random.Random(seed), RandomSource(seed))
                st = c.state
                assert isinstance(st, SengensyouState)
                assert all(0 <= f.dp <= f.dp_max and f.graze >= 0 for f in st.fighters.values())
                wins[st.winner] += 1
                turns += st.turn
                decisions += len(c.record)
            dt = time.perf_counter() - t0
            print(f"{name:15s} {pol:6s} {n / dt:8.1f} battles/s  {decisions / dt:9.0f} decisions/s  "
                  f"mean turns {turns / n:4.1f}  winners {dict(wins)}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
