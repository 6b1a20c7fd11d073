"""Seeds and tasks: what a worker runs, and the seed of every battle.

Battle seeds come in *chunks* of :data:`CHUNK` battles: chunk ``k`` of root seed ``r`` is
``numpy.random.SeedSequence(r).spawn(k + 1)[k]`` (= ``SeedSequence(r, spawn_key=(k,))``),
and its battle seeds are that child's ``generate_state``.  A battle's seed depends only on
the root and its chunk, never on which worker runs it, how chunks are grouped into tasks or
in what order they finish; every grid point of a sweep uses the same seeds (common random
numbers along the sweep).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ikusa.lab.aggregate import Aggregate, Paired
from ikusa.lab.battle import Player, Variant

#: battles per seeding chunk
CHUNK = 20
#: xor-ed into a battle seed for variant B of an *unpaired* comparison (independent dice)
INDEPENDENT = 0x9E3779B97F4A7C15


def chunk_seeds(root: int, chunk: int, count: int = CHUNK) -> list[int]:
    """The battle seeds of chunk ``chunk`` (the first ``count`` of its :data:`CHUNK`)."""
    import numpy as np

    ss = np.random.SeedSequence(root, spawn_key=(chunk,))
    seeds: list[int] = ss.generate_state(CHUNK, np.uint64).tolist()
    return seeds[:count]


@dataclass(frozen=True, slots=True)
class Task:
    """Some chunks of one grid point.  ``variants`` holds one variant (a sweep point) or two
    (a comparison: A and B fight every seed); ``focus`` is the side whose wins are scored in a
    comparison."""

    point: int
    variants: tuple[Variant, ...]
    root: int
    chunks: tuple[tuple[int, int], ...]  # (chunk index, battles in it)
    focus: str = ""
    independent: bool = False


@dataclass(frozen=True, slots=True)
class ChunkResult:
    point: int
    chunk: int
    data: dict[str, Any]
    seconds: float


def run_task(task: Task) -> list[ChunkResult]:
    """Run a task's chunks (in a worker process, a Dask worker or in-process)."""
    players = [Player(v) for v in task.variants]
    out: list[ChunkResult] = []
    for chunk, count in task.chunks:
        t0 = time.perf_counter()
        seeds = chunk_seeds(task.root, chunk, count)
        if len(players) == 1:
            agg = Aggregate()
            for s in seeds:
                agg.add_battle(players[0].fight(s))
            data: dict[str, Any] = {"agg": agg.to_json()}
        else:
            a_agg, b_agg, pair = Aggregate(), Aggregate(), Paired()
            for s in seeds:
                ma = players[0].fight(s)
                mb = players[1].fight(s ^ INDEPENDENT if task.independent else s)
                a_agg.add_battle(ma)
                b_agg.add_battle(mb)
                pair.add_pair(int(ma.winner == task.focus), int(mb.winner == task.focus), ma.length, mb.length)
            data = {"a": a_agg.to_json(), "b": b_agg.to_json(), "pair": pair.to_json()}
        out.append(ChunkResult(task.point, chunk, data, time.perf_counter() - t0))
    return out
