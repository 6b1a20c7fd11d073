"""Alembic migrations of the ``ikusa serve`` store (run by :func:`ikusa.server.db.migrate`)."""
