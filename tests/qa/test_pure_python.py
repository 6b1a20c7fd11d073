"""The pure-Python sources stay correct beside the compiled build (setup.py compiles the maai
engine's hot modules with mypyc; a machine without a C compiler runs the ``.py`` files).

In a compiled checkout the suite runs the extensions, so this test runs the pure-Python code: a
copy of the checkout without any extension, in a subprocess, where it runs
``tests/qa/test_byte_identity.py`` (every fixture: the same bytes as the compiled build gives
in the main run) and every test marked ``pure_python`` (the tests that patch or subclass
compiled classes, skipped in the compiled run).  In a pure-Python checkout the main run already
does all of that, and this test is skipped.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from ikusa.engine import compiled

ROOT = Path(__file__).resolve().parents[2]
#: what a pure-Python copy needs: the package, the tests and their data, the examples and the
#: pytest configuration
PARTS = ("ikusa", "tests", "examples", "bench", "pyproject.toml")


def _ignore(folder: str, names: list[str]) -> set[str]:
    return {n for n in names if n == "__pycache__" or any(n.endswith(s) for s in EXTENSION_SUFFIXES)}


def pure_copy(dest: Path) -> Path:
    """The checkout's sources in ``dest``, without any compiled extension."""
    for part in PARTS:
        src = ROOT / part
        if src.is_dir():
            shutil.copytree(src, dest / part, ignore=_ignore)
        else:
            shutil.copy2(src, dest / part)
    return dest


def run_pure(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1", IKUSA_PURE="1")
    return subprocess.run([sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True, check=False)


@pytest.mark.skipif(not compiled.compiled_modules(), reason="pure-Python checkout: the main run tests the .py files")
def test_the_pure_python_sources_give_the_same_bytes(tmp_path: Path) -> None:
    tree = pure_copy(tmp_path / "pure")
    where = run_pure(tree, "-c", "import ikusa.systems.maai.state as s, ikusa.engine.compiled as c; "
                                 "print(s.__file__); print(c.compiled_modules())")
    assert where.returncode == 0, where.stderr
    assert where.stdout.splitlines() == [str(tree / "ikusa" / "systems" / "maai" / "state.py"), "[]"]
    for args in (("tests/qa/test_byte_identity.py",), ("-m", "pure_python", "tests")):
        proc = run_pure(tree, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider", *args)
        assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
        summary = proc.stdout.strip().splitlines()[-1]
        assert re.search(r"\d+ passed", summary) and "skipped" not in summary, summary
