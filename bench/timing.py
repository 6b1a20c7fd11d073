"""Shared timing helper for the bench scripts (they print figures; tests never time)."""

from __future__ import annotations

import time
from collections.abc import Callable


def per_second(fn: Callable[[], object], min_seconds: float = 1.0) -> tuple[float, int]:
    """Call ``fn`` repeatedly for at least ``min_seconds``; return (calls per second, calls)."""
    n = 0
    start = time.perf_counter()
    deadline = start + min_seconds
    while True:
        fn()
        n += 1
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start), n


def once(fn: Callable[[], object]) -> float:
    """Seconds one call of ``fn`` takes."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start
