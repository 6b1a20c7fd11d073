"""Real ``ikusa serve`` processes on loopback and an SSE reader (TestClient does not deliver
cross-request SSE, so live updates are tested against uvicorn itself)."""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """One ``ikusa serve`` process (started by :meth:`start`, ended by its pid only)."""

    def __init__(self, db: str, port: int | None = None) -> None:
        self.db = db
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120.0) -> Server:
        cmd = [sys.executable, "-c", "from ikusa.cli.main import app; app()", "serve", "--port", str(self.port),
               "--db", self.db, "--example", "none"]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"ikusa serve exited: {err}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("ikusa serve did not become healthy")

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)


class SSEReader:
    """Reads an SSE stream in a thread; events arrive in :attr:`events` as (event, data, raw)."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.token = token
        self.events: queue.Queue[tuple[str, Any, str]] = queue.Queue()
        self.raw: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.connected = threading.Event()
        self.dropped = threading.Event()
        self.ended = threading.Event()  # the stream is over (the server ended it, or it went away)

    def start(self) -> SSEReader:
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            self._read()
        except httpx.TransportError:  # the server went away (the kill -9 tests): the stream ends
            self.dropped.set()
        finally:
            self.ended.set()

    def _read(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "text/event-stream"}
        with httpx.Client(timeout=httpx.Timeout(5, read=None)) as client, \
                client.stream("GET", self.url, headers=headers) as r:
            self.connected.set()
            event, data = "message", []
            for line in r.iter_lines():
                if self._stop.is_set():
                    return
                self.raw.append(line)
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].lstrip())
                elif line == "" and data:
                    text = "\n".join(data)
                    self.events.put((event, json.loads(text), text))
                    event, data = "message", []

    def wait_version(self, version: int, timeout: float = 10.0) -> dict[str, Any]:
        """The first ``view`` event at ``version`` or later."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no view at version {version} within {timeout}s")
            event, data, _ = self.events.get(timeout=left)
            if event == "view" and data["version"] >= version:
                out: dict[str, Any] = data
                return out

    def close(self) -> None:
        self._stop.set()


def post(server: Server, path: str, token: str | None, body: dict[str, Any]) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.post(server.url + path, json=body, headers=headers, timeout=30)


def get(server: Server, path: str, token: str) -> dict[str, Any]:
    r = httpx.get(server.url + path, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out
