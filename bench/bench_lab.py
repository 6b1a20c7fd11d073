"""The balance lab's speed: battles/s of one ``ikusa lab sweep`` point on 1 and 2 worker
processes and on a Dask LocalCluster (2 workers), all in the same run, with the speed-up over
one worker (target ≥ 1.8× on 2 workers with processes); and the search policy's cost per
decision in every system (on the README's search-vs-greedy examples), beside the greedy policy's
whole-battle cost and the ways of cloning a state (replaying the record, ``copy.deepcopy``, the
state's own ``clone()``).

Run: ``python -m bench.bench_lab [BATTLES] [--repeat R] [--search-only]`` (default 3,000 maai duels, 2 rounds,
interleaved; the best round of each backend is printed, the machine being shared).
"""

from __future__ import annotations

import copy
import random
import sys
import tempfile
import time
from pathlib import Path

from ikusa.engine.runner import load_encounter, policy_for
from ikusa.lab.battle import Player, Variant
from ikusa.lab.crn import CrnSource
from ikusa.lab.executors import make_executor
from ikusa.lab.jobs import Point, Store, fixed_chunks, run_job
from ikusa.lab.policies import PolicySpec
from ikusa.lab.search import SearchPolicy, replay_state
from ikusa.lab.seeds import Task

ROOT = Path(__file__).resolve().parent.parent / "examples"
DUEL = ROOT / "maai" / "duel.yaml"
#: (encounter, side, policy, battles): the README's search-vs-greedy examples
SEARCH_CASES = [
    (ROOT / "maai" / "duel.yaml", "味方", "search:40", 3),
    (ROOT / "fantasy" / "focus_fire.yaml", "party", "search:30", 3),
    (ROOT / "sengensyou" / "focus_fire.yaml", "reimu_side", "search:48:action", 1),
]


def battles_per_second(workers: int, dask: str | None, battles: int) -> tuple[float, float]:
    """(battles/s over the job, seconds including the executor's start-up)."""
    t_start = time.perf_counter()
    ex = make_executor(workers, dask)
    try:
        variant = Variant.read(DUEL)
        task = Task(0, (variant,), 20261129, ())
        chunks = fixed_chunks(battles)
        with tempfile.TemporaryDirectory() as tmp:
            store = Store(Path(tmp), {"bench": workers, "dask": dask}, resume=False)
            run = run_job([Point(0, (), task)], lambda done: {0: chunks}, ex, store)
    finally:
        ex.close()
    return battles / run.seconds, time.perf_counter() - t_start


def clone_costs(path: Path) -> tuple[float, float | None, float | None, int, int]:
    """(replay ms, deepcopy ms or None, the state's clone() ms or None, decisions before the
    clone, decisions in all) at the middle of a greedy battle (sengensyou: the last action
    decision before it, where its clone() works)."""
    loaded = load_encounter(path)
    combat = loaded.new_combat()
    greedy = policy_for(loaded.module, "greedy")
    dice, rng = CrnSource(3), random.Random(3)
    while (d := combat.pending()) is not None:
        combat.push(greedy.choose(combat.state, d, rng), dice)
    n = len(combat.record)
    while len(combat.record) > n // 2:
        combat.pop()
    while not getattr(combat.state, "can_clone", lambda: True)() and combat.record:
        combat.pop()  # sengensyou: back to an action decision
    t = time.process_time()
    for _ in range(10):
        replay_state(combat._new_state, combat.record)
    replay = (time.process_time() - t) / 10 * 1e3
    try:
        t = time.process_time()
        for _ in range(10):
            copy.deepcopy(combat.state)
        deep: float | None = (time.process_time() - t) / 10 * 1e3
    except (TypeError, copy.Error):
        deep = None
    own: float | None = None
    clone = getattr(combat.state, "clone", None)
    if clone is not None:
        t = time.process_time()
        for _ in range(10):
            clone()
        own = (time.process_time() - t) / 10 * 1e3
    return replay, deep, own, len(combat.record), n


def search_cost(path: Path, side: str, policy: str, battles: int = 2) -> tuple[float, float, int, str]:
    """(ms per searched decision, ms per greedy battle, simulations per decision, clone method)."""
    greedy_player = Player(Variant.read(path))
    t = time.process_time()
    for s in range(battles):
        greedy_player.fight(1000 + s)
    greedy_ms = (time.process_time() - t) / battles * 1e3
    player = Player(Variant.read(path, (), PolicySpec.parse([f"{side}={policy}"])))
    pol = player.policies[side]
    assert isinstance(pol, SearchPolicy)
    t = time.process_time()
    for s in range(battles):
        player.fight(1000 + s)
    spent = time.process_time() - t
    per_decision = spent / max(1, pol.decisions) * 1e3
    return per_decision, greedy_ms, pol.simulations // max(1, pol.decisions), pol.copier or "?"


def main(argv: list[str]) -> None:
    battles = int(argv[0]) if argv and argv[0].isdigit() else 3000
    repeat = int(argv[argv.index("--repeat") + 1]) if "--repeat" in argv else 2
    if "--search-only" not in argv:
        sweep(battles, repeat)
    print("search policy (sequential halving over plans, greedy rollouts), CPU time per searched decision:")
    for path, side, policy, runs in SEARCH_CASES:
        replay, deep, own, at, n = clone_costs(path)
        per, greedy_ms, sims, how = search_cost(path, side, policy, runs)
        deep_s = f"{deep:.2f} ms" if deep is not None else "impossible"
        own_s = f", clone() {own:.2f} ms" if own is not None else ""
        print(f"  {path.parent.name}/{path.name} {side}={policy}: {per:8.1f} ms per decision ({sims} simulations, "
              f"{how}); a whole greedy battle {greedy_ms:.1f} ms; clone at mid-battle ({at} of {n} decisions): "
              f"replay {replay:.2f} ms, deepcopy {deep_s}{own_s}")


def sweep(battles: int, repeat: int) -> None:
    print(f"lab sweep point: {battles} greedy maai duels ({DUEL.name}), best of {repeat} interleaved rounds")
    best: dict[str, tuple[float, float]] = {}
    for _ in range(repeat):
        for name, workers, dask in (("1 worker", 1, None), ("2 workers (processes)", 2, None),
                                    ("Dask LocalCluster, 2 workers", 2, "local")):
            rate, wall = battles_per_second(workers, dask, battles)
            if name not in best or rate > best[name][0]:
                best[name] = (rate, wall)
    base = best["1 worker"][0]
    for name, (rate, wall) in best.items():
        print(f"  {name:32s} {rate:8.0f} battles/s  ×{rate / base:4.2f}  (wall {wall:5.1f} s with start-up)")
    print("  target: ×1.80 on 2 workers with processes")

if __name__ == "__main__":
    main(sys.argv[1:])
