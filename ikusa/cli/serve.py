"""`ikusa serve`: the web table, its JSON API and the BCDice-API v2 on one address."""

from __future__ import annotations

from typing import Annotated

import typer

from ikusa.cli.common import user_errors


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_cmd)


def serve_cmd(
    host: Annotated[str, typer.Option(help="Address to listen on (127.0.0.1: this machine only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    db: Annotated[str, typer.Option(help="Database: a SQLite file path or URL (sqlite:///…), or "
                                    "postgresql+psycopg://… for several processes on one database.")]
    = "sqlite:///./ikusa.db",
    test_dice: Annotated[bool, typer.Option("--test-dice", help="FOR TESTS ONLY: let requests fix the dice "
                                            "(X-Test-Rands). Never use on a real table.")] = False,
) -> None:
    """Serve the GM's table, the JSON API (/docs) and the BCDice-API v2 (/v2)."""
    with user_errors():
        import uvicorn

        from ikusa.server.app import create_app
        from ikusa.server.settings import ServerSettings

        settings = ServerSettings(db_url=db, host=host, port=port, test_dice=test_dice)
        uvicorn.run(create_app(settings), host=host, port=port, log_level="warning")
