"""The lean SSE stream (:class:`ikusa.server.sse.EventStream`) on a real uvicorn in this process,
so the hub can be looked at: a client that goes ends its stream (its subscription is gone),
an idle stream sends keep-alive comments, and the headers are those of an event stream."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from ikusa.server import sse
from ikusa.server.app import create_app
from ikusa.server.settings import ServerSettings
from tests.server.helpers import AMBUSH, encounter_text


@pytest.fixture
def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Any]]:
    monkeypatch.setattr(sse, "PING", 0.2)  # idle check and keep-alive after 0.2 s (15 s when served)
    app = create_app(ServerSettings(db_url=str(tmp_path / "stream.db")))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}", app
    server.should_exit = True
    thread.join(10)


def _wait(cond: Any, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.02)
    return False


def test_a_stream_ends_when_its_client_goes_and_pings_while_idle(live: tuple[str, Any]) -> None:
    url, app = live
    t = httpx.post(f"{url}/api/tables", json={"encounter": encounter_text(AMBUSH), "seed": 3}).json()
    hub = app.state.hub
    lines: list[str] = []
    with httpx.Client(timeout=httpx.Timeout(5, read=5)) as client, client.stream(
            "GET", f"{url}/api/tables/{t['id']}/events",
            headers={"Authorization": f"Bearer {t['tokens']['spectator']}"}) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        assert r.headers["cache-control"] == "no-cache"
        assert "content-length" not in r.headers
        assert r.headers["referrer-policy"] == "no-referrer"  # the app's middleware still sees it
        for line in r.iter_lines():
            lines.append(line)
            if line == ": ping":
                break
        assert hub.subscribers(t["id"]) == 1
    assert lines[:3] == ["event: view", lines[1], f"id: {t['version']}"] and lines[1].startswith("data: {")
    assert ": ping" in lines  # an idle stream keeps its connection alive
    assert _wait(lambda: hub.subscribers(t["id"]) == 0), "the stream kept its subscription after the client went"


def test_a_forged_token_gets_403_before_any_stream(live: tuple[str, Any]) -> None:
    url, _app = live
    t = httpx.post(f"{url}/api/tables", json={"encounter": encounter_text(AMBUSH), "seed": 3}).json()
    r = httpx.get(f"{url}/api/tables/{t['id']}/events", headers={"Authorization": "Bearer forged"}, timeout=5)
    assert r.status_code == 403 and "error" in r.json()
    r = httpx.get(f"{url}/tables/{t['id']}/stream", headers={"Authorization": "Bearer forged"}, timeout=5)
    assert r.status_code == 403
