"""Nothing GM-only reaches a player or a spectator: every response of a whole battle is scanned."""

from __future__ import annotations

import json
import re
from typing import Any

from fastapi.testclient import TestClient

from ikusa.server.projection import SECRET_TEXT
from tests.server.helpers import AMBUSH, bearer, create

HIDDEN_NAME = "隠れ忍ノ鬼丸"
GM_NOTE = "GMだけの秘密メモQ7"
GM_SECRET_ROLL = "S1D100 GMの秘密ロールXYZ"
ALICE_SECRET = "S2D6 アリスの秘密判定ABC"


def _owner(pending: dict[str, Any]) -> str:
    actor = pending.get("roller") or pending.get("actor")
    return {"genzaburo": "alice", "kuro": "bob"}.get(actor or "", "gm")


def test_whole_battle_never_leaks_gm_only_data(sqlite_client: TestClient) -> None:
    c = sqlite_client
    t = create(c, AMBUSH, seed=11)
    tid = t["id"]
    tokens = {"gm": t["tokens"]["gm"], **t["tokens"]["players"], "spectator": t["tokens"]["spectator"]}
    seen: dict[str, list[str]] = {"alice": [], "bob": [], "spectator": []}

    def get(who: str) -> dict[str, Any]:
        r = c.get(f"/api/tables/{tid}", headers=bearer(tokens[who]))
        assert r.status_code == 200
        if who in seen:
            seen[who].append(r.text)
        out: dict[str, Any] = r.json()
        return out

    def post(who: str, path: str, body: dict[str, Any]) -> Any:
        r = c.post(f"/api/tables/{tid}/{path}", headers=bearer(tokens[who]), json=body)
        if who in seen:
            seen[who].append(r.text)
        return r

    v = get("gm")
    note = {"version": v["version"], "ruling": {"op": "note", "text": GM_NOTE}}
    assert post("gm", "actions", note).status_code == 200
    assert post("gm", "chat", {"text": GM_SECRET_ROLL}).status_code == 200
    assert post("alice", "chat", {"text": ALICE_SECRET}).status_code == 200
    secret_seq = get("alice")["chat"][-1]["seq"]
    bob_chat = get("bob")["chat"]
    assert [m["text"] for m in bob_chat] == [SECRET_TEXT, SECRET_TEXT]
    assert get("alice")["chat"][-1]["text"] == ALICE_SECRET  # the roller sees her own
    steps = 0
    while True:
        v = get("gm")
        for who in seen:
            get(who)
        p = v["pending"]
        if p is None:
            break
        who = _owner(p)
        if p["kind"] == "dice":
            body: dict[str, Any] = {"version": v["version"], "roll": True}
            if who == "bob":
                body = {"version": v["version"], "dice": [p["sides"]] * p["count"]}
        else:
            body = {"version": v["version"], "action": p["options"][steps % len(p["options"])]["key"]}
        r = post(who, "actions", body)
        assert r.status_code == 200, r.text
        if steps == 3:  # a stale write by a player: the 409 body is scanned too
            post("bob", "actions", {"version": 0, "action": "end"})
        steps += 1
        assert steps < 400
    # the GM sees everything the players did not
    gm_text = json.dumps(get("gm"), ensure_ascii=False)
    assert HIDDEN_NAME in gm_text and GM_NOTE in gm_text and "GMの秘密ロールXYZ" in gm_text
    for who, texts in seen.items():
        blob = "\n".join(texts)
        assert HIDDEN_NAME not in blob, who
        assert '"shinobi"' not in blob and ">shinobi" not in blob, who
        assert GM_NOTE not in blob and "GMの秘密ロールXYZ" not in blob, who
        assert "use:yari" not in blob, who  # the NPC's options
        if who != "alice":
            assert "アリスの秘密判定ABC" not in blob, who
    # NPC numbers: no player view carries the NPC's 戦力/活力
    for who in seen:
        npc = next(u for u in get(who)["units"] if u["id"] == "yagyu")
        assert "wounds" not in npc and "vigor" not in npc and "fate_left" not in npc
    # ... nor its log lines: the GM reads 槍の将's 活力 and 戦力 in them, a player reads ?
    track = re.compile(r"槍の将[^\n]*?(残り活力|戦力 |限界)-?\d")
    gm_lines = [item["text"] for item in get("gm")["log"]]
    assert any(track.search(t) for t in gm_lines)
    for who in seen:
        lines = [item["text"] for item in get(who)["log"]]
        assert len(lines) >= len([t for t in gm_lines if "槍の将" in t]) // 2, who  # the lines stay, redacted
        assert not [t for t in lines if track.search(t)], who
        assert any(re.search(r"槍の将[^\n]*(活力|戦力|残り)[^\n]*\?", t) for t in lines), who
        assert not re.search(r"活力 [^\n]*槍の将\d", "\n".join(lines)), who  # 第N間合 開始: 活力 源三郎11 槍の将?
    # the roller reveals: now everyone sees it
    assert post("bob", f"chat/{secret_seq}/reveal", {}).status_code == 403
    assert post("alice", f"chat/{secret_seq}/reveal", {}).status_code == 200
    assert "アリスの秘密判定ABC" in json.dumps(get("bob")["chat"], ensure_ascii=False)


def test_reveal_ruling_shows_the_hidden_unit(sqlite_client: TestClient) -> None:
    c = sqlite_client
    t = create(c, AMBUSH)
    alice = bearer(t["tokens"]["players"]["alice"])
    assert HIDDEN_NAME not in c.get(f"/api/tables/{t['id']}", headers=alice).text
    v = c.get(f"/api/tables/{t['id']}", headers=bearer(t["tokens"]["gm"])).json()
    r = c.post(f"/api/tables/{t['id']}/actions", headers=bearer(t["tokens"]["gm"]),
               json={"version": v["version"], "ruling": {"op": "reveal", "unit": "shinobi"}})
    assert r.status_code == 200
    after = c.get(f"/api/tables/{t['id']}", headers=alice).json()
    assert "shinobi" in [u["id"] for u in after["units"]]
    assert any(HIDDEN_NAME in e["text"] for e in after["log"])
