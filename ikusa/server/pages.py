"""The HTML pages of the web table (Jinja2 + htmx), mounted by :func:`install_pages`.

Routes (each checks the role through the table's cookie, as the JSON API does):

* ``GET /`` open a table: upload, paste or pick a shipped example → ``/setup`` (edit the
  units, who controls them, dice modes, ``hidden``) → the links page;
  ``POST /import`` continues an exported ``ikusa-log``.
* ``GET /tables/{id}`` the table for the caller's role; ``GET /tables/{id}/stream`` its SSE
  stream (every fragment of :mod:`ikusa.server.pages_render`, only the changed ones).
* writes (htmx forms; the answer is a line for ``#flash``, the page itself is updated by
  the stream): ``act`` (option, typed dice, 「振って」), ``chat``, ``reveal``, ``undo``,
  ``redo``, ``reroll``, ``ruling``, ``links``, ``palette``.
* ``GET /tables/{id}/export.html`` (a self-contained coloured log) and ``export.json``
  (the ``ikusa-log`` that ``ikusa play --load`` resumes), GM only.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.sse import ServerSentEvent
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from ikusa.server import pages_setup
from ikusa.server.auth import principal_from_request
from ikusa.server.errors import Conflict, ServiceError, Unprocessable
from ikusa.server.pages_export import export_html
from ikusa.server.pages_palette import editor_html, fill_line, palette_html, speakable, text_of
from ikusa.server.pages_render import STATIC, fragments, page_context, render
from ikusa.server.pages_rulings import FormError, field_of, ruling_from_form
from ikusa.server.palettes import PaletteStore
from ikusa.server.projection import Principal
from ikusa.server.service import TableService
from ikusa.server.sse import EventStream, view_events

#: how soon a browser reconnects a lost stream (ms; the SSE ``retry:`` field)
RETRY_MS = 1000


def _flash(message: str, status: int = 200, ok: bool = False) -> HTMLResponse:
    """A line for the page's ``#flash`` area (htmx swaps it in, errors included)."""
    cls = "ok" if ok else "err"
    body = render("fragments/flash.html", message=message, cls=cls) if message else ""
    resp = HTMLResponse(body, status_code=status)
    if message:
        resp.headers["HX-Trigger-After-Swap"] = json.dumps({"ikusa-flash": cls})
    return resp


def _error_page(request: Request, exc: ServiceError) -> HTMLResponse:
    html = render("error.html", status=exc.status, message=exc.error)
    return HTMLResponse(html, status_code=exc.status)


def _service_reply(exc: ServiceError) -> HTMLResponse:
    if isinstance(exc, Conflict):
        return _flash("卓が変わりました（他の操作が先でした）。最新の状態を表示しています。", 409)
    return _flash(exc.error, exc.status)


def _written(write: Callable[[], object], done: str) -> HTMLResponse:
    """The ``#flash`` line of a form's write: ``done`` once it is committed, else the refusal
    (a stale version, a role that may not, a malformed field)."""
    try:
        write()
    except ServiceError as exc:
        return _service_reply(exc)
    except _BadForm as exc:
        return _flash(str(exc), 422)
    return _flash(done, ok=True)


def _int(raw: str | None, name: str) -> int:
    try:
        return int(str(raw))
    except (TypeError, ValueError):
        raise _BadForm(f"{name}: a whole number is needed") from None


class _BadForm(Exception):
    pass


def parse_faces(raw: str, sides: int) -> list[int]:
    """Typed dice ``3 5`` / ``3,5`` / ``35`` (d6: one digit a die) into faces; ``0`` is a d10's 10."""
    text = raw.replace(",", " ").replace("、", " ").replace("，", " ").strip()
    parts = text.split()
    if len(parts) == 1 and sides < 10 and len(parts[0]) > 1 and parts[0].isdigit():
        parts = list(parts[0])
    faces: list[int] = []
    for p in parts:
        p = p.translate(str.maketrans("０１２３４５６７８９", "0123456789"))
        if not p.isdigit():
            raise _BadForm(f"dice: {p!r} is not a die face (type numbers like 3 5)")
        v = int(p)
        if v == 0 and sides == 10:
            v = 10
        faces.append(v)
    return faces


def install_pages(app: FastAPI, service: TableService | None = None) -> None:
    """Add the page routes and ``/static`` to ``app`` (the service is ``app.state.service``)."""
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    store = PaletteStore(service.engine if service is not None else app.state.engine)

    def svc(request: Request) -> TableService:
        s: TableService = service or request.app.state.service
        return s

    def who(request: Request, table_id: str) -> Principal:
        return principal_from_request(request, table_id)

    # -- opening a table ----------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def index() -> HTMLResponse:
        return HTMLResponse(render("index.html", examples=pages_setup.examples(), fmt="yaml"))

    @app.post("/setup", response_class=HTMLResponse, include_in_schema=False)
    async def setup_start(request: Request) -> HTMLResponse:
        form = await request.form()
        upload = form.get("upload")
        text = str(form.get("text") or "")
        fmt = str(form.get("format") or "yaml")
        if isinstance(upload, UploadFile) and upload.filename:
            data = await upload.read(pages_setup.MAX_UPLOAD_BYTES + 1)
            text = data.decode("utf-8-sig", errors="replace")
            fmt = pages_setup.format_of(upload.filename, fmt)
        return await run_in_threadpool(pages_setup.start_page, str(form.get("example") or ""), text, fmt)

    @app.post("/setup/edit", response_class=HTMLResponse, include_in_schema=False)
    async def setup_edit(request: Request) -> Response:
        form = {k: str(v) for k, v in (await request.form()).items() if isinstance(v, str)}
        return await run_in_threadpool(pages_setup.edit_page, form, svc(request), request)

    @app.post("/import", response_class=HTMLResponse, include_in_schema=False)
    async def import_log(request: Request, upload: UploadFile) -> Response:
        data = await upload.read(pages_setup.MAX_UPLOAD_BYTES + 1)
        return await run_in_threadpool(pages_setup.import_page, data, svc(request), request)

    # -- the table ------------------------------------------------------------------------
    @app.get("/tables/{table_id}", response_class=HTMLResponse, include_in_schema=False)
    def table_page(table_id: str, request: Request) -> HTMLResponse:
        try:
            p = who(request, table_id)
            s = svc(request)
            v = s.view(p)
            links = _links(s, p)
        except ServiceError as exc:
            return _error_page(request, exc)
        ctx = page_context(v)
        ctx["links"] = links
        texts = store.texts(table_id) if speakable(v) else {}
        ctx["frags"]["palette"] = palette_html(v, texts)
        ctx["palette_editor"] = editor_html(v, texts)
        resp = HTMLResponse(render("table.html", **ctx))
        resp.headers["Cache-Control"] = "no-store"
        return resp

    @app.get("/tables/{table_id}/stream", response_class=EventStream, include_in_schema=False)
    async def table_stream(table_id: str, request: Request) -> EventStream:
        p = who(request, table_id)
        sent: dict[str, str] = {}

        def render_changed(view: dict[str, Any], _p: Principal) -> list[ServerSentEvent]:
            out = []
            # rendered once per version for every client of this role and name (never shared wider)
            frags = dict(svc(request).memo(p, view, "fragments", lambda: fragments(view)))
            if speakable(view):  # the palette buttons show the unit's current numbers; ``turn`` stays last
                turn = frags.pop("turn")
                frags["palette"] = palette_html(view, store.texts(table_id))
                frags["turn"] = turn
            for name, html in frags.items():
                if sent.get(name) != html:
                    # the browser's own reconnection waits RETRY_MS after a lost stream (a restart)
                    retry = RETRY_MS if not sent else None
                    sent[name] = html
                    out.append(ServerSentEvent(raw_data=html.replace("\r", ""), event=name, id=str(view["version"]),
                                               retry=retry))
            return out

        return EventStream(view_events(request, p, render_changed))

    # -- writes ---------------------------------------------------------------------------
    @app.post("/tables/{table_id}/act", response_class=HTMLResponse, include_in_schema=False)
    def act(table_id: str, request: Request, version: str = Form(""), action: str = Form(""),
            dice: str = Form(""), roll: str = Form("")) -> HTMLResponse:
        try:
            p = who(request, table_id)
            s = svc(request)
            ver = _int(version, "version")
            if roll:
                s.act(p, ver, roll=True)
            elif action:
                s.act(p, ver, action=action)
            else:
                pending = s.view(p).get("pending") or {}
                sides = int(pending.get("sides") or 6)
                s.act(p, ver, dice=parse_faces(dice, sides))
        except ServiceError as exc:
            return _service_reply(exc)
        except _BadForm as exc:
            return _flash(str(exc), 422)
        return _flash("")

    @app.post("/tables/{table_id}/undo", response_class=HTMLResponse, include_in_schema=False)
    def undo(table_id: str, request: Request, version: str = Form("")) -> HTMLResponse:
        return _written(lambda: svc(request).undo(who(request, table_id), _int(version, "version")), "取り消しました。")

    @app.post("/tables/{table_id}/redo", response_class=HTMLResponse, include_in_schema=False)
    def redo(table_id: str, request: Request, version: str = Form("")) -> HTMLResponse:
        return _written(lambda: svc(request).redo(who(request, table_id), _int(version, "version")), "やり直しました。")

    @app.post("/tables/{table_id}/reroll", response_class=HTMLResponse, include_in_schema=False)
    def reroll(table_id: str, request: Request, version: str = Form(""), reason: str = Form("")) -> HTMLResponse:
        """GM: the last decision again with new dice (the log keeps the old ones and the reason)."""
        return _written(lambda: svc(request).reroll(who(request, table_id), _int(version, "version"), reason.strip()),
                        "振り直しました。")

    @app.post("/tables/{table_id}/ruling", response_class=HTMLResponse, include_in_schema=False)
    async def ruling(table_id: str, request: Request) -> HTMLResponse:
        """A GM ruling from one of the ruling forms: success is a line in ``#flash``; a
        refusal goes back into the form (its ``.form-error``), the field it names marked."""
        form = {k: str(v) for k, v in (await request.form()).items() if isinstance(v, str)}
        try:
            r = ruling_from_form(form)
            ver = _int(form.get("version"), "version")
            p = who(request, table_id)
            await run_in_threadpool(lambda: svc(request).act(p, ver, ruling=r))
        except FormError as exc:
            return _form_error(str(exc), exc.field)
        except Conflict as exc:
            return _service_reply(exc)
        except ServiceError as exc:
            return _form_error(exc.error, field_of(exc.error, form.get("op", "")), exc.status)
        except _BadForm as exc:
            return _form_error(str(exc), "version")
        return _retarget(_flash("裁定しました。", ok=True))

    @app.post("/tables/{table_id}/chat", response_class=HTMLResponse, include_in_schema=False)
    def chat(table_id: str, request: Request, text: str = Form(""), speaker: str = Form(""),
             line: str = Form("")) -> HTMLResponse:
        try:
            p = who(request, table_id)
            s = svc(request)
            v = s.view(p)
            unit = next((u for u in v["units"] if u.get("id") == speaker), None)
            if speaker and (unit is None or not (p.is_gm or unit.get("mine"))):
                return _flash("speaker: その名前では発言できません", 403)
            name = str(unit["name"]) if unit else ""
            said = fill_line(line, unit or {}, text_of(v, store.texts(table_id), speaker)) if line else text
            s.chat(p, said, name=name)
        except ServiceError as exc:
            return _service_reply(exc)
        return _flash("")

    @app.post("/tables/{table_id}/reveal", response_class=HTMLResponse, include_in_schema=False)
    def reveal(table_id: str, request: Request, seq: str = Form("")) -> HTMLResponse:
        return _written(lambda: svc(request).reveal(who(request, table_id), _int(seq, "seq")), "公開しました。")

    @app.post("/tables/{table_id}/palette", response_class=HTMLResponse, include_in_schema=False)
    def palette(table_id: str, request: Request, unit: str = Form(""), text: str = Form("")) -> HTMLResponse:
        """Store a unit's chat palette (its owner or the GM): the editor again, and the
        buttons out of band; an error is shown at the unit's text box, which keeps the text."""
        try:
            p = who(request, table_id)
            v = svc(request).view(p)
        except ServiceError as exc:
            return _retarget(_service_reply(exc))
        if not any(str(u.get("id")) == unit for u in speakable(v)):
            return _retarget(_flash("unit: このユニットのパレットは持ち主と GM だけが編集できます", 403))
        try:
            store.put(table_id, unit, text, p.who)
        except Unprocessable as exc:
            return HTMLResponse(editor_html(v, store.texts(table_id), exc.error, unit, draft=text[:8000]),
                                status_code=422)
        texts = store.texts(table_id)
        oob = f'<div id="palette" hx-swap-oob="innerHTML">{palette_html(v, texts)}</div>'
        return HTMLResponse(editor_html(v, texts) + oob)

    @app.post("/tables/{table_id}/links", response_class=HTMLResponse, include_in_schema=False)
    def links(table_id: str, request: Request, who_: str = Form("", alias="who"), do: str = Form("")) -> HTMLResponse:
        role, _, name = who_.partition(":")
        try:
            p = who(request, table_id)
            s = svc(request)
            if do == "rotate":
                token = s.rotate(p, role, name)
                url = f"{str(request.base_url).rstrip('/')}/join/{token}"
                return _flash(f"新しいリンク: {url}", ok=True)
            s.revoke(p, role, name)
        except ServiceError as exc:
            return _service_reply(exc)
        return _flash("リンクを無効にしました。", ok=True)

    # -- export -----------------------------------------------------------------------------
    @app.get("/tables/{table_id}/export.json", include_in_schema=False)
    def export_json(table_id: str, request: Request) -> Response:
        try:
            log = svc(request).export_log(who(request, table_id))
        except ServiceError as exc:
            return _error_page(request, exc)
        body = json.dumps(log, ensure_ascii=False, indent=1) + "\n"
        return Response(body, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="ikusa-{table_id}.json"'})

    @app.get("/tables/{table_id}/export.html", response_class=HTMLResponse, include_in_schema=False)
    def export_page(table_id: str, request: Request) -> HTMLResponse:
        try:
            p = who(request, table_id)
            s = svc(request)
            if not p.is_gm:
                s.export_log(p)  # refuses with Forbidden
            v = s.view(p)
        except ServiceError as exc:
            return _error_page(request, exc)
        return HTMLResponse(export_html(v))

    @app.get("/tables/{table_id}/fragments", include_in_schema=False)
    def fragments_json(table_id: str, request: Request) -> Response:
        """Every fragment of the caller's page as JSON (for scripts and tests)."""
        try:
            v = svc(request).view(who(request, table_id))
        except ServiceError as exc:
            return JSONResponse(exc.body(), status_code=exc.status)
        return JSONResponse({"version": v["version"], "fragments": fragments(v)})


def _form_error(message: str, field: str, status: int = 422) -> HTMLResponse:
    """A refusal shown in the form that sent it; ``ikusa-field-error`` marks the field."""
    resp = HTMLResponse(render("fragments/flash.html", message=message, cls="err"), status_code=status)
    resp.headers["HX-Trigger-After-Swap"] = json.dumps({"ikusa-field-error": {"field": field}})
    return resp


def _retarget(resp: HTMLResponse) -> HTMLResponse:
    """An answer for ``#flash`` whatever the form's own target was."""
    resp.headers["HX-Retarget"] = "#flash"
    resp.headers["HX-Reswap"] = "innerHTML"
    return resp


def _links(s: TableService, p: Principal) -> list[dict[str, Any]]:
    if not p.is_gm:
        return []
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for link in s.links(p):
        key = (str(link["role"]), str(link["name"]))
        if key not in seen or link["active"]:
            seen[key] = link
    return list(seen.values())
