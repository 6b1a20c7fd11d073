"""The JSON API under ``/api`` (documented at ``/docs``): everything the pages do.

Errors are ``{"error": "…"}``: 403 for a missing, forged, revoked or other table's link or
a role that may not do this, 404 for an unknown table, 409 (with ``view``, the fresh view)
for a stale ``version``, 413 above the upload limit, 422 for malformed input or an illegal
action (the rule named).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from ikusa.server.auth import bearer, cookie_name, principal_from_request
from ikusa.server.cache import trim_log
from ikusa.server.projection import Principal
from ikusa.server.service import Created, TableService
from ikusa.server.sse import EventStream, dumps, render_json, view_events


async def service_of(request: Request) -> TableService:
    """Dependency: the app's table service (``async``: no worker thread is asked for it)."""
    svc: TableService = request.app.state.service
    return svc


def table_principal(table_id: str, request: Request) -> Principal:
    """Dependency: the caller of a ``/api/tables/{table_id}…`` route (cookie or Bearer)."""
    return principal_from_request(request, table_id)


Caller = Annotated[Principal, Depends(table_principal)]
Service = Annotated[TableService, Depends(service_of)]


class NewTable(BaseModel):
    model_config = ConfigDict(extra="forbid")

    encounter: str = Field(description="The encounter file's text (YAML, TOML or JSON)")
    format: str = Field(default="yaml", description="yaml, toml or json")
    seed: int | None = Field(default=None, ge=0, lt=2**31, description="Seed of the server's dice (default random)")


class Action(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = Field(description="The table version the caller saw")
    action: str | None = Field(default=None, max_length=500, description="An option key of the pending decision")
    dice: list[int] | None = Field(default=None, max_length=100, description="The faces for the pending dice request")
    roll: bool = Field(default=False, description="Let the server roll the pending dice request")
    ruling: dict[str, Any] | None = Field(default=None, description="A GM ruling ({op: …})")
    log_since: int | None = Field(default=None, description="Return only the log lines after this version")


class Versioned(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int


class Chat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(max_length=2000, description="A BCDice command (S prefix: secret) or a line of chat")
    version: int | None = None
    name: str = Field(default="", max_length=60, description="Who speaks (a unit's name), shown in the chat")


class Link(BaseModel):
    model_config = ConfigDict(extra="forbid")

    role: str = Field(description="gm, player or spectator")
    name: str = Field(default="", description="The player's name (role player)")


class JSON(Response):
    """A JSON response encoded once by :func:`ikusa.server.sse.dumps` (``<``, ``>``, ``&`` escaped)."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return dumps(content).encode("utf-8")


router = APIRouter(prefix="/api", tags=["tables"], default_response_class=JSON)


def join_url(request: Request, token: str) -> str:
    return f"{str(request.base_url).rstrip('/')}/join/{token}"


def created_body(request: Request, created: Created) -> dict[str, Any]:
    t = created.tokens
    return {
        "id": created.id,
        "version": created.version,
        "gm_url": join_url(request, t["gm"]),
        "player_urls": {name: join_url(request, tok) for name, tok in t["players"].items()},
        "spectator_url": join_url(request, t["spectator"]),
        "tokens": t,
    }


@router.post("/tables", status_code=201, summary="Open a table from an encounter file")
def create_table(body: NewTable, request: Request, service: Service) -> dict[str, Any]:
    return created_body(request, service.create_table(body.encounter, body.format, body.seed))


@router.post("/tables/import", status_code=201, summary="Continue an exported ikusa-log as a new table")
def import_log(log: dict[str, Any], request: Request, service: Service) -> dict[str, Any]:
    return created_body(request, service.create_from_log(log))


@router.get("/tables/{table_id}", summary="The table as the caller's role sees it")
def get_table(principal: Caller, service: Service, log_since: int | None = None) -> Response:
    return JSON(trim_log(service.view(principal), log_since))


@router.post("/tables/{table_id}/actions", summary="Answer the pending decision or roll, or make a ruling")
async def post_action(table_id: str, body: Action, request: Request, service: Service) -> Response:
    def work() -> Response:  # the link's check, the write and its view: one worker thread, not one each
        principal = principal_from_request(request, table_id)
        return JSON(trim_log(service.act(principal, body.version, action=body.action, dice=body.dice,
                                         roll=body.roll, ruling=body.ruling), body.log_since))

    if not service.quick_writes(table_id):
        response: Response = await run_in_threadpool(work)
        return response
    if service.pg_writer is None:  # SQLite: a few ms of work; a thread hop and its GIL hand-offs cost more
        return work()
    # PostgreSQL: on the loop too, the write awaited on the loop's own connection
    token = bearer(request) or request.cookies.get(cookie_name(table_id)) or ""
    principal = service.kept_principal(token, table_id)
    if principal is None:  # not looked up lately: the database is asked in a thread
        principal = await run_in_threadpool(principal_from_request, request, table_id)
    view = await service.act_async(principal, body.version, action=body.action, dice=body.dice, roll=body.roll,
                                   ruling=body.ruling)
    return JSON(trim_log(view, body.log_since))


@router.post("/tables/{table_id}/undo", summary="GM: take back the last decision, ruling or begun roll")
def post_undo(body: Versioned, principal: Caller, service: Service) -> Response:
    return JSON(service.undo(principal, body.version))


@router.post("/tables/{table_id}/redo", summary="GM: bring back the last undone entry")
def post_redo(body: Versioned, principal: Caller, service: Service) -> Response:
    return JSON(service.redo(principal, body.version))


class Reroll(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int
    reason: str = Field(default="", max_length=500)


@router.post("/tables/{table_id}/reroll", summary="GM: the last decision again with new dice (old dice logged)")
def post_reroll(body: Reroll, principal: Caller, service: Service) -> Response:
    return JSON(service.reroll(principal, body.version, body.reason))


@router.post("/tables/{table_id}/chat", summary="Say something or roll any BCDice command")
def post_chat(body: Chat, principal: Caller, service: Service) -> Response:
    return JSON(service.chat(principal, body.text, body.version, body.name))


@router.post("/tables/{table_id}/chat/{seq}/reveal", summary="Show a secret roll to everyone")
def post_reveal(seq: int, principal: Caller, service: Service) -> Response:
    return JSON(service.reveal(principal, seq))


@router.get("/tables/{table_id}/log", summary="GM: the ikusa-log JSON (ikusa play --load resumes it)")
def get_log(principal: Caller, service: Service) -> Response:
    return JSON(service.export_log(principal))


@router.get("/tables/{table_id}/links", summary="GM: the table's links and whether each is active")
def get_links(principal: Caller, service: Service) -> list[dict[str, Any]]:
    return service.links(principal)


@router.post("/tables/{table_id}/links/rotate", summary="GM: revoke a link and issue a new one")
def rotate_link(body: Link, request: Request, principal: Caller, service: Service) -> dict[str, Any]:
    token = service.rotate(principal, body.role, body.name)
    return {"role": body.role, "name": body.name, "token": token, "url": join_url(request, token)}


@router.post("/tables/{table_id}/links/revoke", summary="GM: revoke a link")
def revoke_link(body: Link, principal: Caller, service: Service) -> dict[str, Any]:
    service.revoke(principal, body.role, body.name)
    return {"role": body.role, "name": body.name, "active": False}


@router.get("/tables/{table_id}/events", response_class=EventStream,
            summary="SSE: a `view` event (the role's JSON view) now and on every change")
async def table_events(request: Request, principal: Caller) -> EventStream:
    return EventStream(view_events(request, principal, render_json))


@router.get("/examples", summary="The shipped example encounters")
def list_examples() -> list[str]:
    from ikusa.server.examples import example_names

    return example_names()
