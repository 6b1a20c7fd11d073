"""Greedy-vs-greedy maai duels per second, full rules, one process, driving the state
directly (``state.apply(policy.choose(state, decision, rng), dice)``) without the Combat
wrapper.  Run: ``python -m bench.bench_maai_duels [N]``."""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from pathlib import Path

from ikusa.dice.source import RandomSource
from ikusa.engine.encounter import read_document, split_document
from ikusa.systems.maai.encounter import MaaiEncounter, encounter_from_dict
from ikusa.systems.maai.policies import GreedyPolicy
from ikusa.systems.maai.state import MaaiState

DUEL = Path(__file__).resolve().parent.parent / "examples" / "maai" / "duel.yaml"


def load_duel() -> MaaiEncounter:
    doc = split_document(read_document(DUEL), str(DUEL))
    return encounter_from_dict(doc.body, str(DUEL))


def run(n: int, seed: int = 1) -> tuple[float, float, Counter[str | None], int]:
    enc = load_duel()
    policy = GreedyPolicy()
    rng = random.Random(seed)
    dice = RandomSource(seed)
    winners: Counter[str | None] = Counter()
    decisions = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    for _ in range(n):
        state = MaaiState(enc)
        d = state.pending()
        while d is not None:
            state.apply(policy.choose(state, d, rng), dice)
            decisions += 1
            d = state.pending()
        winners[state.winner] += 1
    return time.perf_counter() - t0, time.process_time() - c0, winners, decisions


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    secs, cpu, winners, decisions = run(n)
    print(f"maai greedy duels: {n} in {secs:.2f} s wall / {cpu:.2f} s CPU = {n / secs:,.0f} duels/s wall, "
          f"{n / cpu:,.0f} duels/s CPU ({decisions / n:.1f} decisions/duel, {decisions / cpu:,.0f} decisions/s CPU)")
    print("winners:", dict(winners))


if __name__ == "__main__":
    main()
