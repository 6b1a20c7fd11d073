"""Fixtures of the server tests: a store on SQLite (always) and on PostgreSQL (CI: never skipped)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ikusa.server.app import create_app
from ikusa.server.settings import ServerSettings
from tests.services import postgres_url


def fresh_pg_database() -> Iterator[str]:
    """A new, empty database on the test cluster (dropped afterwards)."""
    import psycopg
    from sqlalchemy.engine import make_url

    base = make_url(postgres_url())
    name = "ikusa_t_" + secrets.token_hex(6)
    admin = base.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    yield from fresh_pg_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ikusa.db'}"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    app = create_app(ServerSettings(db_url=db_url))
    with TestClient(app) as c:
        yield c


@pytest.fixture
def sqlite_client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'ikusa.db'}"))
    with TestClient(app) as c:
        yield c
