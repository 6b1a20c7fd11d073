"""Server settings: from the command line (``ikusa serve``) and the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def _env(name: str) -> str:
    return os.environ.get(name, "")


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """What one ``ikusa serve`` process is configured with.

    ``db_url`` is an SQLAlchemy URL (``sqlite:///./ikusa.db`` by default,
    ``postgresql+psycopg://…`` for several processes on one database).  ``test_dice``
    lets a request fix the dice of a roll (the ``X-Test-Rands`` header of the BCDice-API):
    for tests only, never on by default.  ``admin_*`` is what ``GET /v2/admin`` answers
    (``IKUSA_ADMIN_NAME``, ``IKUSA_ADMIN_URL``, ``IKUSA_ADMIN_EMAIL``).
    """

    db_url: str = "sqlite:///./ikusa.db"
    host: str = "127.0.0.1"
    port: int = 8000
    test_dice: bool = False
    admin_name: str = field(default_factory=lambda: _env("IKUSA_ADMIN_NAME"))
    admin_url: str = field(default_factory=lambda: _env("IKUSA_ADMIN_URL"))
    admin_email: str = field(default_factory=lambda: _env("IKUSA_ADMIN_EMAIL"))
