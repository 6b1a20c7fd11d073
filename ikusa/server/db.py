"""The store of ``ikusa serve``: SQLAlchemy 2 models, the engine factory and migrations.

A table is event-sourced: its ``setup`` (the encounter document, as JSON) plus its
``entries`` in order (``seq`` = 1, 2, …).  ``tables.version`` is the ``seq`` of the last
entry; a write is a compare-and-set on it (``UPDATE … WHERE version = :seen``), so two
writers that saw the same version cannot both append, in one process or many.

SQLite (the default, a file) gets ``journal_mode=WAL`` and ``foreign_keys=ON`` on every
connection; PostgreSQL is ``postgresql+psycopg://…``.  :func:`migrate` runs the Alembic
migrations in ``ikusa/server/migrations`` (a fresh database is created from nothing).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    create_engine,
    event,
    func,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from ikusa.engine.errors import InputError

#: SQLite connections kept open per process (one per worker thread)
SQLITE_POOL = 40


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    """One table: its setup and the version (= seq of its last entry)."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    system: Mapped[str] = mapped_column(String(32))
    title: Mapped[str] = mapped_column(String(200), default="")
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(Integer, default=0)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class EntryRow(Base):
    """One entry of a table's log: a decision, dice typed, a ruling, a chat line …"""

    __tablename__ = "entries"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_entries_table_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    author: Mapped[str] = mapped_column(String(120))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class TokenRow(Base):
    """A capability link of a table, stored as the SHA-256 of the token."""

    __tablename__ = "tokens"
    __table_args__ = (Index("ix_tokens_table", "table_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    role: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(120), default="")
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    revoked: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


def normalise_url(db: str) -> str:
    """A ``--db`` value as an SQLAlchemy URL: a bare path is a SQLite file."""
    if "://" not in db:
        return f"sqlite:///{Path(db)}"
    if db.startswith("postgresql://") or db.startswith("postgres://"):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    return db


def is_postgres(url: str) -> bool:
    return make_url(url).get_backend_name() == "postgresql"


def make_engine(db: str) -> Engine:
    """An engine for ``db`` (path or URL), with the SQLite pragmas set on connect."""
    url = normalise_url(db)
    try:
        parsed = make_url(url)
    except Exception as exc:  # sqlalchemy.exc.ArgumentError
        raise InputError(f"not a database URL: {exc}", field="--db") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        # as many kept connections as worker threads (anyio's 40): a connection made per request
        # (and its pragmas) cost more than the query it serves
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                               pool_size=SQLITE_POOL, max_overflow=SQLITE_POOL)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        return engine
    if backend == "postgresql":
        # pinged at each checkout (a database restarted meanwhile costs no failed request); the API's
        # decisions write on the event loop's own connections instead (ikusa.server.pg_async)
        return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)
    raise InputError(f"unsupported database {backend!r}: use a SQLite file or postgresql+psycopg://…",
                     field="--db")


def migrate(engine: Engine) -> None:
    """Bring the database to the newest schema (Alembic ``upgrade head``).

    On PostgreSQL an advisory lock keeps two processes starting at once from racing."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(742901)")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
