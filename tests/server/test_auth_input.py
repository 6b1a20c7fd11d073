"""Links, cookies, the cross-site check and bad input (each refusal names what is wrong)."""

from __future__ import annotations

import copy
import json

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

from ikusa.server.app import MAX_BODY_BYTES
from ikusa.server.setup import MAX_UPLOAD_BYTES
from tests.server.helpers import AMBUSH, bearer, create, encounter_text


def test_join_exchanges_the_token_for_a_cookie_and_a_clean_url(sqlite_client: TestClient) -> None:
    c = sqlite_client
    t = create(c)
    token = t["tokens"]["players"]["alice"]
    r = c.get(f"/join/{token}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/tables/{t['id']}"
    assert r.headers["referrer-policy"] == "no-referrer"
    cookie = r.headers["set-cookie"]
    assert f"ikusa_{t['id']}={token}" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    view = c.get(f"/api/tables/{t['id']}")  # the TestClient keeps the cookie
    assert view.status_code == 200 and view.json()["role"]["name"] == "alice"
    assert c.get(f"/join/{'x' * 43}", follow_redirects=False).status_code == 403


def test_cross_site_posts_are_refused(sqlite_client: TestClient) -> None:
    c = sqlite_client
    t = create(c)
    c.get(f"/join/{t['tokens']['gm']}", follow_redirects=False)
    v = c.get(f"/api/tables/{t['id']}").json()
    key = v["pending"]["options"][-1]["key"]
    evil = c.post(f"/api/tables/{t['id']}/actions", headers={"Origin": "http://evil.example"},
                  json={"version": v["version"], "action": key})
    assert evil.status_code == 403 and "cross-site" in evil.json()["error"]
    sneaky = c.post(f"/api/tables/{t['id']}/actions", headers={"Sec-Fetch-Site": "cross-site"},
                    json={"version": v["version"], "action": key})
    assert sneaky.status_code == 403
    for headers in ({"Origin": "null"}, {"Origin": "null", "Sec-Fetch-Site": "cross-site"},
                    {"Sec-Fetch-Site": "same-site"}):
        r = c.post(f"/api/tables/{t['id']}/actions", headers=headers, json={"version": v["version"], "action": key})
        assert r.status_code == 403, headers
    assert c.get(f"/api/tables/{t['id']}").json()["version"] == v["version"]  # nothing applied
    # a same-origin form POST under no-referrer: Origin null, Sec-Fetch-Site same-origin
    ok = c.post(f"/api/tables/{t['id']}/actions", headers={"Origin": "null", "Sec-Fetch-Site": "same-origin"},
                json={"version": v["version"], "action": key})
    assert ok.status_code == 200
    v = ok.json()
    key = v["pending"]["options"][-1]["key"] if v["pending"]["kind"] != "dice" else ""
    ok = c.post(f"/api/tables/{t['id']}/actions", headers={"Origin": "http://testserver"},
                json={"version": v["version"], **({"action": key} if key else {"roll": True})})
    assert ok.status_code == 200


def test_oversized_uploads_are_refused_at_the_documented_limits(sqlite_client: TestClient) -> None:
    c = sqlite_client
    big = encounter_text() + "#" * (MAX_UPLOAD_BYTES + 1)
    r = c.post("/api/tables", json={"encounter": big})
    assert r.status_code == 413 and "256 KiB" in r.json()["error"]
    huge = json.dumps({"encounter": "x" * (MAX_BODY_BYTES + 1)})
    r = c.post("/api/tables", content=huge, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "1024 KiB" in r.json()["error"]


def test_malformed_encounters_are_refused_with_the_field_named(sqlite_client: TestClient) -> None:
    c = sqlite_client

    def refuse(doc: object, fmt: str = "yaml") -> str:
        text_ = doc if isinstance(doc, str) else encounter_text(doc)  # type: ignore[arg-type]
        r = c.post("/api/tables", json={"encounter": text_, "format": fmt})
        assert r.status_code == 422, r.text
        err: str = r.json()["error"]
        return err

    no_abilities = copy.deepcopy(AMBUSH)
    del no_abilities["units"][0]["abilities"]
    assert "units.0.abilities" in refuse(no_abilities) or "units[0]" in refuse(no_abilities)
    bad_control = copy.deepcopy(AMBUSH)
    bad_control["control"] = {"units": {"nobody": "player:x"}}
    assert "control.units" in refuse(bad_control) and "nobody" in refuse(bad_control)
    bad_dice = copy.deepcopy(AMBUSH)
    bad_dice["control"] = {"units": {"kuro": {"controller": "player:bob", "dice": "sometimes"}}}
    assert "control.units.kuro.dice" in refuse(bad_dice)
    bad_hidden = copy.deepcopy(AMBUSH)
    bad_hidden["units"][3]["hidden"] = "yes"
    assert "units[3].hidden" in refuse(bad_hidden)
    assert "system" in refuse({"units": []})
    assert "malformed YAML: line 3" in refuse("system: maai\nunits: [\n")
    assert "format" in refuse("{}", fmt="xml")
    r = c.post("/api/tables", json={"format": "yaml"})
    assert r.status_code == 422 and "encounter" in r.json()["error"]


def test_html_in_names_and_chat_is_never_markup(sqlite_client: TestClient) -> None:
    c = sqlite_client
    doc = copy.deepcopy(AMBUSH)
    doc["units"][0]["name"] = "<script>alert(1)</script>"
    t = create(c, doc)
    alice = bearer(t["tokens"]["players"]["alice"])
    c.post(f"/api/tables/{t['id']}/chat", headers=alice, json={"text": "<img src=x onerror=alert(2)>"})
    r = c.get(f"/api/tables/{t['id']}", headers=alice)
    assert r.headers["content-type"].startswith("application/json") and r.headers["x-content-type-options"] == "nosniff"
    assert "<script>" not in r.text and "<img" not in r.text  # escaped as \\u003c on the wire
    v = r.json()
    assert v["units"][0]["name"] == "<script>alert(1)</script>"
    assert v["chat"][0]["text"] == "<img src=x onerror=alert(2)>"


def test_health_docs_and_a_migrated_fresh_database(client: TestClient) -> None:
    assert client.get("/healthz").status_code == 200
    schema = client.get("/openapi.json").json()
    for path in ("/api/tables", "/api/tables/{table_id}", "/api/tables/{table_id}/actions"):
        assert path in schema["paths"]
    assert client.get("/docs").status_code == 200
    engine = client.app.state.engine  # type: ignore[attr-defined]
    names = set(inspect(engine).get_table_names())
    assert {"tables", "entries", "tokens", "palettes", "alembic_version"} <= names
    from pathlib import Path

    from alembic.config import Config
    from alembic.script import ScriptDirectory

    import ikusa.server.db

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(ikusa.server.db.__file__).with_name("migrations")))
    heads = ScriptDirectory.from_config(cfg).get_heads()
    assert len(heads) == 1, f"the migrations have {len(heads)} heads: {heads}"
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == heads[0]
        if engine.dialect.name == "sqlite":
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1


def test_tokens_are_stored_hashed(sqlite_client: TestClient) -> None:
    t = create(sqlite_client)
    engine = create_engine(str(sqlite_client.app.state.engine.url))  # type: ignore[attr-defined]
    with engine.connect() as conn:
        stored = [r[0] for r in conn.execute(text("SELECT token_hash FROM tokens"))]
    assert t["tokens"]["gm"] not in stored and all(len(h) == 64 for h in stored)
