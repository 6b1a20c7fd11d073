"""The FastAPI application of ``ikusa serve``.

One app serves the web table (its pages and JSON API, ``/api``) and the BCDice-API v2
(``/v2``).  ``create_app(settings)`` builds it: it opens the database (migrating a fresh
one), starts the hub (and, on PostgreSQL, the LISTEN loop and the writer's connections on the
server's own loop: :mod:`ikusa.server.pg_async`), and installs the routes.
Routes are thin: they parse, check the role, call the service (``app.state.service``,
see :mod:`ikusa.server.service`), which appends an entry and publishes.

Request bodies are limited to :data:`MAX_BODY_BYTES` (1 MiB, 413 above it); an encounter
text to :data:`ikusa.server.setup.MAX_UPLOAD_BYTES` (256 KiB).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy import text
from starlette.types import ASGIApp, Receive, Scope, Send

from ikusa.engine.errors import IkusaError
from ikusa.server.errors import ServiceError
from ikusa.server.settings import ServerSettings

MAX_BODY_BYTES = 1024 * 1024


class BodyLimit:
    """413 for a request whose ``Content-Length`` is above :data:`MAX_BODY_BYTES` (or not a number).

    A plain ASGI middleware: unlike ``@app.middleware("http")`` it adds nothing to a response
    in flight (an SSE stream's events pass straight through)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            length = next((v for k, v in scope["headers"] if k == b"content-length"), None)
            if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
                response = JSONResponse({"error": f"the request is larger than the limit of "
                                                  f"{MAX_BODY_BYTES // 1024} KiB"}, status_code=413)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(settings: ServerSettings | None = None) -> FastAPI:
    """Build the app for ``settings`` (defaults: SQLite ``./ikusa.db``, no test dice)."""
    from ikusa import __version__
    from ikusa.server import api, auth, bcdice_api
    from ikusa.server.db import is_postgres, make_engine, migrate, normalise_url
    from ikusa.server.hub import Hub, libpq_dsn
    from ikusa.server.pg_async import PgWriter, listen
    from ikusa.server.service import TableService

    settings = settings or ServerSettings()
    engine = make_engine(settings.db_url)
    migrate(engine)
    hub = Hub()
    service = TableService(engine, hub)
    url = normalise_url(settings.db_url)
    dsn = libpq_dsn(url) if is_postgres(url) else None

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # PostgreSQL: LISTEN and the writes on this loop (ikusa.server.pg_async)
        listening: asyncio.Task[None] | None = None
        writer = PgWriter(dsn) if dsn is not None else None
        if dsn is not None:
            ready = asyncio.Event()
            listening = asyncio.create_task(listen(dsn, hub, ready.set))
            with suppress(TimeoutError):
                await asyncio.wait_for(ready.wait(), 10)
            service.pg_writer = writer
        try:
            yield
        finally:
            service.pg_writer = None
            if listening is not None:
                listening.cancel()
                with suppress(asyncio.CancelledError):
                    await listening
            if writer is not None:
                await writer.close()
            engine.dispose()

    app = FastAPI(title="ikusa", version=__version__, lifespan=lifespan,
                  description="ikusa (戦): the GM's combat table, its JSON API and a BCDice-API v2 server.")
    app.state.settings = settings
    app.state.engine = engine
    app.state.hub = hub
    app.state.service = service

    @app.exception_handler(ServiceError)
    async def _service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(IkusaError)
    async def _ikusa_error(_request: Request, exc: IkusaError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=422)

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors: list[Any] = list(exc.errors())
        parts = [f"{'.'.join(str(p) for p in e.get('loc', ()) if p != 'body') or 'body'}: {e.get('msg', 'invalid')}"
                 for e in errors]
        return JSONResponse({"error": "; ".join(parts) or "invalid request"}, status_code=422)

    app.add_middleware(BodyLimit)

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> Response:
        try:
            with engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        except Exception as exc:
            return JSONResponse({"status": "database unreachable", "error": type(exc).__name__}, status_code=503)
        return JSONResponse({"status": "ok"})

    auth.install(app)
    app.include_router(api.router)
    bcdice_api.install(app, settings)
    from ikusa.server.pages import install_pages

    install_pages(app, service)
    return app
