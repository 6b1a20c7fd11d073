"""Maai battles per second, full rules, one process, driving the state directly
(``state.apply(policy.choose(state, decision, rng), dice)``) without the Combat wrapper.

Prints greedy-vs-greedy and random-vs-random duels (examples/maai/duel.yaml) and greedy squad
battles (examples/maai/squad_battle.yaml).  Each figure is the best of ``--repeat`` runs of
CPU time (the machine is shared: the best run is the least disturbed one); wall time of the
best run is shown too.  Run: ``python -m bench.bench_maai_duels [N] [--repeat R]``.

``--baseline [--rounds K] [--calls]`` instead runs issue #12's baseline (commit ``8aba570``, see
:mod:`bench.baseline`) and this checkout, each in its own subprocess with the same driver,
interleaved round by round, and prints the median of ``K`` rounds (default 5) beside each other
with the speed-up (target 1 of issue #12: at least x4 greedy duels/s).  The winners of both
sides are compared too: the same seeds must give the same battles.  ``--calls`` adds each side's
Python calls per battle under cProfile, a figure the shared machine's load does not move.
``--instructions N`` counts both sides' instructions a battle with valgrind's cachegrind
(N duels, N/10 squad battles): the figure to quote when the machine is loaded.  Every mode
prints whether this checkout runs compiled (setup.py compiles the maai engine's hot modules
with mypyc) or pure Python; the baseline side is always its pure-Python tree.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from ikusa.dice.source import RandomSource
from ikusa.engine.encounter import read_document, split_document
from ikusa.engine.protocol import Policy
from ikusa.systems.maai.encounter import MaaiEncounter, encounter_from_dict
from ikusa.systems.maai.policies import GreedyPolicy, RandomPolicy
from ikusa.systems.maai.state import MaaiState

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "maai"
DUEL = EXAMPLES / "duel.yaml"
SQUAD = EXAMPLES / "squad_battle.yaml"


def load(path: Path) -> MaaiEncounter:
    doc = split_document(read_document(path), str(path))
    return encounter_from_dict(doc.body, str(path))


def load_duel() -> MaaiEncounter:
    return load(DUEL)


@dataclass(slots=True)
class Run:
    n: int
    wall: float
    cpu: float
    winners: Counter[str | None]
    decisions: int


def run_battles(enc: MaaiEncounter, policy: Policy, n: int, seed: int = 1) -> Run:
    """``n`` battles of ``enc`` with ``policy`` for every side, seeded dice and AI."""
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
    return Run(n, time.perf_counter() - t0, time.process_time() - c0, winners, decisions)


def run(n: int, seed: int = 1) -> tuple[float, float, Counter[str | None], int]:
    """Greedy-vs-greedy duels: (wall s, CPU s, winners, decisions)."""
    r = run_battles(load_duel(), GreedyPolicy(), n, seed)
    return r.wall, r.cpu, r.winners, r.decisions


def best_of(enc: MaaiEncounter, policy: Policy, n: int, repeat: int) -> Run:
    runs = [run_battles(enc, policy, n) for _ in range(repeat)]
    return min(runs, key=lambda r: r.cpu)


def report(label: str, r: Run) -> None:
    print(f"{label}: {r.n} in {r.cpu:.2f} s CPU / {r.wall:.2f} s wall = {r.n / r.cpu:,.0f}/s CPU, "
          f"{r.n / r.wall:,.0f}/s wall ({r.decisions / r.n:.1f} decisions each, "
          f"{r.decisions / r.cpu:,.0f} decisions/s CPU); winners {dict(r.winners)}")


# Runs in a subprocess with PYTHONPATH=<tree>: the baseline's bench module has the same
# load/run_battles/DUEL/SQUAD, so one driver times both sides alike.
DRIVER = """
import json, sys
from bench.bench_maai_duels import DUEL, SQUAD, load, run_battles
from ikusa.systems.maai.policies import GreedyPolicy, RandomPolicy
path, policy, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
enc = load(DUEL if path == "duel" else SQUAD)
pol = GreedyPolicy() if policy == "greedy" else RandomPolicy()
r = run_battles(enc, pol, n)
out = {"cpu": r.cpu, "wall": r.wall, "decisions": r.decisions,
       "winners": sorted((str(k), v) for k, v in r.winners.items())}
if len(sys.argv) > 4:  # --calls: Python calls per battle under cProfile (the same seeds again)
    import cProfile, pstats
    k = int(sys.argv[4])
    prof = cProfile.Profile()
    prof.enable()
    run_battles(enc, pol, k)
    prof.disable()
    out["calls"] = sum(v[1] for v in pstats.Stats(prof).stats.values()) / k
print(json.dumps(out))
"""

# --instructions: the same battles counted by valgrind's cachegrind (instructions a battle: a
# figure the shared machine's load does not move).  Warm-up first, then ``n`` battles; a run with
# n = 0 is subtracted (start-up, imports, the warm-up).
COUNT_DRIVER = """
import sys
from bench.bench_maai_duels import DUEL, SQUAD, load, run_battles
from ikusa.systems.maai.policies import GreedyPolicy, RandomPolicy
path, policy, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
enc = load(DUEL if path == "duel" else SQUAD)
pol = GreedyPolicy() if policy == "greedy" else RandomPolicy()
run_battles(enc, pol, 20 if path == "duel" else 2)
if n:
    run_battles(enc, pol, n, seed=7)
"""

KINDS = (("greedy duels", "duel", "greedy", 1), ("random duels", "duel", "random", 1),
         ("greedy squad battles", "squad", "greedy", 10))


def compare_baseline(n: int, rounds: int, calls: bool = False) -> None:
    """Baseline and current, interleaved subprocess runs, median battles/s CPU of ``rounds``;
    with ``calls`` also the Python calls per battle under cProfile (a figure the machine's load
    does not move), counted in the first round."""
    from bench.baseline import BASELINE, checkout, current_tree, interleaved, summary

    trees = {f"baseline {BASELINE}": checkout(), "current": current_tree()}
    print(f"maai battles/s CPU, {rounds} interleaved rounds, one subprocess per side and round "
          f"(N = {n} duels, {max(1, n // 10)} squad battles)")
    print(_sides_line())
    for label, path, policy, div in KINDS:
        count = max(1, n // div)
        winners: dict[str, str] = {}
        counted: dict[str, float] = {}
        extra = [str(max(1, min(count, 300 // div)))] if calls else []
        figures = interleaved(rounds, {name: partial(_side, tree, [path, policy, str(count), *extra], count, winners,
                                                     name, counted)
                                       for name, tree in trees.items()})
        print(f"maai {label}:")
        for line in summary(figures, "/s", anchor=f"baseline {BASELINE}"):
            print(line)
        if counted:
            print("  Python calls per battle (cProfile): "
                  + ", ".join(f"{name} {v:,.0f}" for name, v in counted.items()))
        if len(set(winners.values())) != 1:
            print(f"  WARNING: the sides differ in winners: {winners}")


def _sides_line() -> str:
    """What the two sides run: the baseline is its pure-Python tree; the current side is this
    checkout as built (compiled with mypyc by setup.py, or pure Python)."""
    from bench.baseline import BASELINE
    from ikusa.engine import compiled

    return f"  baseline {BASELINE}: pure Python; current: {compiled.describe()}"


def _side(tree: Path, argv: list[str], count: int, winners: dict[str, str], name: str,
          counted: dict[str, float]) -> float:
    """One round of one side: battles/s CPU; its winners are kept to compare the sides (and its
    calls per battle, counted once)."""
    from bench.baseline import run_python

    out = json.loads(run_python(tree, DRIVER, argv if name not in counted else argv[:3]))
    winners[name] = str(out["winners"])
    if "calls" in out:
        counted[name] = float(out["calls"])
    return count / float(out["cpu"])


def instructions(tree: Path, argv: list[str]) -> int:
    """Instructions (cachegrind ``I refs``) of :data:`COUNT_DRIVER` with ``argv`` in ``tree``."""
    import os
    import re
    import subprocess
    import sys

    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree)
    proc = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           sys.executable, "-c", COUNT_DRIVER, *argv], cwd=tree, env=env, capture_output=True,
                          text=True, check=False)
    found = re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr)
    if proc.returncode != 0 or found is None:
        raise SystemExit(f"cachegrind run in {tree} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def compare_instructions(n: int) -> None:
    """Baseline and current: instructions a battle (cachegrind, ``n`` duels, ``n // 10`` squad
    battles, same seeds), load-independent."""
    from bench.baseline import BASELINE, checkout, current_tree

    trees = {f"baseline {BASELINE}": checkout(), "current": current_tree()}
    print(f"maai instructions a battle (valgrind cachegrind; {n} duels, {max(1, n // 10)} squad battles)")
    print(_sides_line())
    for label, path, policy, div in KINDS:
        count = max(1, n // div)
        per = {name: (instructions(tree, [path, policy, str(count)]) - instructions(tree, [path, policy, "0"])) / count
               for name, tree in trees.items()}
        base = per[f"baseline {BASELINE}"]
        print(f"maai {label}: " + ", ".join(f"{name} {v:,.0f}" for name, v in per.items())
              + f" (baseline/current ×{base / per['current']:.2f})")


def main() -> None:
    ap = argparse.ArgumentParser(description="maai battles per second, full rules (issue #12, target 1).")
    ap.add_argument("n", nargs="?", type=int, default=None, help="duels per figure (3000; 2000 with --baseline)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure, the best is shown")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds with --baseline (median shown)")
    ap.add_argument("--baseline", action="store_true", help="run issue #12's baseline beside this checkout")
    ap.add_argument("--calls", action="store_true",
                    help="with --baseline: also Python calls per battle under cProfile (load-independent)")
    ap.add_argument("--instructions", type=int, default=None, metavar="N",
                    help="instead: instructions a battle of the baseline and this checkout under valgrind's "
                         "cachegrind (N duels, N/10 squad battles; load-independent; needs valgrind)")
    args = ap.parse_args()
    if args.instructions:
        compare_instructions(args.instructions)
        return
    if args.baseline:
        compare_baseline(args.n or 2000, args.rounds, args.calls)
        return
    n = args.n or 3000
    from ikusa.engine import compiled

    print(f"maai battles, this checkout: {compiled.describe()}")
    duel, squad = load(DUEL), load(SQUAD)
    report("maai greedy duels", best_of(duel, GreedyPolicy(), n, args.repeat))
    report("maai random duels", best_of(duel, RandomPolicy(), n, args.repeat))
    report("maai greedy squad battles", best_of(squad, GreedyPolicy(), max(1, n // 10), args.repeat))


if __name__ == "__main__":
    main()
