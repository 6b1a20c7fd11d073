"""Python's cyclic garbage collector in an ``ikusa serve`` process.

A collection of the oldest generation looks at every object the process holds and stops the
event loop while it does.  The start-up heap (FastAPI, pydantic, SQLAlchemy, the rules'
catalogues) is about 130 000 objects; under ``bench/bench_serve.py`` (PostgreSQL, 2 processes)
such collections came every few seconds and took 100 to 220 ms each (measured with
:data:`gc.callbacks`), a stall for every decision under way.  :func:`settle`, called once the
app is built, collects what start-up left and freezes the rest (:func:`gc.freeze`: never looked
at again, never freed; it lives as long as the process anyway), so a full pass sees only what the
tables made since.  The young generation's threshold is raised from Python's 700: a decision
makes thousands of short-lived objects, which then die before a collection instead of being
promoted and looked at again.  Measured the same way afterwards: no full pass in 13 s of the
bench, young collections about 4 ms, 0.2 s of collector time a minute instead of 1.2 s.
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
