"""The FastAPI application of ``ikusa serve``.

One app serves the web table (its pages and JSON API, ``/api``) and the BCDice-API v2
(``/v2``).  ``create_app(settings)`` builds it; routes are thin: they parse, check the
role, append an entry and publish.
"""

from __future__ import annotations

from fastapi import FastAPI

from ikusa.server.settings import ServerSettings


def create_app(settings: ServerSettings | None = None) -> FastAPI:
    """Build the app for ``settings`` (defaults: SQLite ``./ikusa.db``, no test dice)."""
    from ikusa import __version__
    from ikusa.server import bcdice_api

    settings = settings or ServerSettings()
    app = FastAPI(title="ikusa", version=__version__,
                  description="ikusa (戦): the GM's combat table, its JSON API and a BCDice-API v2 server.")
    app.state.settings = settings

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    bcdice_api.install(app, settings)
    return app
