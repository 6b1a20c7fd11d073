"""Shared fixtures."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from ikusa.engine import compiled
from ikusa.systems import registry

#: the modules this run imports compiled (mypyc, setup.py); empty in a pure-Python checkout
COMPILED = compiled.compiled_modules()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "pure_python: patches or subclasses classes and functions that setup.py compiles "
        "(mypyc refuses both); deselected in a compiled run, run on the pure-Python sources by "
        "tests/qa/test_pure_python.py")
    if os.environ.get("CI", "").lower() == "true" and not COMPILED and os.environ.get("IKUSA_PURE") != "1":
        # nothing may be skipped in CI (tests/services.py): a build that fell back to pure
        # Python would leave the compiled modules untested
        raise pytest.UsageError(
            "CI=true: the install fell back to pure Python (no C compiler, or mypyc failed: "
            "`pip install -v -e .` shows why); set IKUSA_PURE=1 to test pure Python on purpose")
    stale = compiled.stale_modules()
    if stale:
        raise pytest.UsageError(
            f"the compiled build is stale (a .py changed after its extension was built): {', '.join(stale)}. "
            "Rebuild with `pip install -e .` (or `IKUSA_PURE=1 pip install -e .` for pure Python); see README.")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not COMPILED:
        return
    # deselected, not skipped: they run on a pure-Python copy of the checkout in
    # tests/qa/test_pure_python.py, and nothing may be skipped in CI
    pure = [item for item in items if item.get_closest_marker("pure_python") is not None]
    if pure:
        config.hook.pytest_deselected(items=pure)
        items[:] = [item for item in items if item.get_closest_marker("pure_python") is None]


@pytest.fixture
def toy_system(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register the toy game of tests/engine as system ``toy`` for the generic drivers."""
    systems = dict(registry.SYSTEMS)
    systems["toy"] = registry.SystemInfo("toy", "toy", "-", "tests.engine.toysystem")
    monkeypatch.setattr(registry, "SYSTEMS", systems)
    yield
