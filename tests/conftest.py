"""Shared fixtures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ikusa.systems import registry


@pytest.fixture
def toy_system(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register the toy game of tests/engine as system ``toy`` for the generic drivers."""
    systems = dict(registry.SYSTEMS)
    systems["toy"] = registry.SystemInfo("toy", "toy", "-", "tests.engine.toysystem")
    monkeypatch.setattr(registry, "SYSTEMS", systems)
    yield
