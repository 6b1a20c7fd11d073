"""``ikusa lab sweep``: one encounter over a grid of ``--vary KEY=…`` values.

One ``--vary`` gives a curve, two give a grid (more give a larger grid; the report plots the
first two).  A key is any ``--set`` path (``options.fate.lethal_exception``,
``units.0.abilities.技``); values are ``V1,V2,…`` (each read as YAML) or an integer range
``A..B`` (both ends included).  Every grid point fights the same battle seeds (common random
numbers along the sweep), so neighbouring points differ by the rule, not by the luck.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable
from dataclasses import dataclass
from math import ceil
from pathlib import Path
from typing import Any

import yaml

import ikusa
from ikusa.engine.errors import IkusaError, InputError
from ikusa.lab.aggregate import Aggregate
from ikusa.lab.battle import Player, Variant
from ikusa.lab.executors import Executor
from ikusa.lab.jobs import MAX_BATTLES, ChunkPlan, Done, JobRun, Point, Store, fixed_chunks, run_job
from ikusa.lab.policies import PolicySpec
from ikusa.lab.results import csv_text, point_json, point_row, sides_of, units_of, write_results
from ikusa.lab.seeds import CHUNK, Task
from ikusa.lab.stats import half_width_ok

#: chunks added per round while a point is not precise enough (1,000 battles)
PRECISION_BATCH = 50


@dataclass(frozen=True, slots=True)
class Vary:
    key: str
    values: tuple[Any, ...]

    @classmethod
    def parse(cls, text: str) -> Vary:
        """``KEY=V1,V2,…`` or ``KEY=A..B``.

        >>> Vary.parse("units.0.abilities.技=0..2").values
        (0, 1, 2)
        >>> Vary.parse("options.fate.lethal_exception=true,false").values
        (True, False)
        """
        key, sep, raw = text.partition("=")
        key, raw = key.strip(), raw.strip()
        if not sep or not key:
            raise InputError(f"--vary {text!r} must look like KEY=V1,V2 or KEY=A..B", field="--vary")
        lo, dots, hi = raw.partition("..")
        if dots:
            try:
                a, b = int(lo), int(hi)
            except ValueError:
                raise InputError(f"--vary {key}: a range A..B needs whole numbers, not {raw!r}",
                                 field="--vary") from None
            if b < a:
                raise InputError(f"--vary {key}={raw}: empty range (the end is below the start)", field="--vary")
            if b - a >= 1000:
                raise InputError(f"--vary {key}={raw}: at most 1,000 values", field="--vary")
            return cls(key, tuple(range(a, b + 1)))
        parts = [p.strip() for p in raw.split(",") if p.strip()]
        if not parts:
            raise InputError(f"--vary {key}: empty list of values", field="--vary")
        values = []
        for p in parts:
            try:
                values.append(yaml.safe_load(p))
            except yaml.YAMLError:
                raise InputError(f"--vary {key}: the value {p!r} is not valid YAML", field="--vary") from None
        return cls(key, tuple(values))

    def override(self, value: Any) -> str:
        text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True).strip()
        return f"{self.key}={text.removesuffix('...').strip()}"


def grid(varies: list[Vary]) -> list[dict[str, Any]]:
    """Every combination, the last ``--vary`` changing fastest."""
    keys = [v.key for v in varies]
    if len(set(keys)) != len(keys):
        raise InputError("the same key is varied twice", field="--vary")
    return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*(v.values for v in varies))]


def check_point(variant: Variant, label: dict[str, Any]) -> Player:
    """Build a point's encounter once here, so a bad key or value is one line naming it."""
    try:
        return Player(variant)
    except IkusaError as exc:
        where = ", ".join(f"{k}={v!r}" for k, v in label.items())
        raise InputError(f"--vary {where}: {exc}") from None


def precision_plan(points: int, target: float, max_battles: int) -> Callable[[Done], dict[int, ChunkPlan]]:
    """Add batches of battles to a point until every win rate's Wilson half-width ≤ target."""
    cap = max(1, ceil(max_battles / CHUNK))

    def plan(done: Done) -> dict[int, ChunkPlan]:
        out: dict[int, ChunkPlan] = {}
        for p in range(points):
            boundary = PRECISION_BATCH
            while True:
                boundary = min(boundary, cap)
                chunks = range(boundary)
                if not all((p, c) in done for c in chunks):
                    break
                agg = Aggregate()
                for c in chunks:
                    agg.merge(Aggregate.from_json(done[(p, c)]["agg"]))
                counts = dict(agg.wins)
                for side in {r[0] for r in agg.roster.values()}:
                    counts.setdefault(side, 0)
                if boundary >= cap or half_width_ok(counts, agg.battles, target):
                    break
                boundary += PRECISION_BATCH
            out[p] = dict.fromkeys(range(boundary), CHUNK)
        return out

    return plan


def run_sweep(path: str | Path, varies: list[Vary], *, battles: int | None, precision: float | None,
              policies: PolicySpec, executor: Executor, seed: int, out: Path, resume: bool = False,
              progress: Callable[[int, int], None] | None = None, extra_set: tuple[str, ...] = (),
              max_battles: int = MAX_BATTLES) -> dict[str, Any]:
    """Run the sweep, write ``results.csv``/``results.json`` and return the JSON document."""
    if (battles is None) == (precision is None):
        raise InputError("give either -n N or --precision H", field="-n")
    if battles is not None and not 1 <= battles <= max_battles:
        raise InputError(f"-n must be 1..{max_battles:,}, not {battles}", field="-n")
    if precision is not None and not 0.0005 <= precision <= 0.5:
        raise InputError(f"--precision must be a half-width in 0.0005..0.5 (0.01 = ±1 point), not {precision}",
                         field="--precision")
    base = Variant.read(path, extra_set, policies)
    labels = grid(varies) if varies else [{}]
    vary_by_key = {v.key: v for v in varies}
    points: list[Point] = []
    for i, label in enumerate(labels):
        variant = base.with_overrides(tuple(vary_by_key[k].override(v) for k, v in label.items()))
        check_point(variant, label)
        points.append(Point(i, tuple(label.items()), Task(i, (variant,), seed, ())))
    if battles is not None:
        chunks = fixed_chunks(battles)
        plan: Callable[[Done], dict[int, ChunkPlan]] = lambda done: {p.index: chunks for p in points}  # noqa: E731
    else:
        assert precision is not None
        plan = precision_plan(len(points), precision, max_battles)
    fingerprint = {"kind": "sweep", "document": base.document, "source": base.source, "set": list(extra_set),
                   "vary": [[v.key, list(v.values)] for v in varies], "seed": seed, "battles": battles,
                   "precision": precision, "ai": policies.label(), "version": ikusa.__version__}
    store = Store(out, fingerprint, resume)
    run = run_job(points, plan, executor, store, progress)
    aggs = [merged(run, p.index, "agg") for p in points]
    return write_sweep(out, varies, labels, aggs, run, base, policies, seed, battles, precision)


def merged(run: JobRun, point: int, part: str) -> Aggregate:
    agg = Aggregate()
    for data in run.chunks_of(point):
        agg.merge(Aggregate.from_json(data[part]))
    return agg


def write_sweep(out: Path, varies: list[Vary], labels: list[dict[str, Any]], aggs: list[Aggregate], run: JobRun,
                base: Variant, policies: PolicySpec, seed: int, battles: int | None,
                precision: float | None) -> dict[str, Any]:
    sides = sides_of(aggs)
    units = units_of(aggs)
    rows = [point_row(a, sides, units) for a in aggs]
    doc: dict[str, Any] = {
        "command": ["ikusa", *sys.argv[1:]],
        "ikusa_version": ikusa.__version__,
        "kind": "sweep",
        "encounter": base.source,
        "root_seed": seed,
        "options": {"battles": battles, "precision": precision, "ai": policies.names(),
                    "set": list(base.overrides), "vary": {v.key: list(v.values) for v in varies},
                    "chunk": CHUNK, "encounter_options": base.document.get("options", {})},
        "sides": sides,
        "length_unit": _length_unit(base),
        "points": [{"point": i, "vary": labels[i], **point_json(a, sides)} for i, a in enumerate(aggs)],
        "timing": {"seconds": round(run.seconds, 3), "cpu_seconds_here": round(run.cpu_seconds, 3),
                   "battles_run": run.battles_run, "chunks_resumed": run.resumed_chunks},
    }
    write_results(out, csv_text(labels, rows), doc)
    return doc


def _length_unit(v: Variant) -> str:
    from ikusa.lab.metrics import LENGTH_UNIT

    return LENGTH_UNIT.get(str(v.document.get("system", "")).lower(), "decisions")
