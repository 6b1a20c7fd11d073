"""`ikusa serve` opens an example table on a fresh database and prints its links."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.server.live import free_port


def test_fresh_database_gets_the_example_table_and_its_links(tmp_path: Path) -> None:
    port = free_port()
    cmd = [sys.executable, "-c", "from ikusa.cli.main import app; app()", "serve", "--port", str(port),
           "--db", str(tmp_path / "fresh.db")]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines: list[str] = []
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            lines.append(line)
            if "ikusa serve on" in line:
                break
        out = "".join(lines)
        gm = re.search(r"GM:\s+(http://\S+/join/\S+)", out)
        assert gm is not None, out
        assert re.search(r"源三郎: http://\S+/join/\S+", out) and "spectator:" in out
        for _ in range(100):
            try:
                r = httpx.get(gm.group(1).replace("localhost", "127.0.0.1"), follow_redirects=False, timeout=2)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        assert r.status_code == 303 and r.headers["location"].startswith("/tables/")
    finally:
        proc.terminate()
        proc.wait(10)
