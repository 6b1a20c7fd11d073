"""The store and the service: honest undo/redo, export that ``ikusa play --load`` resumes,
import, racing writers, and the pub/sub hub."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ikusa.engine.dice_request import DiceRequest
from ikusa.engine.runner import load_log
from ikusa.server.db import make_engine, migrate
from ikusa.server.errors import Conflict
from ikusa.server.hub import Hub
from ikusa.server.projection import Principal
from ikusa.server.service import TableService
from tests.server.helpers import AMBUSH, act, bearer, create, view


def _until_npc_acts(c: TestClient, t: dict[str, Any], v: dict[str, Any]) -> dict[str, Any]:
    gm = t["tokens"]["gm"]
    for _ in range(80):
        p = v["pending"]
        if p["kind"] == "breath" and p["actor"] == "yagyu":
            return v
        body: dict[str, Any] = {"roll": True} if p["kind"] == "dice" else {"action": p["options"][-1]["key"]}
        r = act(c, t, gm, version=v["version"], **body)
        assert r.status_code == 200, r.text
        v = r.json()
    raise AssertionError("the NPC never got a breath")


def _units(v: dict[str, Any]) -> list[dict[str, Any]]:
    return v["units"]


def test_undo_keeps_the_dice_and_redo_reapplies(sqlite_client: TestClient) -> None:
    c = sqlite_client
    t = create(c, seed=21)
    gm = t["tokens"]["gm"]
    v = _until_npc_acts(c, t, view(c, t, gm))
    attack = next(o["key"] for o in v["pending"]["options"] if o["key"].startswith("use:"))
    done = act(c, t, gm, version=v["version"], action=attack).json()
    new_lines = [e["text"] for e in done["log"] if e["seq"] == done["version"]]
    assert new_lines
    undone = c.post(f"/api/tables/{t['id']}/undo", headers=bearer(gm), json={"version": done["version"]}).json()
    assert undone["can_redo"] and _units(undone) == _units(v)
    again = act(c, t, gm, version=undone["version"], action=attack).json()
    assert [e["text"] for e in again["log"] if e["seq"] == again["version"]] == new_lines  # the same dice
    assert _units(again) == _units(done)
    undone = c.post(f"/api/tables/{t['id']}/undo", headers=bearer(gm), json={"version": again["version"]}).json()
    redone = c.post(f"/api/tables/{t['id']}/redo", headers=bearer(gm), json={"version": undone["version"]}).json()
    assert _units(redone) == _units(done) and not redone["can_redo"]
    alice = t["tokens"]["players"]["alice"]
    assert c.post(f"/api/tables/{t['id']}/undo", headers=bearer(alice),
                  json={"version": redone["version"]}).status_code == 403


def test_export_resumes_in_ikusa_play_load_and_imports_as_a_new_table(sqlite_client: TestClient,
                                                                      tmp_path: Path) -> None:
    c = sqlite_client
    t = create(c, seed=4)
    gm, bob = t["tokens"]["gm"], t["tokens"]["players"]["bob"]
    v = view(c, t, gm)
    for _ in range(80):  # until bob's roll waits for typed dice
        p = v["pending"]
        if p["kind"] == "dice" and p["roller"] == "kuro":
            break
        who = bob if p.get("actor") == "kuro" else gm
        body: dict[str, Any] = {"roll": True} if p["kind"] == "dice" else {"action": p["options"][0]["key"]}
        v = act(c, t, who, version=v["version"], **body).json()
    else:
        raise AssertionError("no roll waited for bob")
    v = view(c, t, gm)
    assert c.get(f"/api/tables/{t['id']}/log", headers=bearer(bob)).status_code == 403
    log = c.get(f"/api/tables/{t['id']}/log", headers=bearer(gm)).json()
    path = tmp_path / "table.json"
    path.write_text(json.dumps(log, ensure_ascii=False), "utf-8")
    resumed = load_log(path)  # what ikusa play --load does
    waiting = resumed.awaiting()
    assert isinstance(waiting, DiceRequest) and waiting.roller == "kuro"
    by_id = {u["id"]: u for u in resumed.state.summary()["units"]}
    for u in v["units"]:
        assert by_id[u["id"]]["vigor"] == u["vigor"] and by_id[u["id"]]["wounds"] == u["wounds"]
    r = c.post("/api/tables/import", json=log)
    assert r.status_code == 201, r.text
    copy = r.json()
    cv = view(c, copy, copy["tokens"]["gm"])
    assert _units(cv) == _units(v) and cv["pending"]["kind"] == "dice" and cv["pending"]["roller"] == "kuro"
    assert c.post("/api/tables/import", json={"format": "nonsense"}).status_code == 422


@pytest.mark.parametrize("writers", [6])
def test_racing_writers_one_wins_none_lost_none_twice(db_url: str, writers: int) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    service = TableService(engine, Hub())
    created = service.create_document(AMBUSH, seed=2)
    gm = Principal(created.id, "gm")
    v = service.view(gm)
    key = v["pending"]["options"][-1]["key"]
    results: list[str] = []
    barrier = threading.Barrier(writers)

    def write() -> None:
        barrier.wait()
        try:
            service.act(gm, v["version"], action=key)
            results.append("ok")
        except Conflict:
            results.append("409")

    threads = [threading.Thread(target=write) for _ in range(writers)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(results) == ["409"] * (writers - 1) + ["ok"]
    # a second service (another process) on the same database sees exactly one new entry
    other = TableService(engine, Hub())
    after = other.view(gm)
    assert after["version"] == service.view(gm)["version"] > v["version"]
    with pytest.raises(Conflict):
        other.act(gm, v["version"], action=key)
    engine.dispose()


def test_hub_delivers_across_threads_and_coalesces() -> None:
    hub = Hub()

    async def main() -> list[int | None]:
        async with hub.subscribe("t1") as sub:
            assert hub.subscribers("t1") == 1
            threading.Thread(target=lambda: [hub.publish("t1", v) for v in (3, 4, 5)]).start()
            first = await sub.next(0, timeout=5)
            hub.publish("other", 99)  # another table's news is not ours
            nothing = await sub.next(5, timeout=0.2)
            return [first, sub.latest, nothing]

    first, latest, nothing = asyncio.run(main())
    assert first is not None and 3 <= first <= 5 and latest == 5 and nothing is None
    assert hub.subscribers("t1") == 0


def _answer(v: dict[str, Any]) -> dict[str, Any]:
    p = v["pending"]
    return {"roll": True} if p["kind"] == "dice" else {"action": p["options"][0]["key"]}


def test_a_forgotten_table_replays_to_the_same_view_and_watched_tables_stay_kept(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'ikusa.db'}")
    migrate(engine)
    hub = Hub()
    service = TableService(engine, hub)
    service._states.kept = 2
    watched = service.create_document(AMBUSH, seed=3)
    gm = Principal(watched.id, "gm")
    v = service.view(gm)
    v = service.act(gm, v["version"], **_answer(v))

    async def main() -> None:
        async with hub.subscribe(watched.id):  # a stream open in this process
            first = Principal(service.create_document(AMBUSH, seed=4).id, "gm")
            w = service.view(first)
            w = service.act(first, w["version"], **_answer(w))
            service.create_document(AMBUSH, seed=5)
            assert service._states.peek(first.table_id) is not None  # 2 unwatched tables: kept
            service.create_document(AMBUSH, seed=6)
            assert service._states.peek(first.table_id) is None  # the least recently used, forgotten
            assert service.views.peek(first, 0) is None  # with its views
            assert service._states.peek(watched.id) is not None  # watched: never forgotten
            assert len(service._states) == 2 + 1
            assert service.view(first) == w  # replayed from the store: the same view
            again = service.act(first, w["version"], **_answer(w))
            assert again["version"] == w["version"] + 1
            assert TableService(engine, Hub()).view(first) == again  # as a fresh process replays it

    asyncio.run(main())
    assert service.view(gm) == v
    engine.dispose()
