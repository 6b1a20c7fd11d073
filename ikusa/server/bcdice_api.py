"""BCDice-API v2 under ``/v2`` (issue #10 fills this in)."""

from __future__ import annotations

from fastapi import FastAPI

from ikusa.server.settings import ServerSettings


def install(app: FastAPI, settings: ServerSettings) -> None:
    """Add the ``/v2`` routes to ``app``."""
