"""Real-browser tests of the web table: Playwright drives Debian's chromium against a real
``ikusa serve`` subprocess on loopback (one throw-away SQLite file for the session).

Screenshots are written to ``tests/browser/artifacts/`` (git-ignored; the path is printed).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.services import chromium_path

ARTIFACTS = Path(__file__).with_name("artifacts")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One ``ikusa serve`` process on loopback, restartable on the same port and database."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".log")

    def start(self) -> None:
        ikusa = Path(sys.executable).with_name("ikusa")
        cmd = [str(ikusa), "serve", "--host", "127.0.0.1", "--port", str(self.port),
               "--db", f"sqlite:///{self.db}", "--example", "none"]
        out = self.log.open("ab")
        self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, "NO_COLOR": "1"})
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"ikusa serve exited: {self.log.read_text('utf-8', 'replace')[-2000:]}")
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("ikusa serve did not become healthy in 90 s")

    def kill(self) -> None:
        """``kill -9``: nothing gets a chance to flush or clean up."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.proc = None

    def create(self, encounter: str, seed: int = 1) -> dict[str, Any]:
        r = httpx.post(self.base + "/api/tables", json={"encounter": encounter, "format": "yaml", "seed": seed},
                       headers={"Origin": self.base}, timeout=30)
        assert r.status_code == 201, r.text
        body: dict[str, Any] = r.json()
        return body

    def join(self, token: str) -> str:
        return f"{self.base}/join/{token}"


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("serve") / "ikusa.db")
    srv.start()
    try:
        yield srv
    finally:
        srv.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module (module scope: Playwright's sync API runs an event loop
    in this thread, which must be gone before later tests call ``asyncio.run``)."""
    exe = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    print(f"\nbrowser test screenshots: {ARTIFACTS}")
    return ARTIFACTS
