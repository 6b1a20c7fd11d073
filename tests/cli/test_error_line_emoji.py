"""Error lines are plain text: ``:x:`` or ``:bow:`` in a file name or field is never an emoji."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_error_line_keeps_colon_codes(tmp_path: Path) -> None:
    folder = tmp_path / "q:x:"
    folder.mkdir()
    bad = folder / "big.toml"
    bad.write_text('system = "maai"\nx = 1\n', "utf-8")
    out = subprocess.run([sys.executable, "-m", "ikusa.cli.main", "fight", str(bad)],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 2
    assert "q:x:" in out.stderr
    assert "❌" not in out.stderr
