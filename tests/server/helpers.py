"""Shared helpers of the server tests: encounters and API calls."""

from __future__ import annotations

from typing import Any

import yaml
from fastapi.testclient import TestClient

#: two PCs of two players, a GM NPC and a hidden NPC (maai)
AMBUSH = {
    "system": "maai",
    "title": "待ち伏せ",
    "sides": ["味方", "敵"],
    "units": [
        {"id": "genzaburo", "name": "源三郎", "side": "味方", "grade": "PC",
         "abilities": {"勇": 2, "技": 1, "體": 1, "智": 0, "美": 0, "運": 1}, "skills": {"剣術": "免許"},
         "weapons": ["katana"], "armour": ["軽甲"]},
        {"id": "kuro", "name": "黒", "side": "味方", "grade": "PC",
         "abilities": {"勇": 1, "技": 2, "體": 1, "智": 0, "美": 0, "運": 1}, "skills": {"剣術": "免許"},
         "weapons": ["katana"]},
        {"id": "yagyu", "name": "槍の将", "side": "敵", "grade": "将",
         "abilities": {"勇": 2, "技": 1, "體": 1, "智": 0, "美": 0, "運": 0}, "skills": {"槍術": "免許"},
         "weapons": ["yari"], "armour": ["重甲"]},
        {"id": "shinobi", "name": "隠れ忍ノ鬼丸", "side": "敵", "grade": "卒", "hidden": True,
         "abilities": {"勇": 1, "技": 1, "體": 1, "智": 0, "美": 0, "運": 0}, "skills": {"剣術": "習得"},
         "weapons": ["katana"]},
    ],
    "control": {"units": {"genzaburo": {"controller": "player:alice", "dice": "ask"},
                          "kuro": {"controller": "player:bob", "dice": "manual"}}},
}


def encounter_text(doc: dict[str, Any] | None = None) -> str:
    return yaml.safe_dump(doc or AMBUSH, allow_unicode=True, sort_keys=False)


def create(client: TestClient, doc: dict[str, Any] | None = None, seed: int = 7) -> dict[str, Any]:
    r = client.post("/api/tables", json={"encounter": encounter_text(doc), "format": "yaml", "seed": seed})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def view(client: TestClient, table: dict[str, Any], token: str) -> dict[str, Any]:
    r = client.get(f"/api/tables/{table['id']}", headers=bearer(token))
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def act(client: TestClient, table: dict[str, Any], token: str, **body: Any) -> Any:
    return client.post(f"/api/tables/{table['id']}/actions", headers=bearer(token), json=body)
