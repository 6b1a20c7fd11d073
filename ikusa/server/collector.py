"""Python's cyclic garbage collector in an ``ikusa serve`` process.

A collection of the oldest generation looks at every object the process holds and stops the
event loop while it does: with the start-up heap (FastAPI, pydantic, SQLAlchemy, the rules'
catalogues: about 130 000 objects) and the tables' states it took 100 to 200 ms, several times a
minute, and every decision under way waited for it (``bench/bench_serve.py``, its p95 and p99).
:func:`settle`, called once the app is built, collects what start-up left and freezes the rest
(:func:`gc.freeze`: never looked at again, never freed: it lives as long as the process anyway),
so a full pass sees only what the tables made since.  The young generation's threshold is raised
(Python's default is 700 allocations): a decision makes a few thousand short-lived objects, which
then die before a collection instead of being promoted and looked at again.
"""

from __future__ import annotations

import gc

#: allocations (less deallocations) between two collections of the youngest generation
YOUNG = 10_000


def settle() -> None:
    """Collect, freeze the survivors, and raise the young generation's threshold (see the module doc)."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG, older, oldest)
