"""Alembic environment: run with the connection :func:`ikusa.server.db.migrate` passes in."""

from __future__ import annotations

from alembic import context

from ikusa.server.db import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only the programmatic path is supported
    raise RuntimeError("run migrations through ikusa.server.db.migrate(engine)")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
