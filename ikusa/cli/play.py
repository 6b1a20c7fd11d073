"""`ikusa play FILE`: interactive play in the terminal (filled in by the core work)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add `play` to the app."""
