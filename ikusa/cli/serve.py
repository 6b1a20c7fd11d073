"""`ikusa serve`: the web table, its JSON API and the BCDice-API v2 on one address."""

from __future__ import annotations

from typing import Annotated

import typer

from ikusa.cli.common import console, user_errors


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_cmd)


def serve_cmd(
    host: Annotated[str, typer.Option(help="Address to listen on (127.0.0.1: this machine only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    db: Annotated[str, typer.Option(help="Database: a SQLite file path or URL (sqlite:///…), or "
                                    "postgresql+psycopg://… for several processes on one database.")]
    = "./ikusa.db",
    example: Annotated[str | None, typer.Option(help="Open a table from a shipped example (maai/duel, gaps, "
                                                "spellcard_duel …) and print its links. A fresh database gets "
                                                "maai/duel unless --example none.")] = None,
    test_dice: Annotated[bool, typer.Option("--test-dice", help="FOR TESTS ONLY: let requests fix the dice "
                                            "(X-Test-Rands). Never use on a real table.")] = False,
) -> None:
    """Serve the GM's table, the JSON API (/docs) and the BCDice-API v2 (/v2).

    Prints the GM link and the player and spectator links of any table it opens."""
    with user_errors():
        import uvicorn
        from sqlalchemy import func, select
        from sqlalchemy.orm import Session

        from ikusa.server.app import create_app
        from ikusa.server.collector import settle
        from ikusa.server.db import TableRow
        from ikusa.server.examples import DEFAULT_EXAMPLE, example_document
        from ikusa.server.settings import ServerSettings

        settings = ServerSettings(db_url=db, host=host, port=port, test_dice=test_dice)
        app = create_app(settings)
        service = app.state.service
        name = example
        if name is None:
            with Session(app.state.engine) as s:
                fresh = not s.scalar(select(func.count()).select_from(TableRow))
            name = DEFAULT_EXAMPLE if fresh else None
        if name and name.lower() != "none":
            created = service.create_document(example_document(name))
            base = f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0', '::') else host}:{port}"
            console.print(f"table [bold]{created.id}[/] ({name}) is ready:", highlight=False)
            console.print(f"  GM:        {base}/join/{created.tokens['gm']}", highlight=False, soft_wrap=True)
            for player, tok in created.tokens["players"].items():
                console.print(f"  {player}: {base}/join/{tok}", highlight=False, soft_wrap=True, markup=False)
            console.print(f"  spectator: {base}/join/{created.tokens['spectator']}", highlight=False,
                          soft_wrap=True)
        console.print(f"ikusa serve on http://{host}:{port} (API docs: /docs; Ctrl-C stops)", highlight=False)
        settle()  # start-up's objects out of the collector's sight (ikusa.server.collector)
        # a stop (Ctrl-C, SIGTERM) waits at most 3 s for open SSE streams, which never end by themselves
        uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=3)
