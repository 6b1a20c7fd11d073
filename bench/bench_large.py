"""Large maai battles: cost per decision as the battle grows (issue #12, target 3).

``python -m bench.bench_large [--sizes 20,100,200,400,1000] [--rounds R] [--baseline] [--calls]``

N-vs-N 雑 (N/2 雑 with a 刀 on each side, one zone, the greedy AI on both sides, seeded dice),
full rules, driving the state directly as bench_maai_duels does.  For every size it prints the
CPU cost per decision (the battles with seeds 1…R; small sizes repeated, median of the passes),
the whole battle's CPU time, the peak memory of building the encounter and fighting one battle
(tracemalloc, in a separate run: tracing slows the code), and the cost per decision relative to
the smallest size.  Targets: at 400 units at most 3x the cost at 20 units, a 200-vs-200 battle
under 1 s, under 80 MiB at 1,000 units.

``--calls`` adds the Python function calls per decision (cProfile, over the same battles in a
run of their own): a figure the machine's load does not move, to see what grows with N.

``--baseline`` runs the same sizes on issue #12's baseline (commit 8aba570, bench/baseline.py)
in a subprocess per size, interleaved with this checkout (also one subprocess per size).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import statistics
import time
import tracemalloc
from typing import Any

from ikusa.dice.source import RandomSource
from ikusa.systems.maai.encounter import MaaiEncounter, encounter_from_dict
from ikusa.systems.maai.policies import GreedyPolicy
from ikusa.systems.maai.state import MaaiState

SIZES = (20, 100, 200, 400, 1000)


def encounter_doc(units: int) -> dict[str, Any]:
    """``units`` 雑 in one zone, half on each side (刀, 勇+1 技+0, no fate)."""
    half = units // 2
    out = []
    for side, tag in (("味方", "a"), ("敵", "b")):
        for i in range(half):
            out.append({"id": f"{tag}{i}", "name": f"{side}の雑兵{i}", "side": side, "grade": "雑", "fate": 0,
                        "abilities": {"勇": 1, "技": 0, "體": 0, "智": 0, "美": 0, "運": 0},
                        "skills": {"剣術": "入門"}, "weapons": ["katana"]})
    return {"title": f"{half}対{half} 雑兵", "sides": ["味方", "敵"], "units": out}


def build(units: int) -> MaaiEncounter:
    return encounter_from_dict(encounter_doc(units), f"<bench_large {units}>")


def battle(enc: MaaiEncounter, seed: int) -> tuple[float, int, str | None]:
    """One greedy battle: (CPU seconds, decisions, winner)."""
    policy = GreedyPolicy()
    rng = random.Random(seed)
    dice = RandomSource(seed)
    c0 = time.process_time()
    state = MaaiState(enc)
    n = 0
    d = state.pending()
    while d is not None:
        state.apply(policy.choose(state, d, rng), dice)
        n += 1
        d = state.pending()
    return time.process_time() - c0, n, state.winner


def peak_mib(units: int, seed: int) -> float:
    """Peak memory (MiB) traced while building the encounter and fighting one battle of it."""
    tracemalloc.start()
    try:
        battle(build(units), seed)
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def calls_per_decision(units: int, rounds: int) -> float:
    """Python function calls per decision (cProfile) over the battles of seeds 1…``rounds``."""
    enc = build(units)
    battle(enc, 0)
    prof = cProfile.Profile()
    prof.enable()
    runs = [battle(enc, seed) for seed in range(1, rounds + 1)]
    prof.disable()
    return int(pstats.Stats(prof).total_calls) / sum(n for _, n, _ in runs)  # type: ignore[attr-defined]


def measure(units: int, rounds: int, calls: bool = False) -> dict[str, Any]:
    """The figures of one size in this process (the subprocess driver prints them as JSON).
    Small battles take milliseconds: their seeds run ``max(1, 2000 // units)`` times over, and
    the cost per decision is the total CPU over the total decisions of each pass (median of passes)."""
    enc = build(units)
    battle(enc, 0)  # warm the encounter's own caches, as a long sim does
    passes = []
    runs = []
    for _ in range(max(1, 2000 // units)):
        runs = [battle(enc, seed) for seed in range(1, rounds + 1)]
        passes.append(sum(cpu for cpu, _, _ in runs) / sum(n for _, n, _ in runs) * 1e6)
    return {"units": units, "per_decision_us": statistics.median(passes),
            "battle_s": statistics.median(cpu for cpu, _, _ in runs),
            "decisions": statistics.median(n for _, n, _ in runs),
            "winners": [w for _, _, w in runs], "peak_mib": peak_mib(units, 1),
            **({"calls": calls_per_decision(units, rounds)} if calls else {})}


# Both sides run this very file with runpy: its ``ikusa`` imports resolve in the tree on
# PYTHONPATH (the baseline has no bench_large, but the API used here is the same there).
DRIVER = """
import json, runpy, sys
measure = runpy.run_path(sys.argv[1])["measure"]
print(json.dumps(measure(int(sys.argv[2]), int(sys.argv[3]), "calls" in sys.argv[4:])))
"""


def show(label: str, rows: list[dict[str, Any]]) -> None:
    base = rows[0]["per_decision_us"]
    calls = all("calls" in r for r in rows)
    print(label)
    print(f"  {'units':>6} {'µs/decision':>12} {'x vs ' + str(rows[0]['units']):>9} {'battle s':>9} "
          f"{'decisions':>10} {'peak MiB':>9}" + (f" {'calls/dec':>10} {'x':>6}" if calls else ""))
    for r in rows:
        print(f"  {r['units']:>6} {r['per_decision_us']:>12.1f} {r['per_decision_us'] / base:>9.2f} "
              f"{r['battle_s']:>9.3f} {r['decisions']:>10.0f} {r['peak_mib']:>9.1f}"
              + (f" {r['calls']:>10.1f} {r['calls'] / rows[0]['calls']:>6.2f}" if calls else ""))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", action="store_true", help="also run issue #12's baseline, interleaved")
    parser.add_argument("--calls", action="store_true", help="also count Python calls per decision (cProfile)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"maai N-vs-N 雑, greedy, one zone; CPU per decision over the battles of seeds "
          f"1…{args.rounds} (small sizes: median of repeated passes); peak memory: encounter + one battle")
    if not args.baseline:
        show("current", [measure(n, args.rounds, args.calls) for n in sizes])
        return
    from bench.baseline import BASELINE, checkout, current_tree, run_python

    trees = {f"baseline {BASELINE}": checkout(), "current": current_tree()}
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    for n in sizes:  # interleaved: each size runs on both sides before the next size
        for name, tree in trees.items():
            extra = ["calls"] if args.calls else []
            rows[name].append(json.loads(run_python(tree, DRIVER, [__file__, str(n), str(args.rounds), *extra])))
    for name, table in rows.items():
        show(name, table)
    print("  same winners on both sides:", all(a["winners"] == b["winners"] for a, b in zip(*rows.values(),
                                                                                            strict=True)))


if __name__ == "__main__":
    main()
