"""``ikusa lab compare``: two variants, paired battle by battle on common random numbers.

Variant A and variant B fight every battle seed; both draw their dice from
:class:`~ikusa.lab.crn.CrnSource` streams keyed per battle and per roller/purpose, so they
roll the same numbers wherever their play coincides.  The result is the paired difference of
the focus side's win rate (B − A) with its 95 % interval, the variance reduction the pairing
bought (var(A) + var(B) over var(B − A)), and, with ``--sprt P0,P1[,ALPHA,BETA]``, Wald's
sequential test on the pairs that differ: ``p`` = the share of those in which B does better
(H0 ``p = P0``, H1 ``p = P1``; an A/A comparison has ``p = 0.5``).  The test is looked at
only every :data:`SPRT_BATCH` chunks, in chunk order, so where it stops does not depend on
the workers.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from math import ceil
from pathlib import Path
from typing import Any

import ikusa
from ikusa.engine.errors import IkusaError, InputError
from ikusa.lab.aggregate import Paired
from ikusa.lab.battle import Player, Variant
from ikusa.lab.executors import Executor
from ikusa.lab.jobs import MAX_BATTLES, ChunkPlan, Done, JobRun, Point, Store, fixed_chunks, run_job
from ikusa.lab.results import csv_text, point_json, point_row, sides_of, units_of, write_results
from ikusa.lab.seeds import CHUNK, Task
from ikusa.lab.stats import Sprt, paired_difference
from ikusa.lab.sweep import _length_unit, merged

#: the SPRT is evaluated after every this many chunks (200 battle pairs)
SPRT_BATCH = 10


def sprt_plan(test: Sprt, max_battles: int) -> Callable[[Done], dict[int, ChunkPlan]]:
    cap = max(SPRT_BATCH, ceil(max_battles / CHUNK))

    def plan(done: Done) -> dict[int, ChunkPlan]:
        boundary = 0
        while boundary < cap:
            boundary = min(boundary + SPRT_BATCH, cap)
            if not all((0, c) in done for c in range(boundary)):
                break
            if _sprt_at(test, done, boundary).decision is not None:
                break
        return {0: dict.fromkeys(range(boundary), CHUNK)}

    return plan


def _sprt_at(test: Sprt, done: Done, boundary: int) -> Sprt:
    """The test after chunks 0..boundary-1, with its trace at every batch boundary."""
    t = Sprt(test.p0, test.p1, test.alpha, test.beta)
    for start in range(0, boundary, SPRT_BATCH):
        pair = Paired()
        for c in range(start, min(start + SPRT_BATCH, boundary)):
            pair.merge(Paired.from_json(done[(0, c)]["pair"]))
        s = pair.sums
        t.add(s["b_better"], s["a_better"] + s["b_better"])
        if t.decision is not None:
            break
    return t


def run_compare(a: Variant, b: Variant, *, battles: int | None, sprt: Sprt | None, executor: Executor, seed: int,
                out: Path, focus: str | None = None, resume: bool = False, independent: bool = False,
                progress: Callable[[int, int], None] | None = None,
                max_battles: int = MAX_BATTLES) -> dict[str, Any]:
    """Run the comparison, write ``results.csv``/``results.json`` and return the JSON document."""
    if battles is None and sprt is None:
        raise InputError("give -n N or --sprt P0,P1", field="-n")
    if battles is not None and not 1 <= battles <= max_battles:
        raise InputError(f"-n must be 1..{max_battles:,}, not {battles}", field="-n")
    players = []
    for name, v in (("A", a), ("B", b)):
        try:
            players.append(Player(v))
        except IkusaError as exc:
            raise InputError(f"variant {name} ({v.source} {' '.join(v.overrides)}): {exc}".replace("  ", " ")) from None
    if players[0].loaded.doc.system != players[1].loaded.doc.system:
        raise InputError("A and B must be encounters of the same system", field="ENC_B")
    sides = players[0].sides
    if focus is None:
        focus = sides[0]
    elif focus not in sides:
        raise InputError(f"--side {focus!r}: no such side; sides: {', '.join(sides)}", field="--side")
    task = Task(0, (a, b), seed, (), focus, independent)
    plan: Callable[[Done], dict[int, ChunkPlan]]
    if sprt is not None:
        plan = sprt_plan(sprt, battles or max_battles)
    else:
        assert battles is not None
        chunks = fixed_chunks(battles)
        plan = lambda done: {0: chunks}  # noqa: E731
    fingerprint = {"kind": "compare", "a": [a.document, a.source, list(a.overrides), a.policies.label()],
                   "b": [b.document, b.source, list(b.overrides), b.policies.label()], "seed": seed,
                   "battles": battles, "sprt": None if sprt is None else [sprt.p0, sprt.p1, sprt.alpha, sprt.beta],
                   "focus": focus, "independent": independent, "version": ikusa.__version__}
    store = Store(out, fingerprint, resume)
    run = run_job([Point(0, (), task)], plan, executor, store, progress)
    return write_compare(out, a, b, run, focus, seed, battles, sprt, independent)


def write_compare(out: Path, a: Variant, b: Variant, run: JobRun, focus: str, seed: int, battles: int | None,
                  sprt: Sprt | None, independent: bool) -> dict[str, Any]:
    agg_a, agg_b = merged(run, 0, "a"), merged(run, 0, "b")
    pair = Paired()
    for data in run.chunks_of(0):
        pair.merge(Paired.from_json(data["pair"]))
    s = pair.sums
    win = paired_difference(s["n"], s["a"], s["b"], s["a2"], s["b2"], s["ab"])
    length = paired_difference(s["n"], s["la"], s["lb"], s["la2"], s["lb2"], s["lab"])
    sides = sides_of([agg_a, agg_b])
    units = units_of([agg_a, agg_b])
    labels = [{"variant": "A", "policies": a.policies.label(), "set": " ".join(a.overrides), "source": a.source},
              {"variant": "B", "policies": b.policies.label(), "set": " ".join(b.overrides), "source": b.source}]
    rows = [point_row(agg_a, sides, units), point_row(agg_b, sides, units)]
    diff: dict[str, Any] = {
        "focus": focus, "pairs": s["n"], "paired": not independent,
        "win_rate_a": s["a"] / s["n"] if s["n"] else 0.0, "win_rate_b": s["b"] / s["n"] if s["n"] else 0.0,
        "difference": win.mean, "difference_95": [win.low, win.high],
        "variance_paired": win.var_paired, "variance_unpaired": win.var_unpaired,
        "variance_reduction": win.reduction if win.var_paired > 0 else None,
        "b_better": s["b_better"], "a_better": s["a_better"],
        "length_difference": length.mean, "length_difference_95": [length.low, length.high],
        "length_variance_reduction": length.reduction if length.var_paired > 0 else None,
    }
    if sprt is not None:
        t = _sprt_at(sprt, run.done, max(run.wanted[0]) + 1 if run.wanted[0] else 0)
        diff["sprt"] = {"p0": t.p0, "p1": t.p1, "alpha": t.alpha, "beta": t.beta, "decision": t.decision,
                        "llr": t.llr, "lower": t.lower, "upper": t.upper, "trials": t.trials,
                        "b_better": t.successes, "trace": [[n, llr] for n, llr in t.trace]}
    doc: dict[str, Any] = {
        "command": ["ikusa", *sys.argv[1:]], "ikusa_version": ikusa.__version__, "kind": "compare",
        "root_seed": seed,
        "options": {"battles": battles, "sprt": None if sprt is None else [sprt.p0, sprt.p1, sprt.alpha, sprt.beta],
                    "a": {"source": a.source, "set": list(a.overrides), "ai": a.policies.names()},
                    "b": {"source": b.source, "set": list(b.overrides), "ai": b.policies.names()},
                    "chunk": CHUNK, "independent_dice": independent},
        "sides": sides, "comparison": diff, "length_unit": _length_unit(a),
        "points": [{"variant": "A", **point_json(agg_a, sides)}, {"variant": "B", **point_json(agg_b, sides)}],
        "timing": {"seconds": round(run.seconds, 3), "cpu_seconds_here": round(run.cpu_seconds, 3),
                   "battles_run": run.battles_run, "chunks_resumed": run.resumed_chunks},
    }
    body = csv_text(labels, rows)
    d95 = diff["difference_95"]
    body += ("\nfocus,pairs,win_rate_a,win_rate_b,difference,difference_low,difference_high,variance_reduction,"
             "b_better,a_better,sprt_decision\n"
             f"{focus},{s['n']},{diff['win_rate_a']:.6f},{diff['win_rate_b']:.6f},{win.mean:.6f},{d95[0]:.6f},"
             f"{d95[1]:.6f},{'' if diff['variance_reduction'] is None else format(diff['variance_reduction'], '.6f')},"
             f"{s['b_better']},{s['a_better']},{(diff.get('sprt') or {}).get('decision') or ''}\n")
    write_results(out, body, doc)
    return doc
