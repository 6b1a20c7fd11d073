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
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import Request
from fastapi.sse import ServerSentEvent
from starlette.concurrency import run_in_threadpool

from ikusa.server.hub import Hub
from ikusa.server.projection import Principal
from ikusa.server.service import TableService

Render = Callable[[dict[str, Any], Principal], list[ServerSentEvent]]

#: how often a stream checks whether its client has gone (seconds)
POLL = 10.0


def dumps(data: Any) -> str:
    """Compact JSON with ``<``, ``>`` and ``&`` as ``\\u`` escapes: safe even inside an HTML page."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render_json(view: dict[str, Any], principal: Principal) -> list[ServerSentEvent]:
    """The JSON API's renderer: one ``view`` event with the whole view."""
    return [ServerSentEvent(raw_data=dumps(view),
                            event="view", id=str(view["version"]))]


async def view_events(request: Request, principal: Principal, render: Render) -> AsyncIterator[ServerSentEvent]:
    """The events of one stream: the view now, then on every newer version.  The JSON
    API's ``view`` events after the first carry only the log lines since the previous one
    (``log_since``: the version it follows).

    Views are cached per version and role, so many clients of one role cost one projection
    (and, for :func:`render_json`, one JSON encoding) per version."""
    service: TableService = request.app.state.service
    hub: Hub = request.app.state.hub

    def current(at_least: int | None) -> tuple[int, list[ServerSentEvent]]:
        if render is render_json:  # after the first, each view carries only the new log lines
            version, text = service.view_json(principal, at_least, log_since=at_least and seen)
            return version, [ServerSentEvent(raw_data=text, event="view", id=str(version))]
        view = service.view(principal, at_least)
        return int(view["version"]), render(view, principal)

    seen = 0
    async with hub.subscribe(principal.table_id) as sub:
        seen, events = await run_in_threadpool(current, None)
        for ev in events:
            yield ev
        while True:
            version = await sub.next(seen, timeout=POLL)
            if version is None:
                if await request.is_disconnected():
                    return
                continue
            got, events = await run_in_threadpool(current, version)
            if got <= seen:
                continue
            seen = got
            for ev in events:
                yield ev
