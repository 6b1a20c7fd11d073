"""Links instead of accounts: capability tokens, the cookie exchange and the cross-site check.

``GET /join/{token}`` looks the token up (stored hashed), sets the HttpOnly, SameSite=Lax
cookie ``ikusa_<table_id>`` to it and redirects (303) to the clean ``/tables/{table_id}``,
so the token leaves the address bar and history.  Every response carries
``Referrer-Policy: no-referrer``.  A request authenticates with that cookie or with
``Authorization: Bearer <token>`` (bots, VTTs).

Unsafe methods (POST, PUT, PATCH, DELETE) whose ``Origin`` shows another site are refused
with 403 before any handler runs; so is ``Sec-Fetch-Site`` other than ``same-origin`` when
there is no usable Origin (``Origin: null``, which browsers send for form POSTs under
``no-referrer``, passes only with ``Sec-Fetch-Site: same-origin``).  SameSite=Lax already
keeps the cookie off cross-site POSTs; this is the second lock.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse, RedirectResponse
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ikusa.server.errors import Forbidden
from ikusa.server.projection import Principal
from ikusa.server.service import TableService

COOKIE_PREFIX = "ikusa_"
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def cookie_name(table_id: str) -> str:
    return COOKIE_PREFIX + table_id


def bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def principal_from_request(request: Request, table_id: str) -> Principal:
    """The principal of a request for ``table_id`` (Bearer first, then the table's cookie)."""
    service: TableService = request.app.state.service
    token = bearer(request) or request.cookies.get(cookie_name(table_id))
    if not token:
        raise Forbidden("no link for this table: open your link (or send Authorization: Bearer)")
    return service.principal(token, table_id)


def same_origin(request: Request) -> bool:
    """Whether an unsafe request comes from this site (no Origin header: not from a browser
    page of another site, unless ``Sec-Fetch-Site`` says cross-site)."""
    origin = request.headers.get("origin")
    fetch_site = request.headers.get("sec-fetch-site")
    if origin is None:
        return fetch_site in (None, "same-origin", "none")
    if origin == "null":  # a browser form POST under Referrer-Policy: no-referrer: trust Sec-Fetch-Site only
        return fetch_site == "same-origin"
    host = request.headers.get("host", "")
    parts = urlsplit(origin)
    return parts.netloc.lower() == host.lower()


class _Guard:
    """The cross-site check and the headers of every response, as a plain ASGI middleware
    (``@app.middleware("http")`` would pass every event of an SSE stream through a queue)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["Referrer-Policy"] = "no-referrer"
                headers.setdefault("X-Content-Type-Options", "nosniff")
            await send(message)

        if scope["method"] in UNSAFE and not same_origin(Request(scope)):
            refused = JSONResponse({"error": "cross-site request refused (Origin is another site)"}, status_code=403)
            await refused(scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)


def install(app: FastAPI) -> None:
    """The join route, the Referrer-Policy header and the cross-site check."""

    app.add_middleware(_Guard)

    @app.get("/join/{token}", include_in_schema=False)
    def join(token: str, request: Request) -> Response:
        """Exchange a link's token for the table's cookie and go to the clean table URL."""
        service: TableService = request.app.state.service
        principal = service.principal(token)
        response = RedirectResponse(f"/tables/{principal.table_id}", status_code=303)
        response.set_cookie(cookie_name(principal.table_id), token, httponly=True, samesite="lax",
                            secure=request.url.scheme == "https", max_age=60 * 60 * 24 * 60, path="/")
        response.headers["Cache-Control"] = "no-store"
        return response
