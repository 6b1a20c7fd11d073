"""SSE stream mechanics: one stream per page, each event rendered for the page's role.

A stream sends the current view first, then a new one whenever the hub publishes a newer
version of the table (coalesced: a slow client skips to the newest), and a keep-alive
comment (``: ping``) after :data:`PING` seconds without an event.  What goes on the wire
is the page's business: ``render(view, principal)`` returns the
:class:`~fastapi.sse.ServerSentEvent` list for one view (``raw_data=`` for HTML fragments;
encoded by FastAPI's own :func:`~fastapi.sse.format_sse_event`).  A route returns an
:class:`EventStream`::

    @app.get("/tables/{table_id}/stream", response_class=EventStream)
    async def stream(request: Request, principal: Principal = Depends(table_principal)) -> EventStream:
        return EventStream(view_events(request, principal, my_render))

:class:`EventStream` is a plain ASGI response: each event goes straight to the server's
``send`` (issue #9 allows another way than ``fastapi.sse`` when measured better: FastAPI's
SSE path runs two tasks, two memory streams and a timeout per event for every stream,
which cost more server CPU per decision than the engine; ``bench/bench_serve.py``).  An
idle stream checks whether its client has gone (and ends) every :data:`PING` seconds.

The view always comes from :func:`ikusa.server.projection.project`, so a renderer cannot
leak what the role may not see unless it reads the state itself (it must not).

Cost per new version: the clients of one role and name share one projected view (made by
the writer, which knows the audiences open in its process, :meth:`Hub.audiences`; else by
the first client, in a worker thread, while the others wait for it) and, for :func:`render_json`, one encoded event
per ``log_since``; a page's renderer shares its HTML through :meth:`TableService.memo`.
A stream whose link is revoked or rotated ends at once (:meth:`Hub.close`): nothing more
is sent on it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import Request
from fastapi.sse import KEEPALIVE_COMMENT, ServerSentEvent, format_sse_event
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from ikusa.server.cache import CachedView, dumps, key_of
from ikusa.server.hub import Hub
from ikusa.server.projection import Principal
from ikusa.server.service import TableService

Render = Callable[[dict[str, Any], Principal], list[ServerSentEvent]]

#: seconds without an event after which a stream checks its client and sends a keep-alive comment
PING = 15.0

__all__ = ["PING", "EventStream", "Render", "dumps", "encode", "render_json", "view_events"]

#: views being made in a worker thread, by (loop, service, role key, version): the other
#: clients of that role wait for the same answer instead of asking a thread each
_making: dict[tuple[int, int, tuple[str, str, str], int], asyncio.Future[CachedView]] = {}


def encode(ev: ServerSentEvent) -> bytes:
    """One event in the SSE wire format (FastAPI's encoder: ``raw_data`` as is, ``data`` as JSON)."""
    data = ev.raw_data if ev.raw_data is not None else (None if ev.data is None else dumps(ev.data))
    return format_sse_event(data_str=data, event=ev.event, id=ev.id, retry=ev.retry, comment=ev.comment)


def render_json(view: dict[str, Any], principal: Principal) -> list[ServerSentEvent]:
    """The JSON API's renderer: one ``view`` event with the whole view."""
    return [ServerSentEvent(raw_data=dumps(view), event="view", id=str(view["version"]))]


class EventStream(Response):
    """``text/event-stream`` from an async iterator of encoded events, each sent as it comes."""

    media_type = "text/event-stream"

    def __init__(self, events: AsyncIterator[bytes], status_code: int = 200) -> None:
        super().__init__(status_code=status_code, headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        self.raw_headers = [(k, v) for k, v in self.raw_headers if k != b"content-length"]  # open-ended
        self.events = events

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers})
        try:
            async for chunk in self.events:
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
        finally:
            aclose = getattr(self.events, "aclose", None)
            if aclose is not None:
                await aclose()
        await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _view_at(service: TableService, principal: Principal, at_least: int) -> CachedView:
    """The view at version ``at_least`` or newer: kept, being made, or made now (in a thread)."""
    hit = service.views.peek(principal, at_least)
    if hit is not None:
        return hit
    loop = asyncio.get_running_loop()
    key = (id(loop), id(service), key_of(principal), at_least)
    making = _making.get(key)
    if making is not None:
        return await asyncio.shield(making)
    fut: asyncio.Future[CachedView] = loop.create_future()
    _making[key] = fut
    try:
        cached = await run_in_threadpool(service.cached_view, principal, at_least)
    except BaseException as exc:
        fut.set_exception(exc)
        fut.exception()  # retrieved: no "never retrieved" warning when nobody else waited
        raise
    finally:
        _making.pop(key, None)
    fut.set_result(cached)
    return cached


async def view_events(request: Request, principal: Principal, render: Render) -> AsyncIterator[bytes]:
    """The encoded events of one stream: the view now, then on every newer version.  The JSON
    API's ``view`` events after the first carry only the log lines since the previous one
    (``log_since``: the version it follows).  Ends when the client goes or its link is revoked."""
    service: TableService = request.app.state.service
    hub: Hub = request.app.state.hub

    def events(cached: CachedView, log_since: int | None) -> list[bytes]:
        if render is render_json:  # the same bytes for every client of this role at this version
            wire: bytes = service.views.derive(cached, ("sse", log_since), lambda: format_sse_event(
                data_str=service.views.json(cached, log_since), event="view", id=str(cached.version)))
            return [wire]
        return [encode(ev) for ev in render(cached.view, principal)]

    def first() -> CachedView | None:
        # subscribed, then checked: a revocation before the subscription is seen here (the
        # stream ends before it sends anything), one after it closes the subscription
        if principal.token_hash and not service.link_active(principal):
            return None
        return service.cached_view(principal)

    async with hub.subscribe(principal.table_id, principal.token_hash, (principal.role, principal.name)) as sub:
        opened = await run_in_threadpool(first)
        if opened is None or sub.closed:
            return
        seen = opened.version
        for chunk in events(opened, None):
            yield chunk
        while True:
            version = await sub.next(seen, timeout=PING)
            if sub.closed:  # the link was revoked or rotated
                return
            if version is None:  # idle: has the client gone?  Else keep its connection alive
                if await request.is_disconnected():
                    return
                yield KEEPALIVE_COMMENT
                continue
            cached = await _view_at(service, principal, version)
            if sub.closed:
                return
            if cached.version <= seen:
                continue
            out = events(cached, seen)
            seen = cached.version
            for chunk in out:
                yield chunk
