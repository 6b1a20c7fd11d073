"""Running a lab job: rounds of chunks on an executor, kept in ``DIR/chunks.jsonl``.

A *plan* says, from the chunks finished so far, which chunks every grid point should have
(all of them for ``-n``; one more batch while a point is not precise enough for
``--precision``; one more batch while the SPRT has not decided).  The job runs the missing
ones, appends each finished chunk to the store at once (so Ctrl-C keeps them and ``--resume``
continues), and asks the plan again until nothing is missing.  Because the plan reads only
finished chunks, and only at batch boundaries, the chunks a job ends with — and so its
results — never depend on the executor, the timing or an interruption.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from math import ceil
from pathlib import Path
from typing import Any

from ikusa.engine.errors import InputError
from ikusa.lab.executors import Executor
from ikusa.lab.seeds import CHUNK, ChunkResult, Task, run_task

#: chunk index → battles in it
ChunkPlan = dict[int, int]
#: (point, chunk) → the chunk's data
Done = dict[tuple[int, int], dict[str, Any]]
Plan = Callable[[Done], dict[int, ChunkPlan]]

#: a task should take about this long (Dask costs a few ms per task)
TASK_SECONDS = 1.0
#: the most battles one grid point may get (precision and SPRT stop there)
MAX_BATTLES = 1_000_000


def fixed_chunks(n: int) -> ChunkPlan:
    """``-n N``: chunks 0… with the last one cut to what is left."""
    return {k: min(CHUNK, n - k * CHUNK) for k in range(ceil(n / CHUNK))}


@dataclass(frozen=True, slots=True)
class Point:
    index: int
    #: vary key → value (the grid coordinates; empty for a compare)
    label: tuple[tuple[str, Any], ...]
    task: Task


class Store:
    """``DIR/job.json`` (what the job is) and ``DIR/chunks.jsonl`` (one finished chunk a line)."""

    def __init__(self, out: Path, fingerprint: dict[str, Any], resume: bool) -> None:
        self.out = out
        self.chunks = out / "chunks.jsonl"
        key = hashlib.sha256(json.dumps(fingerprint, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
        job = out / "job.json"
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create the output directory: {exc.strerror or exc}", source=str(out),
                             field="--out") from None
        if resume:
            if not job.exists():
                raise InputError("nothing to resume here (no job.json)", source=str(out), field="--resume")
            old = json.loads(job.read_text("utf-8")).get("key")
            if old != key:
                raise InputError("this directory holds a different run (other encounter, keys, seed or "
                                 "battles); resume it with its own command or choose another --out",
                                 source=str(out), field="--resume")
        else:
            self.chunks.unlink(missing_ok=True)
        job.write_text(json.dumps({"key": key, "job": fingerprint}, ensure_ascii=False, indent=1) + "\n", "utf-8")

    def load(self) -> tuple[Done, dict[tuple[int, int], float]]:
        done: Done = {}
        secs: dict[tuple[int, int], float] = {}
        if not self.chunks.exists():
            return done, secs
        for line in self.chunks.read_text("utf-8").splitlines():
            try:
                rec = json.loads(line)
                k = (int(rec["point"]), int(rec["chunk"]))
                done[k] = rec["data"]
                secs[k] = float(rec.get("seconds", 0.0))
            except (ValueError, KeyError, TypeError):
                continue  # a line cut short by an interruption: that chunk runs again
        return done, secs

    def append(self, results: list[ChunkResult]) -> None:
        with self.chunks.open("a", encoding="utf-8") as fh:
            for r in results:
                fh.write(json.dumps({"point": r.point, "chunk": r.chunk, "seconds": round(r.seconds, 4),
                                     "data": r.data}, ensure_ascii=False, separators=(",", ":")) + "\n")


@dataclass(slots=True)
class JobRun:
    done: Done
    wanted: dict[int, ChunkPlan]
    seconds: float
    cpu_seconds: float
    resumed_chunks: int
    battles_run: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def chunks_of(self, point: int) -> list[dict[str, Any]]:
        return [self.done[(point, c)] for c in sorted(self.wanted.get(point, {}))]


def _group(missing: list[tuple[int, int, int]], tasks: dict[int, Task], sec_per_seed: float,
           workers: int) -> list[Task]:
    """Consecutive chunks of one point grouped so a task takes about TASK_SECONDS, but with
    at least two tasks per worker when there are enough chunks."""
    target = max(1, int(TASK_SECONDS / max(sec_per_seed * CHUNK, 1e-9)))
    spread = max(1, ceil(len(missing) / (2 * workers)))
    per_task = max(1, min(target, spread))
    out: list[Task] = []
    by_point: dict[int, list[tuple[int, int]]] = {}
    for p, c, n in missing:
        by_point.setdefault(p, []).append((c, n))
    for p, chunks in by_point.items():
        base = tasks[p]
        for i in range(0, len(chunks), per_task):
            out.append(Task(p, base.variants, base.root, tuple(chunks[i:i + per_task]), base.focus,
                            base.independent))
    return out


def run_job(points: list[Point], plan: Plan, executor: Executor, store: Store,
            progress: Callable[[int, int], None] | None = None) -> JobRun:
    """Run ``plan`` to its end; ``progress(done_battles, wanted_battles)`` after each task."""
    t0, c0 = time.perf_counter(), time.process_time()
    done, secs = store.load()
    resumed = len(done)
    tasks = {p.index: p.task for p in points}
    # (seconds, seeds) of timed chunks: the speed that sizes the tasks
    timed = [(secs[k], _chunk_seeds(done[k])) for k in secs if secs[k] > 0]
    ran = 0
    while True:
        wanted = plan(done)
        missing = [(p, c, n) for p, chunks in sorted(wanted.items()) for c, n in sorted(chunks.items())
                   if (p, c) not in done]
        total = sum(n for chunks in wanted.values() for n in chunks.values())
        have = sum(n for p, chunks in wanted.items() for c, n in chunks.items() if (p, c) in done)
        if progress is not None:
            progress(have, total)
        if not missing:
            break
        if not timed:  # no speed known yet: one chunk per worker first, timed
            probe, missing = missing[:executor.workers], missing[executor.workers:]
            for res in executor.run(run_task, _group(probe, tasks, float("inf"), executor.workers)):
                n = _take(res, store, done, wanted, timed)
                ran += n
                have += n
                if progress is not None:
                    progress(have, total)
            if not missing:
                continue
        spb = sum(s for s, _ in timed) / max(1, sum(n for _, n in timed))
        for res in executor.run(run_task, _group(missing, tasks, spb, executor.workers)):
            n = _take(res, store, done, wanted, timed)
            ran += n
            have += n
            if progress is not None:
                progress(have, total)
    return JobRun(done, wanted, time.perf_counter() - t0, time.process_time() - c0, resumed, ran)


def _take(res: Any, store: Any, done: dict[Any, Any], wanted: dict[Any, Any], timed: list[tuple[float, int]]) -> int:
    """Keep one finished group of chunks (stored for ``--resume``, counted, timed); the battles it held."""
    store.append(res)
    n = 0
    for r in res:
        done[(r.point, r.chunk)] = r.data
        k = wanted[r.point][r.chunk]
        timed.append((r.seconds, k))
        n += k
    return n


def _chunk_seeds(data: dict[str, Any]) -> int:
    return int(data["agg"]["battles"] if "agg" in data else data["a"]["battles"])
