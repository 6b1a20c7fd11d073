"""The mypyc build (setup.py, issue #12 target 1): it falls back to pure Python with a message,
its stale extensions are found, and the compiled classes behave as the pure-Python ones where
mypyc's rules differ from Python's (these run on whichever build the suite runs on; the
pure-Python sources also run through tests/qa/test_pure_python.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from bench.bench_maai_duels import load_duel, run_battles
from ikusa.dice.source import ScriptedSource
from ikusa.engine import compiled
from ikusa.engine.errors import DiceError
from ikusa.systems.maai.breath import breath_limit
from ikusa.systems.maai.policies import GreedyPolicy

ROOT = Path(__file__).resolve().parents[2]
EXT = EXTENSION_SUFFIXES[0]


def fake_build(tmp_path: Path) -> Path:
    """A copy of setup.py and pyproject.toml with a package holding one 'compiled' module."""
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, tmp_path / name)
    pkg = tmp_path / "ikusa" / "systems" / "maai"
    pkg.mkdir(parents=True)
    (tmp_path / "ikusa" / "__init__.py").write_text("")
    (pkg / "state.py").write_text("X = 1\n")
    (pkg / f"state{EXT}").write_bytes(b"old build")
    (tmp_path / f"ikusa_compiled__mypyc{EXT}").write_bytes(b"old build")
    return tmp_path


def run_setup(tree: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tree,
                          env={**os.environ, **env}, capture_output=True, text=True, check=False)


@pytest.mark.parametrize(("env", "said"), [
    ({"IKUSA_PURE": "1"}, "ikusa: IKUSA_PURE is set: pure Python, nothing compiled"),
    ({"CC": "/nonexistent/cc"}, "ikusa: no C compiler found: pure Python, nothing compiled (same behaviour, slower)"),
], ids=["IKUSA_PURE", "no-compiler"])
def test_a_pure_python_build_says_so_and_leaves_no_old_extension(tmp_path: Path, env: dict[str, str],
                                                                 said: str) -> None:
    tree = fake_build(tmp_path)
    proc = run_setup(tree, **env)
    assert proc.returncode == 0, proc.stderr
    assert said in proc.stderr.splitlines()
    # no extension is left in front of its .py (nor mypyc's shared library)
    assert not [p.name for p in tree.rglob(f"*{EXT}")]
    assert (tree / "ikusa" / "systems" / "maai" / "state.py").exists()


def test_an_extension_older_than_its_source_is_stale(tmp_path: Path) -> None:
    pkg = tmp_path / "ikusa"
    (pkg / "engine").mkdir(parents=True)
    for name in ("events", "protocol"):
        (pkg / "engine" / f"{name}.py").write_text("")
        (pkg / "engine" / f"{name}{EXT}").write_bytes(b"")
    (pkg / f"orphan{EXT}").write_bytes(b"")  # no source beside it: not one of ikusa's modules
    os.utime(pkg / "engine" / f"events{EXT}", (1_000_000, 1_000_000))  # built before the .py was saved
    assert compiled.compiled_modules(pkg) == ["ikusa.engine.events", "ikusa.engine.protocol"]
    assert compiled.stale_modules(pkg) == ["ikusa.engine.events"]


def test_this_checkout_is_not_stale() -> None:
    """The suite's own guard (tests/conftest.py): the extensions it runs are those of the sources."""
    assert compiled.stale_modules() == []
    assert compiled.describe().startswith("compiled with mypyc" if compiled.compiled_modules() else "pure Python")


def test_a_python_subclass_of_the_greedy_ai_plays_by_its_own_threshold() -> None:
    """A subclass's ``min_odds`` is the one read (a ClassVar: compiled, a plain class attribute
    is an instance default a Python subclass cannot override).  Odds of 0.99 are never offered
    in the duel, so this AI never attacks and every duel runs to the 間合 cap: a draw."""

    class Timid(GreedyPolicy):
        min_odds = 0.99

    enc = load_duel()
    assert run_battles(enc, Timid(), 20).winners == Counter({None: 20})
    assert None not in run_battles(enc, GreedyPolicy(), 20).winners


def test_a_false_narrowed_flag_leaves_the_breath_limit_alone() -> None:
    """S-R27/S-G32: only a narrowed breath (not ``False``/``None``) is narrowed to 3 (compiled, a
    parameter typed ``bool | int | None`` would turn ``False`` into ``0``)."""
    assert breath_limit({}, False).value == 5
    assert breath_limit({}, None).value == 5
    assert breath_limit({}, True).value == 3
    assert breath_limit({}, 0).value == 3  # any value other than False/None counts as narrowed


@pytest.mark.parametrize(("values", "named"), [([3, True], "#2 is True"), ([2, "a"], "#2 is 'a'"),
                                               ([1.5], "#1 is 1.5")])
def test_scripted_dice_are_checked_as_given(values: list[object], named: str) -> None:
    with pytest.raises(DiceError, match=named):
        ScriptedSource(values)  # type: ignore[arg-type]
