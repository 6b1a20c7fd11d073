"""SSE stream mechanics: one stream per page, each event rendered for the page's role.

A stream sends the current view first, then a new one whenever the hub publishes a newer
version of the table (coalesced: a slow client skips to the newest).  What goes on the
wire is the page's business: ``render(view, principal)`` returns the
:class:`~fastapi.sse.ServerSentEvent` list for one view (``raw_data=`` for HTML
fragments, ``data=`` for JSON).  Use it from a route declared with
``response_class=EventSourceResponse``::

    @app.get("/tables/{table_id}/stream", response_class=EventSourceResponse)
    async def stream(request: Request, principal: Principal = Depends(table_principal)):
        async for ev in view_events(request, principal, my_render):
            yield ev

The view always comes from :func:`ikusa.server.projection.project`, so a renderer cannot
leak what the role may not see unless it reads the state itself (it must not).

Cost per new version: the clients of one role and name share one projected view (the
first asks a worker thread, the others wait for its answer or find it kept) and, for
:func:`render_json`, one JSON text per ``log_since``; a page's renderer shares its HTML
through :meth:`TableService.memo`.  A stream whose link is revoked or rotated ends at once
(:meth:`Hub.close`): nothing more is sent on it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import Request
from fastapi.sse import ServerSentEvent
from starlette.concurrency import run_in_threadpool

from ikusa.server.cache import CachedView, dumps, key_of
from ikusa.server.hub import Hub
from ikusa.server.projection import Principal
from ikusa.server.service import TableService

Render = Callable[[dict[str, Any], Principal], list[ServerSentEvent]]

#: how often a stream checks whether its client has gone (seconds)
POLL = 10.0

__all__ = ["POLL", "Render", "dumps", "render_json", "view_events"]

#: views being made in a worker thread, by (loop, service, role key, version): the other
#: clients of that role wait for the same answer instead of asking a thread each
_making: dict[tuple[int, int, tuple[str, str, str], int], asyncio.Future[CachedView]] = {}


def render_json(view: dict[str, Any], principal: Principal) -> list[ServerSentEvent]:
    """The JSON API's renderer: one ``view`` event with the whole view."""
    return [ServerSentEvent(raw_data=dumps(view),
                            event="view", id=str(view["version"]))]


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


async def view_events(request: Request, principal: Principal, render: Render) -> AsyncIterator[ServerSentEvent]:
    """The events of one stream: the view now, then on every newer version.  The JSON
    API's ``view`` events after the first carry only the log lines since the previous one
    (``log_since``: the version it follows).  Ends when the client goes or its link is revoked."""
    service: TableService = request.app.state.service
    hub: Hub = request.app.state.hub

    def events(cached: CachedView, log_since: int | None) -> list[ServerSentEvent]:
        if render is render_json:
            text = service.views.json(cached, log_since)
            return [ServerSentEvent(raw_data=text, event="view", id=str(cached.version))]
        return render(cached.view, principal)

    def first() -> CachedView | None:
        # subscribed, then checked: a revocation before the subscription is seen here (the
        # stream ends before it sends anything), one after it closes the subscription
        if principal.token_hash and not service.link_active(principal):
            return None
        return service.cached_view(principal)

    async with hub.subscribe(principal.table_id, principal.token_hash) as sub:
        opened = await run_in_threadpool(first)
        if opened is None or sub.closed:
            return
        seen = opened.version
        for ev in events(opened, None):
            yield ev
        while True:
            version = await sub.next(seen, timeout=POLL)
            if sub.closed:  # the link was revoked or rotated: nothing more on this stream
                return
            if version is None:
                if await request.is_disconnected():
                    return
                continue
            cached = await _view_at(service, principal, version)
            if sub.closed:
                return
            if cached.version <= seen:
                continue
            out = events(cached, seen)
            seen = cached.version
            for ev in out:
                yield ev
