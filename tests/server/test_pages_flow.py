"""The pages' own round trips (issue #9 §2, §8): export a table's log and import it as a new
table from the start page, refused uploads in one line, and the GM's link rotation."""

from __future__ import annotations

import html
import json
import re

from fastapi.testclient import TestClient

from ikusa.server.setup import MAX_UPLOAD_BYTES
from tests.server.helpers import act, bearer, create, view


def test_export_then_import_continues_the_table(sqlite_client: TestClient) -> None:
    c = sqlite_client
    t = create(c)
    gm = t["tokens"]["gm"]
    for _ in range(4):  # a few entries, the last may leave a roll waiting
        v = view(c, t, gm)
        p = v["pending"]
        body = {"roll": True} if p["kind"] == "dice" else {"action": p["options"][0]["key"]}
        assert act(c, t, gm, version=v["version"], **body).status_code == 200
    before = view(c, t, gm)
    r = c.get(f"/tables/{t['id']}/export.json", headers=bearer(gm))
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    # a player may not export
    assert c.get(f"/tables/{t['id']}/export.json", headers=bearer(t["tokens"]["players"]["alice"])).status_code == 403
    r = c.post("/import", files={"upload": ("log.json", r.content, "application/json")})
    assert r.status_code == 201, r.text
    new_gm = re.search(r'id="gm-link" href="[^"]*/join/([^"]+)"', r.text)
    assert new_gm is not None and "alice" in r.text and "bob" in r.text  # a link per player again
    page = c.get(f"/join/{new_gm.group(1)}", follow_redirects=True)
    assert page.status_code == 200 and "待ち伏せ" in page.text
    new_id = page.url.path.rsplit("/", 1)[1]
    after = c.get(f"/api/tables/{new_id}", headers=bearer(new_gm.group(1))).json()
    events = [i["text"] for i in before["log"] if i["kind"] == "event"]
    assert [i["text"] for i in after["log"] if i["kind"] == "event"] == events
    assert after["pending"] == before["pending"]
    assert [u["vigor"] for u in after["units"]] == [u["vigor"] for u in before["units"]]


def test_refused_imports_say_why_in_one_line(sqlite_client: TestClient) -> None:
    c = sqlite_client
    cases = [
        (b"{not json", 422, "malformed JSON"),
        (json.dumps({"format": "something-else"}).encode(), 422, "not an ikusa log"),
        (b"[1, 2]", 422, "top level must be an object"),
        (b" " * (MAX_UPLOAD_BYTES + 1), 413, f"limit of {MAX_UPLOAD_BYTES // 1024} KiB"),
    ]
    for data, status, words in cases:
        r = c.post("/import", files={"upload": ("log.json", data, "application/json")})
        assert r.status_code == status and words in r.text, (status, r.text[-400:])
        assert "Traceback" not in r.text


def test_the_gm_rotates_and_revokes_a_link_from_the_page(sqlite_client: TestClient) -> None:
    c = sqlite_client
    t = create(c)
    gm = bearer(t["tokens"]["gm"])
    old = t["tokens"]["players"]["alice"]
    r = c.post(f"/tables/{t['id']}/links", headers=gm, data={"who": "player:alice", "do": "rotate"})
    assert r.status_code == 200 and "新しいリンク" in r.text
    new = re.search(r"/join/([A-Za-z0-9_\-]+)", r.text)
    assert new is not None
    assert c.get(f"/tables/{t['id']}", headers=bearer(old)).status_code == 403
    assert c.get(f"/tables/{t['id']}", headers=bearer(new.group(1))).status_code == 200
    r = c.post(f"/tables/{t['id']}/links", headers=gm, data={"who": "player:alice", "do": "revoke"})
    assert r.status_code == 200
    assert c.get(f"/tables/{t['id']}", headers=bearer(new.group(1))).status_code == 403
    # a player cannot rotate anyone's link
    bob = bearer(t["tokens"]["players"]["bob"])
    assert c.post(f"/tables/{t['id']}/links", headers=bob, data={"who": "gm:", "do": "rotate"}).status_code == 403


def _setup_form(c: TestClient) -> dict[str, str]:
    """The setup form of the shipped duel as a browser would post it back."""
    r = c.post("/setup", data={"example": "maai/duel"})
    assert r.status_code == 200
    n = int(re.search(r'name="n" value="(\d+)"', r.text).group(1))  # type: ignore[union-attr]
    rest = re.search(r'<textarea id="rest" name="rest"[^>]*>([^<]*)</textarea>', r.text)
    assert rest is not None
    form = {"n": str(n), "ukey": "units", "rest": html.unescape(rest.group(1)), "go": "check"}
    for i in range(n):
        name = re.search(rf'name="name_{i}" value="([^"]*)"', r.text)
        body = re.search(rf'name="body_{i}"[^>]*>([^<]*)</textarea>', r.text)
        assert name is not None and body is not None
        form |= {f"name_{i}": html.unescape(name.group(1)), f"body_{i}": html.unescape(body.group(1)),
                 f"ctl_{i}": "gm", f"dice_{i}": "auto"}
    return form


def test_setup_errors_show_at_the_field_they_name(sqlite_client: TestClient) -> None:
    c = sqlite_client
    form = _setup_form(c)
    cases = [
        ({"ctl_0": "player", "player_0": ""}, 0, "ctl", "control.units.genzaburo.controller"),
        ({"ctl_1": "ai:nonsense"}, 1, "ctl", "unknown AI policy 'nonsense'"),
        ({"body_1": form["body_1"].replace("side:", "sidex:")}, 1, "body", "units.1.sidex"),
    ]
    for change, unit, part, words in cases:
        r = c.post("/setup/edit", data=form | change)
        assert r.status_code == 422
        card = r.text.split(f'id="unit-{unit}"', 1)[1].split("</section>", 1)[0]
        assert f'data-error-at="{part}"' in card and words in html.unescape(card), card[:400]
        invalid = re.findall(r'<(\w+)[^>]*name="(\w+)_\d+"[^>]*aria-invalid="true"', card)
        assert invalid == [("select", "ctl")] if part == "ctl" else [("textarea", "body")], invalid
        # only that unit is marked
        other = r.text.split(f'id="unit-{1 - unit}"', 1)[1].split("</section>", 1)[0]
        assert "aria-invalid" not in other
    r = c.post("/setup/edit", data=form)
    assert r.status_code == 200 and "aria-invalid" not in r.text
