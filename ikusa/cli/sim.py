"""`ikusa sim FILE`: the balance lab — many seeded battles, win rates with 95 % intervals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ikusa.cli.common import console, err_console, user_errors


def register(app: typer.Typer) -> None:
    app.command("sim")(sim_cmd)


def sim_cmd(
    file: Annotated[Path, typer.Argument(help="Encounter file (YAML, TOML or JSON).")],
    battles: Annotated[int, typer.Option("--battles", "-n", help="How many battles to run.")] = 200,
    seed: Annotated[int, typer.Option(help="First seed; battle i uses seed+i.")] = 0,
    ai: Annotated[str, typer.Option(help="AI policy for every decision.")] = "greedy",
    overrides: Annotated[
        list[str] | None,
        typer.Option("--set", help="Override a field before validation, e.g. options.fate.lethal_exception=false "
                     "(repeatable; the value is read as YAML)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    workers: Annotated[int | None, typer.Option("--workers", "-w", help="Worker processes (default: every core; "
                                                "the results are identical to --workers 1).")] = None,
) -> None:
    """Run an encounter many times and report who wins (a rule change's effect on balance)."""
    from ikusa.lab.simulate import simulate_parallel

    with user_errors():
        with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=err_console, transient=True, disable=as_json) as bar:
            task = bar.add_task("sim", total=battles)
            report = simulate_parallel(file, overrides or [], battles, seed=seed, ai=ai, workers=workers,
                                       progress=lambda n: bar.update(task, completed=n))
    if as_json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
        return
    table = Table(title=escape(f"{file.name}: {battles} battles, AI {ai}, seeds {seed}…{seed + battles - 1}"))
    table.add_column("winner")
    table.add_column("wins", justify="right")
    table.add_column("rate", justify="right")
    table.add_column("95% interval", justify="right")
    for side in sorted(report.wins):
        lo, hi = report.interval(side)
        table.add_row(escape(side), str(report.wins[side]), f"{report.rate(side):.1%}", f"{lo:.1%}–{hi:.1%}")
    console.print(table)
    console.print(f"mean decisions per battle: {report.decisions / battles:.1f}")
