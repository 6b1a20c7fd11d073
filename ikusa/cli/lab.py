"""``ikusa lab``: the balance lab — sweeps, paired comparisons and exact odds tables, with
reports (``results.csv``, ``results.json``, ``report.html`` and PNG plots) in ``--out DIR``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from ikusa.cli.common import console, err_console, user_errors

app = typer.Typer(name="lab", help="The balance lab: sweeps, paired comparisons (CRN, SPRT), odds tables, reports.",
                  no_args_is_help=True)

Workers = Annotated[int | None, typer.Option("--workers", "-w", help="Worker processes (default: every core).")]
Dask = Annotated[str | None, typer.Option("--dask", help="'local' (a LocalCluster) or tcp://HOST:8786 (a cluster).")]
Seed = Annotated[int, typer.Option(help="Root seed: numpy SeedSequence(seed).spawn gives every chunk's seeds.")]
Out = Annotated[Path, typer.Option("--out", "-o", help="Directory for results.csv, results.json, report.html, PNGs.")]
Resume = Annotated[bool, typer.Option("--resume", help="Continue an interrupted run in --out (same command).")]
Ai = Annotated[list[str] | None, typer.Option("--ai", help="greedy, random or search:N; SIDE=POLICY for one side "
                                              "(repeatable).")]
Sets = Annotated[list[str] | None, typer.Option("--set", help="Override a field for every battle (as ikusa sim).")]
NoReport = Annotated[bool, typer.Option("--no-report", help="Write the numbers only (no plots).")]


@contextmanager
def _progress(label: str) -> Iterator[Callable[[int, int], None]]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                  console=err_console, transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


@app.command("sweep")
def sweep_cmd(
    file: Annotated[Path, typer.Argument(help="Encounter file.")],
    out: Out,
    vary: Annotated[list[str] | None,
                    typer.Option("--vary", help="KEY=V1,V2,… or KEY=A..B (repeatable: a grid).")] = None,
    battles: Annotated[int | None, typer.Option("--battles", "-n", help="Battles per grid point.")] = None,
    precision: Annotated[float | None, typer.Option("--precision", help="Add battles until every 95 % Wilson "
                                                    "half-width ≤ H (0.01 = ±1 point).")] = None,
    ai: Ai = None, sets: Sets = None, workers: Workers = None, dask: Dask = None, seed: Seed = 0,
    resume: Resume = False, no_report: NoReport = False,
) -> None:
    """Sweep an encounter over --vary values: win rates with Wilson intervals, lengths, per-unit figures."""
    from ikusa.lab.policies import PolicySpec
    from ikusa.lab.sweep import Vary

    with user_errors():
        varies = [Vary.parse(v) for v in vary or []]
        policies = PolicySpec.parse(ai or [])
        if not file.exists():
            from ikusa.engine.errors import InputError

            raise InputError("file not found", source=str(file))
    doc = _sweep(file, varies, battles, precision, policies, sets, workers, dask, seed, out, resume)
    if not no_report:
        with user_errors():
            from ikusa.lab.report import sweep_report

            sweep_report(out, doc)
    _say_sweep(doc, out)


def _sweep(file: Path, varies: Any, battles: int | None, precision: float | None, policies: Any,
           sets: list[str] | None, workers: int | None, dask: str | None, seed: int, out: Path,
           resume: bool) -> dict[str, Any]:
    from ikusa.lab.executors import make_executor
    from ikusa.lab.sweep import run_sweep

    with user_errors():
        ex = make_executor(workers, dask)
        try:
            with _progress("sweep") as update:
                return run_sweep(file, varies, battles=battles, precision=precision, policies=policies, executor=ex,
                                 seed=seed, out=out, resume=resume, progress=update, extra_set=tuple(sets or ()))
        except KeyboardInterrupt:
            _interrupted(out)
        finally:
            ex.close()
    raise AssertionError("unreachable")  # pragma: no cover


def _interrupted(out: Path) -> None:
    err_console.print(f"interrupted: the finished chunks are kept in {out}; run the same command with --resume "
                      "to continue", soft_wrap=True, markup=False)
    raise typer.Exit(130)


def _say_sweep(doc: dict[str, Any], out: Path) -> None:
    from rich.markup import escape
    from rich.table import Table

    sides = doc["sides"]
    table = Table(title=escape(f"{doc['encounter']}: sweep, seed {doc['root_seed']}"))
    keys = list(doc["options"]["vary"])
    for k in keys:
        table.add_column(escape(k))
    table.add_column("battles", justify="right")
    for s in sides:
        table.add_column(escape(f"{s} wins (95%)"), justify="right")
    table.add_column(f"length ({doc['length_unit']}) p10/p50/p90", justify="right")
    for p in doc["points"][:60]:
        cells = [escape(str(p["vary"][k])) for k in keys] + [str(p["battles"])]
        for s in sides:
            lo, hi = p["win_rate_95"][s]
            cells.append(f"{p['win_rate'][s]:.1%} ({lo:.1%}–{hi:.1%})")
        ln = p["length"]
        cells.append(f"{ln['p10']}/{ln['p50']}/{ln['p90']}")
        table.add_row(*cells)
    console.print(table)
    console.print(f"results: {escape(str(out))}/results.csv, results.json, report.html")


@app.command("compare")
def compare_cmd(
    file_a: Annotated[Path, typer.Argument(help="Encounter A (and B, unless ENC_B is given).")],
    out: Out,
    file_b: Annotated[Path | None, typer.Argument(help="Encounter B (default: A with --b overrides).")] = None,
    a: Annotated[list[str] | None, typer.Option("--a", help="KEY=V override for variant A (repeatable).")] = None,
    b: Annotated[list[str] | None, typer.Option("--b", help="KEY=V override for variant B (repeatable).")] = None,
    a_ai: Annotated[list[str] | None, typer.Option("--a-ai", help="Policies of variant A (as --ai).")] = None,
    b_ai: Annotated[list[str] | None, typer.Option("--b-ai", help="Policies of variant B (as --ai).")] = None,
    battles: Annotated[int | None, typer.Option("--battles", "-n", help="Battle pairs (the cap with --sprt).")] = None,
    sprt: Annotated[str | None, typer.Option("--sprt", help="P0,P1[,ALPHA,BETA]: stop when Wald's SPRT decides "
                                             "(p = share of differing pairs that B wins).")] = None,
    side: Annotated[str | None,
                    typer.Option("--side", help="Side whose wins are compared (default: the first).")] = None,
    independent: Annotated[bool, typer.Option("--independent", help="Independent dice for B (to see what the "
                                              "pairing buys).")] = False,
    ai: Ai = None, sets: Sets = None, workers: Workers = None, dask: Dask = None, seed: Seed = 0,
    resume: Resume = False, no_report: NoReport = False,
) -> None:
    """Compare two variants on common random numbers: the paired difference with its CI (and SPRT)."""
    from ikusa.engine.errors import InputError
    from ikusa.lab.battle import Variant
    from ikusa.lab.compare import run_compare
    from ikusa.lab.executors import make_executor
    from ikusa.lab.policies import PolicySpec
    from ikusa.lab.stats import parse_sprt

    with user_errors():
        base = list(sets or [])
        pa = PolicySpec.parse([*(ai or []), *(a_ai or [])])
        pb = PolicySpec.parse([*(ai or []), *(b_ai or [])])
        va = Variant.read(file_a, tuple(base + list(a or [])), pa)
        vb = Variant.read(file_b or file_a, tuple(base + list(b or [])), pb)
        if file_b is None and not a and not b and pa == pb:
            raise InputError("A and B are the same: give ENC_B, --a/--b overrides or --a-ai/--b-ai", field="--b")
        try:
            test = parse_sprt(sprt) if sprt else None
        except ValueError as exc:
            raise InputError(str(exc), field="--sprt") from None
        ex = make_executor(workers, dask)
        try:
            with _progress("compare") as update:
                doc = run_compare(va, vb, battles=battles, sprt=test, executor=ex, seed=seed, out=out, focus=side,
                                  resume=resume, independent=independent, progress=update)
        except KeyboardInterrupt:
            _interrupted(out)
        finally:
            ex.close()
    if not no_report:
        with user_errors():
            from ikusa.lab.report import compare_report

            compare_report(out, doc)
    c = doc["comparison"]
    lo, hi = c["difference_95"]
    console.print(f"{c['focus']} wins: A {c['win_rate_a']:.1%}, B {c['win_rate_b']:.1%} over {c['pairs']} pairs; "
                  f"B − A = {c['difference']:+.1%} (95% {lo:+.1%} … {hi:+.1%})")
    if c["variance_reduction"] is not None:
        console.print(f"variance of the difference: ÷{c['variance_reduction']:.1f} by pairing (common random numbers)")
    if "sprt" in c:
        t = c["sprt"]
        console.print(f"SPRT p0={t['p0']} p1={t['p1']}: {t['decision'] or 'undecided'} after {t['trials']} differing "
                      f"pairs (LLR {t['llr']:.2f}, bounds {t['lower']:.2f}…{t['upper']:.2f})")
    console.print(f"results: {out}/results.csv, results.json, report.html")


@app.command("odds")
def odds_cmd(
    system: Annotated[str, typer.Argument(help="maai, sengensyou or fantasy.")],
    command: Annotated[str, typer.Argument(help="A dice command with {NAME} slots, e.g. '2D10+{mod}>={tn}'.")],
    out: Out,
    grid: Annotated[list[str] | None, typer.Option("--grid", help="NAME=V1,V2 or NAME=A..B (one or two).")] = None,
    measure: Annotated[str, typer.Option(help="Which figure: success, critical, fumble …")] = "success",
    fate: Annotated[int, typer.Option(help="maai: fate interventions assumed (S-R14).")] = 0,
) -> None:
    """Exact odds of a dice command over a grid of values, as a table and an annotated heatmap."""
    from ikusa.lab.odds_table import odds_grid

    with user_errors():
        doc = odds_grid(system, command, grid or [], measure, out, fate=fate)
    console.print(f"{len(doc['cells'])} exact cells; results: {out}/results.csv, results.json, report.html")


def register(parent: typer.Typer) -> None:
    parent.add_typer(app, name="lab")

