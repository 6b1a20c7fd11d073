"""BCDice-API v2 under ``/v2`` (issue #10 §2): bots and session tools that talk to a
BCDice-API server (discord-bcdicebot, fvtt-bcdice, Udonite …) can use ``ikusa serve``.

It follows bcdice/bcdice-api 3.0.0's ``controller/v2.rb`` and ``docs/api_v2.md``:

| request | answer |
|---|---|
| ``GET /v2/version`` | ``{"api": ikusa's version, "bcdice": "3.16.1"}`` (the BCDice whose answers ikusa gives) |
| ``GET /v2/admin`` | ``{"name", "url", "email"}`` from the settings (``IKUSA_ADMIN_*``) |
| ``GET /v2/game_system`` | ``{"game_system": [{"id", "name", "sort_key"}…]}`` sorted by ``sort_key`` |
| ``GET /v2/game_system/{id}`` | ``{"ok": true, "id", "name", "sort_key", "command_pattern", "help_message"}`` |
| ``GET``/``POST /v2/game_system/{id}/roll`` | ``{"ok": true, "text", "secret", "success", "failure", |
| | ``"critical", "fumble", "rands": [{"kind": "normal", "sides", "value"}…]}`` |
| ``POST /v2/original_table`` | ``{"ok": true, "text", "rands"}`` |

Errors as bcdice-api: an unknown id (case-sensitive, checked first) is 400
``{"ok": false, "reason": "unsupported game system"}``; a missing, empty or unreadable
``command`` is 400 ``{"ok": false, "reason": "unsupported command"}`` (so is a command over
ikusa's limits, where BCDice-API would fail with a 500); an invalid original table is 500
``{"ok": false}``; every other path under ``/v2`` (``GET /v2/original_table`` too) is 404
``{"ok": false, "reason": "not found"}``.  ``command`` and ``table`` come from the query string
or a form body (the body wins, as Sinatra's ``params``).

Every answer under ``/v2`` has ``Access-Control-Allow-Origin: *`` and ``Content-Type:
application/json``, with compact UTF-8 JSON in bcdice-api's key order.  Nothing here touches
other paths: the 404s come from a catch-all route of ``/v2``, not from an exception handler.

Test dice: only when the server runs with ``settings.test_dice`` (``ikusa serve
--test-dice``) a request header ``X-Test-Rands: [[value, sides], …]`` fixes the dice of a
roll or table, in order (as bcdice-api's ``RandomizerMock``: a die of other sides or too few
dice is a 500 naming the problem); without the flag the header is ignored.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, FastAPI, Request, Response

from ikusa.dice.source import DiceSource, RandomSource
from ikusa.server.bcdice_systems import BCDICE_VERSION, SYSTEMS, sorted_systems
from ikusa.server.settings import ServerSettings

#: the request header of fixed dice (with ``--test-dice`` only)
TEST_RANDS_HEADER = "X-Test-Rands"
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
_GET = ["GET", "HEAD"]
_ALL = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def dumps(obj: object) -> bytes:
    """Compact UTF-8 JSON (non-ASCII unescaped), keys in the order given."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def answer(obj: object, status: int = 200) -> Response:
    return Response(dumps(obj), status_code=status, media_type="application/json",
                    headers={"Access-Control-Allow-Origin": "*"})


class _Fail(Exception):
    """An error answer of the API (status and body)."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(body)
        self.status = status
        self.body = body


UNSUPPORTED_SYSTEM = _Fail(400, {"ok": False, "reason": "unsupported game system"})
UNSUPPORTED_COMMAND = _Fail(400, {"ok": False, "reason": "unsupported command"})
NOT_FOUND = {"ok": False, "reason": "not found"}


class TestRands:
    """Fixed dice from ``X-Test-Rands``: each die must have the sides the command asks for."""

    def __init__(self, rands: list[tuple[int, int]]) -> None:
        self.rands = rands
        self.pos = 0

    @classmethod
    def parse(cls, header: str) -> TestRands:
        try:
            raw = json.loads(header)
        except ValueError:
            raise _Fail(400, {"ok": False, "reason": f"{TEST_RANDS_HEADER} is not JSON"}) from None
        ok = isinstance(raw, list) and all(
            isinstance(r, list) and len(r) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in r)
            for r in raw)
        if not ok:
            raise _Fail(400, {"ok": False, "reason": f"{TEST_RANDS_HEADER} must be [[value, sides], …]"})
        return cls([(v, s) for v, s in raw])

    def roll(self, sides: int, count: int = 1, purpose: str = "", roller: str = "") -> list[int]:
        out = []
        for _ in range(count):
            if self.pos >= len(self.rands):
                raise _Fail(500, {"ok": False, "reason": f"{TEST_RANDS_HEADER}: ran out of dice "
                                                         f"(a d{sides} after {self.pos})"})
            value, expected = self.rands[self.pos]
            if sides != expected:
                raise _Fail(500, {"ok": False, "reason": f"{TEST_RANDS_HEADER}: die #{self.pos + 1} is a "
                                                         f"d{expected}, the command rolls a d{sides}"})
            self.pos += 1
            out.append(value)
        return out


Handler = Callable[[Request], Awaitable[Response]]


def _guarded(handler: Handler) -> Handler:
    """Every failure of a /v2 handler becomes a JSON answer with the CORS header: an API
    error its own status and body, anything else bcdice-api's 500 ``{"ok": false}``."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except _Fail as fail:
            return answer(fail.body, fail.status)
        except Exception:
            return answer({"ok": False}, 500)

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


async def _params(request: Request) -> dict[str, str]:
    """Query string, then a form body over it (Sinatra's ``params``)."""
    params = dict(request.query_params)
    if request.headers.get("content-type", "").lower().startswith(_FORM_TYPES):
        form = await request.form()
        params.update({k: v for k, v in form.multi_items() if isinstance(v, str)})
    return params


def _rands(dice: list[tuple[int, int]]) -> list[dict[str, Any]]:
    return [{"kind": "normal", "sides": s, "value": v} for v, s in dice]


def install(app: FastAPI, settings: ServerSettings) -> None:
    """Add the ``/v2`` routes to ``app``."""
    from ikusa import __version__
    from ikusa.api import roll
    from ikusa.dice.bcdice.original_table import roll_table
    from ikusa.engine.errors import IkusaError

    router = APIRouter(prefix="/v2", include_in_schema=False)
    random = RandomSource()

    def dice_for(request: Request) -> DiceSource:
        header = request.headers.get(TEST_RANDS_HEADER)
        if settings.test_dice and header is not None:
            return TestRands.parse(header)
        return random

    async def version(request: Request) -> Response:
        return answer({"api": __version__, "bcdice": BCDICE_VERSION})

    async def admin(request: Request) -> Response:
        return answer({"name": settings.admin_name, "url": settings.admin_url, "email": settings.admin_email})

    async def game_systems(request: Request) -> Response:
        return answer({"game_system": [{"id": s.id, "name": s.name, "sort_key": s.sort_key}
                                       for s in sorted_systems()]})

    async def game_system(request: Request) -> Response:
        system = SYSTEMS.get(request.path_params["id"])
        if system is None:
            raise UNSUPPORTED_SYSTEM
        return answer({"ok": True, "id": system.id, "name": system.name, "sort_key": system.sort_key,
                       "command_pattern": system.command_pattern, "help_message": system.help_message})

    async def roll_command(request: Request) -> Response:
        system = SYSTEMS.get(request.path_params["id"])
        if system is None:
            raise UNSUPPORTED_SYSTEM
        command = (await _params(request)).get("command")
        if not command:
            raise UNSUPPORTED_COMMAND
        try:
            result = roll(command, system.ikusa_system, dice=dice_for(request))
        except IkusaError:
            raise UNSUPPORTED_COMMAND from None
        if result is None:
            raise UNSUPPORTED_COMMAND
        return answer({"ok": True, "text": result.text, "secret": result.secret, "success": result.success,
                       "failure": result.failure, "critical": result.critical, "fumble": result.fumble,
                       "rands": _rands(result.dice)})

    async def original_table(request: Request) -> Response:
        table = (await _params(request)).get("table")
        result = roll_table(table, dice_for(request)) if table is not None else None
        if result is None:
            return answer({"ok": False}, 500)
        return answer({"ok": True, "text": result.text, "rands": _rands(result.dice)})

    async def not_found(request: Request) -> Response:
        return answer(NOT_FOUND, 404)

    for path, methods, handler in (
        ("/version", _GET, version),
        ("/admin", _GET, admin),
        ("/game_system", _GET, game_systems),
        ("/game_system/{id}", _GET, game_system),
        ("/game_system/{id}/roll", ["GET", "HEAD", "POST"], roll_command),
        ("/original_table", ["POST"], original_table),
        ("", _ALL, not_found),
        ("/{rest:path}", _ALL, not_found),
    ):
        router.add_api_route(path, _guarded(handler), methods=methods)
    app.include_router(router)
