"""Opening a table from the pages: the encounter before the start, edited unit by unit.

The draft lives in the form itself (nothing is stored until 「この内容で卓を開く」): the table
settings as YAML, and per unit its name, controller (GM, a player, an AI policy), dice mode
(``ask``/``manual``/``auto``), ``hidden`` and the rest of its data as YAML.  Every submit is
validated by the same loader the JSON API uses (:func:`ikusa.server.setup.load_setup`), and
an error is shown at the unit (or the settings) its field names.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml
from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from ikusa.engine.errors import IkusaError, InputError
from ikusa.server.errors import ServiceError
from ikusa.server.pages_render import render
from ikusa.server.service import Created, TableService
from ikusa.server.setup import MAX_UPLOAD_BYTES, load_setup, parse_text

__all__ = ["MAX_UPLOAD_BYTES", "edit_page", "examples", "format_of", "import_page", "start_page"]

_UNIT_FIELD = re.compile(r"^(?:units|characters)(?:\[(\d+)\]|\.(\d+))")
_CONTROL_FIELD = re.compile(r"^control\.units\.([^.\[]+)")


def examples() -> list[dict[str, str]]:
    """The shipped examples for the picker: key, system and title."""
    from ikusa.server.examples import example_document, example_names

    out = []
    for name in example_names():
        try:
            title = str(example_document(name).get("title") or name)
        except IkusaError:
            continue
        out.append({"key": name, "system": name.split("/", 1)[0], "title": title})
    return out


def format_of(filename: str, default: str) -> str:
    low = filename.lower()
    for ext, fmt in ((".toml", "toml"), (".json", "json"), (".yaml", "yaml"), (".yml", "yaml")):
        if low.endswith(ext):
            return fmt
    return default


def _dump(data: Any) -> str:
    if not data:
        return ""
    return str(yaml.safe_dump(data, allow_unicode=True, sort_keys=False, default_flow_style=None, width=100))


def _unit_key(doc: dict[str, Any]) -> str:
    return "units" if "units" in doc else "characters"


def _control_of(doc: dict[str, Any], uid: str, side: str) -> tuple[str, str, str]:
    """(kind, player, dice) of a unit from the document's ``control:`` section
    (``default`` → ``sides.<side>`` → ``units.<id>``, docs/gm-control.md)."""
    control = doc.get("control") if isinstance(doc.get("control"), dict) else {}
    assert isinstance(control, dict)
    ctl, dice = "gm", ""
    layers = [control.get("default"), (control.get("sides") or {}).get(side), (control.get("units") or {}).get(uid)]
    for raw in layers:
        if isinstance(raw, str):
            if raw in ("auto", "manual", "ask"):
                dice = raw
            else:
                ctl = raw
        elif isinstance(raw, dict):
            ctl = str(raw.get("controller", ctl))
            dice = str(raw.get("dice", dice))
    dice = dice or ("ask" if ctl.startswith("player:") else "auto")
    if ctl.startswith("player:"):
        return "player", ctl[7:], dice
    return ctl, "", dice


def _model(doc: dict[str, Any]) -> dict[str, Any]:
    """The form's model of a document."""
    ukey = _unit_key(doc)
    units_raw = doc.get(ukey) if isinstance(doc.get(ukey), list) else []
    assert isinstance(units_raw, list)
    units = []
    for u in units_raw:
        if not isinstance(u, dict):
            units.append({"id": "?", "name": "", "ctl": "gm", "player": "", "dice": "auto", "hidden": False,
                          "body": _dump(u), "rows": 3})
            continue
        body = {k: v for k, v in u.items() if k not in ("name", "hidden")}
        kind, player, dice = _control_of(doc, str(u.get("id", "")), str(u.get("side", "")))
        text = _dump(body)
        units.append({"id": str(u.get("id", "")), "name": str(u.get("name", "")), "ctl": kind, "player": player,
                      "dice": dice, "hidden": u.get("hidden") is True, "body": text,
                      "rows": min(14, max(3, text.count("\n") + 1))})
    rest = {k: v for k, v in doc.items() if k not in (ukey, "control", "players")}
    gm_dice = (doc.get("control") or {}).get("gm") if isinstance(doc.get("control"), dict) else None
    if gm_dice is not None:
        rest["control"] = {"gm": gm_dice}  # the GM's own rolls; units are set at each unit
    return {"ukey": ukey, "units": units, "rest": _dump(rest), "system": str(doc.get("system", ""))}


def _policies(system: str) -> list[str]:
    from ikusa.systems.registry import canonical_id, load_system

    try:
        sid = canonical_id(system)
        return sorted(load_system(sid).POLICIES) if sid else []
    except IkusaError:
        return []


def _where(exc: InputError, form_index: list[int], ids: list[str]) -> str | int:
    """The form part an error belongs to: a unit's index, or ``_top``."""
    m = _UNIT_FIELD.match(exc.field)
    if m:
        j = int(m.group(1) or m.group(2))
        return form_index[j] if j < len(form_index) else "_new"
    m = _CONTROL_FIELD.match(exc.field)
    if m and m.group(1) in ids:
        return form_index[ids.index(m.group(1))]
    return "_top"


def _message(exc: InputError) -> str:
    return f"{exc.field}: {exc.message}" if exc.field else exc.message


_PART = re.compile(r"^(?:<encounter>:)?(?:(?:units|characters)(?:\[\d+\]|\.\d+)\.(name|hidden)\b|(control)\b)")


def error_part(message: str) -> str:
    """Which input of a unit's card an error belongs to: ``name``, ``hidden``, ``ctl`` (its
    controller and dice) or ``body`` (its data), read from the field the message names."""
    m = _PART.match(message)
    if m is None:
        return "body"
    return "ctl" if m.group(2) else str(m.group(1))


def _page(model: dict[str, Any], errors: dict[Any, str], new_unit: str = "", status: int = 200) -> HTMLResponse:
    parts = {k: error_part(v) for k, v in errors.items()}
    html = render("setup.html", **model, errors=errors, parts=parts, new_unit=new_unit,
                  policies=_policies(model["system"]))
    return HTMLResponse(html, status_code=status)


def _validate(doc: dict[str, Any], form_index: list[int]) -> dict[Any, str]:
    ukey = _unit_key(doc)
    ids = [str(u.get("id", "")) if isinstance(u, dict) else "" for u in doc.get(ukey) or []]
    try:
        load_setup(doc)
    except InputError as exc:
        return {_where(exc, form_index, ids): _message(exc)}
    except IkusaError as exc:
        return {"_top": str(exc)}
    return {}


def start_page(example: str, text: str, fmt: str) -> HTMLResponse:
    """The editor for an example, a pasted or an uploaded encounter (errors shown at once)."""
    from ikusa.server.examples import example_document

    try:
        if example:
            doc = example_document(example)
        elif not text.strip():
            raise InputError("choose an example, upload a file or paste an encounter")
        else:
            doc = parse_text(text, fmt)
    except InputError as exc:
        html = render("index.html", examples=examples(), error=_message(exc) if exc.field else str(exc),
                      text=text[:MAX_UPLOAD_BYTES], fmt=fmt)
        return HTMLResponse(html, status_code=413 if "larger than" in str(exc) else 422)
    model = _model(doc)
    errors = _validate(doc, list(range(len(model["units"]))))
    return _page(model, errors, status=422 if errors else 200)


def _yaml(text: str, where: str) -> Any:
    try:
        return yaml.safe_load(text) if text.strip() else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        raise InputError(f"malformed YAML: {at}{getattr(exc, 'problem', None) or exc}", field=where) from None


def document_from_form(form: dict[str, str]) -> tuple[dict[str, Any], list[int], dict[Any, str]]:
    """The document a setup form describes; per-part errors for what does not parse."""
    errors: dict[Any, str] = {}
    ukey = "characters" if form.get("ukey") == "characters" else "units"
    try:
        rest = _yaml(form.get("rest", ""), "settings") or {}
        if not isinstance(rest, dict):
            raise InputError("must be a mapping (key: value)", field="settings")
    except InputError as exc:
        errors["_top"] = _message(exc)
        rest = {}
    doc: dict[str, Any] = dict(rest)
    units: list[Any] = []
    control: dict[str, Any] = {}
    form_index: list[int] = []
    n = min(int(form.get("n", "0") or 0) if (form.get("n", "0") or "0").isdigit() else 0, 200)
    for i in range(n):
        if form.get(f"drop_{i}"):
            continue
        try:
            body = _yaml(form.get(f"body_{i}", ""), f"{ukey}[{i}]") or {}
            if not isinstance(body, dict):
                raise InputError("must be a mapping (key: value)", field=f"{ukey}[{i}]")
        except InputError as exc:
            errors[i] = _message(exc)
            body = {"id": f"unit{i}"}
        unit = dict(body)
        name = form.get(f"name_{i}", "").strip()
        if name:
            unit = {"id": unit.pop("id", f"unit{i}"), "name": name, **unit}
        if form.get(f"hidden_{i}"):
            unit["hidden"] = True
        kind = form.get(f"ctl_{i}", "gm")
        dice = form.get(f"dice_{i}", "auto")
        controller = f"player:{form.get(f'player_{i}', '').strip()}" if kind == "player" else kind
        control[str(unit.get("id", ""))] = {"controller": controller, "dice": dice}
        units.append(unit)
        form_index.append(i)
    new = form.get("new_unit", "")
    if new.strip():
        try:
            extra = _yaml(new, "new unit")
            if not isinstance(extra, dict):
                raise InputError("must be a mapping (key: value)", field="new unit")
            units.append(extra)
            form_index.append(n)
        except InputError as exc:
            errors["_new"] = _message(exc)
    doc[ukey] = units
    if control:
        kept = rest.get("control") if isinstance(rest.get("control"), dict) else {}
        assert isinstance(kept, dict)
        doc["control"] = {k: v for k, v in kept.items() if k == "gm"} | {"units": control}
    return doc, form_index, errors


def edit_page(form: dict[str, str], service: TableService, request: Request) -> Response:
    doc, form_index, errors = document_from_form(form)
    if not errors:
        errors = _validate(doc, form_index)
    model = _model(doc)
    if errors or form.get("go") != "start":
        # a unit index in errors refers to the form; re-rendered, units are numbered afresh
        renumber = {fi: j for j, fi in enumerate(form_index)}
        shown = {renumber.get(k, k) if isinstance(k, int) else k: v for k, v in errors.items()}
        return _page(model, shown, status=422 if errors else 200)
    try:
        created = service.create_document(doc)
    except ServiceError as exc:
        return _page(model, {"_top": exc.error}, status=exc.status)
    return links_page(created, request, str(doc.get("title") or ""))


def links_page(created: Created, request: Request, title: str) -> HTMLResponse:
    base = str(request.base_url).rstrip("/")
    t = created.tokens
    links = {"gm": f"{base}/join/{t['gm']}", "players": {n: f"{base}/join/{tok}" for n, tok in t["players"].items()},
             "spectator": f"{base}/join/{t['spectator']}"}
    resp = HTMLResponse(render("links.html", links=links, title=title), status_code=201)
    resp.headers["Cache-Control"] = "no-store"
    return resp


def import_page(data: bytes, service: TableService, request: Request) -> Response:
    """A new table continuing an uploaded ``ikusa-log``."""
    if len(data) > MAX_UPLOAD_BYTES:
        msg = f"the log is larger than the limit of {MAX_UPLOAD_BYTES // 1024} KiB"
        return HTMLResponse(render("error.html", status=413, message=msg), status_code=413)
    try:
        log = json.loads(data.decode("utf-8-sig"))
        if not isinstance(log, dict):
            raise ValueError("the top level must be an object")
        created = service.create_from_log(log)
    except (ValueError, UnicodeDecodeError) as exc:
        return HTMLResponse(render("error.html", status=422, message=f"malformed JSON: {exc}"), status_code=422)
    except ServiceError as exc:
        return HTMLResponse(render("error.html", status=exc.status, message=exc.error), status_code=exc.status)
    setup = log.get("table_setup") or log.get("setup") or {}
    return links_page(created, request, str(setup.get("title") or "") if isinstance(setup, dict) else "")
