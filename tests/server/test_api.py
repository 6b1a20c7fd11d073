"""The JSON API on both databases: create, views per role, versions, refusals, dice requests."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from tests.server.helpers import act, bearer, create, view


def _answer(client: TestClient, table: dict[str, Any], token: str, v: dict[str, Any]) -> dict[str, Any]:
    p = v["pending"]
    if p["kind"] == "dice":
        r = act(client, table, token, version=v["version"], roll=True)
    else:
        r = act(client, table, token, version=v["version"], action=p["options"][-1]["key"])
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_create_returns_links_and_tokens_per_player(client: TestClient) -> None:
    t = create(client)
    assert t["version"] == 0
    assert set(t["player_urls"]) == {"alice", "bob"} == set(t["tokens"]["players"])
    for url in [t["gm_url"], t["spectator_url"], *t["player_urls"].values()]:
        assert "/join/" in url and len(url.rsplit("/", 1)[1]) >= 43  # token_urlsafe(32)
    assert len({t["tokens"]["gm"], t["tokens"]["spectator"], *t["tokens"]["players"].values()}) == 4


def test_views_per_role_and_ownership(client: TestClient) -> None:
    t = create(client)
    gm = view(client, t, t["tokens"]["gm"])
    alice = view(client, t, t["tokens"]["players"]["alice"])
    spec = view(client, t, t["tokens"]["spectator"])
    assert [u["id"] for u in gm["units"]] == ["genzaburo", "kuro", "yagyu", "shinobi"]
    assert [u["id"] for u in alice["units"]] == ["genzaburo", "kuro", "yagyu"]  # shinobi hidden
    assert [u["id"] for u in spec["units"]] == ["genzaburo", "kuro", "yagyu"]
    npc = next(u for u in alice["units"] if u["id"] == "yagyu")
    assert "wounds" not in npc and "vigor" not in npc  # NPC numbers are the GM's
    assert alice["role"] == {"role": "player", "name": "alice", "units": ["genzaburo"]}
    # the first breath: whoever's it is, only its owner (and the GM) gets the options
    actor = gm["pending"]["actor"]
    owner = {"genzaburo": "alice", "kuro": "bob"}.get(actor)
    for name, tok in t["tokens"]["players"].items():
        p = view(client, t, tok)["pending"]
        assert (p["options"] != []) == (name == owner)
    assert spec["pending"]["options"] == [] and gm["pending"]["options"]


def test_stale_version_is_409_with_fresh_view_and_never_applied_twice(client: TestClient) -> None:
    t = create(client)
    gm_tok = t["tokens"]["gm"]
    v = view(client, t, gm_tok)
    key = v["pending"]["options"][-1]["key"]
    first = act(client, t, gm_tok, version=v["version"], action=key)
    assert first.status_code == 200
    again = act(client, t, gm_tok, version=v["version"], action=key)
    assert again.status_code == 409
    body = again.json()
    assert "changed" in body["error"] and body["view"]["version"] == first.json()["version"]
    assert view(client, t, gm_tok)["version"] == first.json()["version"]


def test_refusals_403_and_422(client: TestClient) -> None:
    t = create(client)
    other = create(client)
    tid = t["id"]
    assert client.get(f"/api/tables/{tid}").status_code == 403
    assert client.get(f"/api/tables/{tid}", headers=bearer("forged" * 8)).status_code == 403
    r = client.get(f"/api/tables/{tid}", headers=bearer(other["tokens"]["gm"]))
    assert r.status_code == 403 and "another table" in r.json()["error"]
    v = view(client, t, t["tokens"]["gm"])
    # the spectator and the player who does not own the actor may not answer
    assert act(client, t, t["tokens"]["spectator"], version=v["version"], action="end").status_code == 403
    owner = {"genzaburo": "alice", "kuro": "bob"}.get(v["pending"]["actor"], "")
    for name, tok in t["tokens"]["players"].items():
        if name != owner:
            assert act(client, t, tok, version=v["version"], action="end").status_code == 403
    bad = act(client, t, t["tokens"]["gm"], version=v["version"], action="use:nothing>nobody")
    assert bad.status_code == 422 and re.match(r"(S-[RG]\d+|ENGINE)", bad.json()["error"])  # the rule named
    # a player may not make rulings
    assert act(client, t, t["tokens"]["players"]["alice"], version=v["version"],
               ruling={"op": "note", "text": "x"}).status_code == 403
    assert view(client, t, t["tokens"]["gm"])["version"] == v["version"]  # nothing applied


def test_revoke_and_rotate(client: TestClient) -> None:
    t = create(client)
    gm = bearer(t["tokens"]["gm"])
    old = t["tokens"]["players"]["alice"]
    r = client.post(f"/api/tables/{t['id']}/links/rotate", headers=gm, json={"role": "player", "name": "alice"})
    assert r.status_code == 200
    new = r.json()["token"]
    assert client.get(f"/api/tables/{t['id']}", headers=bearer(old)).status_code == 403
    assert view(client, t, new)["role"]["name"] == "alice"
    assert client.post(f"/api/tables/{t['id']}/links/revoke", headers=gm,
                       json={"role": "spectator"}).status_code == 200
    assert client.get(f"/api/tables/{t['id']}", headers=bearer(t["tokens"]["spectator"])).status_code == 403
    # only the GM rotates
    assert client.post(f"/api/tables/{t['id']}/links/rotate", headers=bearer(new),
                       json={"role": "gm"}).status_code == 403


def test_typed_dice_request_for_a_manual_player_and_who_typed(client: TestClient) -> None:
    t = create(client)
    gm_tok = t["tokens"]["gm"]
    bob = t["tokens"]["players"]["bob"]
    v = view(client, t, gm_tok)
    for _ in range(60):  # play until bob's kuro (manual dice) attacks
        p = v["pending"]
        if p["kind"] == "breath" and p["actor"] == "kuro":
            break
        v = _answer(client, t, gm_tok, v)
    else:
        raise AssertionError("kuro never got a breath")
    attack = next(o["key"] for o in view(client, t, bob)["pending"]["options"] if o["key"].startswith("use:"))
    r = act(client, t, bob, version=v["version"], action=attack)
    assert r.status_code == 200
    p = r.json()["pending"]
    assert p["kind"] == "dice" and p["roller"] == "kuro" and p["may_answer"] and p["sides"] == 10
    # alice may not type bob's dice; values out of range are refused
    alice = t["tokens"]["players"]["alice"]
    assert act(client, t, alice, version=r.json()["version"], dice=[5] * p["count"]).status_code == 403
    assert act(client, t, bob, version=r.json()["version"], dice=[11] * p["count"]).status_code == 422
    r2 = act(client, t, bob, version=r.json()["version"], dice=[9] * p["count"])
    assert r2.status_code == 200
    log = view(client, t, gm_tok)["log"]
    typed = [e for e in log if e["kind"] == "dice"]
    assert typed and typed[0]["author"] == "player:bob" and "9" in typed[0]["text"]


def test_whole_battle_to_the_end(client: TestClient) -> None:
    from ikusa.server.examples import example_document
    from tests.server.helpers import encounter_text

    r = client.post("/api/tables", json={"encounter": encounter_text(example_document("duel")), "seed": 3})
    assert r.status_code == 201
    t = r.json()
    gm_tok = t["tokens"]["gm"]
    v = view(client, t, gm_tok)
    n = 0
    while v["pending"] is not None:
        v = _answer(client, t, gm_tok, v)
        n += 1
        assert n < 500
    assert v["over"] and v["board"]["winner"] in ("味方", "敵", None)


def test_log_since_returns_only_the_new_lines(client: TestClient) -> None:
    t = create(client)
    gm = t["tokens"]["gm"]
    v = view(client, t, gm)
    for _ in range(3):
        v = _answer(client, t, gm, v)
    full = view(client, t, gm)["log"]
    r = client.get(f"/api/tables/{t['id']}", params={"log_since": 1}, headers=bearer(gm)).json()
    assert r["log_since"] == 1 and r["log"] == [e for e in full if e["seq"] > 1] and len(r["log"]) < len(full)
