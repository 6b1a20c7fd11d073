"""`ikusa fight FILE`: run an encounter unattended and print the narrated log or JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from ikusa.cli.common import console, refuse_overwrite, user_errors
from ikusa.engine.combat import Combat
from ikusa.engine.events import Event


def register(app: typer.Typer) -> None:
    app.command("fight")(fight_cmd)
    from ikusa.cli import play

    play.register(app)


def fight_cmd(
    file: Annotated[Path, typer.Argument(help="Encounter file (YAML, TOML or JSON) with a 'system' key.")],
    seed: Annotated[int | None, typer.Option(help="Seed for the dice and the AI: same seed, same log.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object {events, final}.")] = False,
    ai: Annotated[str, typer.Option(help="AI policy for every decision the script leaves open.")] = "greedy",
    save: Annotated[Path | None, typer.Option(help="Also save the decision log here.")] = None,
) -> None:
    """Run an encounter to the end: scripted decisions first, then the AI policy."""
    from ikusa.engine.runner import fight

    with user_errors():
        if save is not None:
            refuse_overwrite(save, file)
        combat = fight(file, seed=seed, ai=ai)
        if save is not None:
            combat.save(save)
    if as_json:
        print(json.dumps(fight_json(combat), ensure_ascii=False, indent=1))
    else:
        narrate(combat.events)
        final = combat.state.summary()
        winner = final.get("winner")
        shown = "draw (引き分け: no side won)" if winner is None else escape(str(winner))
        console.print(f"[bold]結果[/]: winner = {shown}")


def fight_json(combat: Combat) -> dict[str, object]:
    return {
        "system": combat.system,
        "events": [e.to_json() for e in combat.events],
        "final": combat.state.summary(),
    }


def narrate(events: list[Event]) -> None:
    for e in events:
        rule = f" [dim]({e.rule})[/]" if e.rule else ""
        console.print(_escape(e.text) + rule, soft_wrap=True)


def _escape(text: str) -> str:
    return escape(text)
