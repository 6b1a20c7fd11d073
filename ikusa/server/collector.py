"""Python's cyclic garbage collector in an ``ikusa serve`` process.

A collection of the oldest generation looks at every object the process holds and stops the
event loop while it does.  The start-up heap (FastAPI, pydantic, SQLAlchemy, the rules'
catalogues) is about 130 000 objects.  :func:`settle`, called once the app is built, collects what
start-up left and freezes the rest (:func:`gc.freeze`: never looked at again, never freed; it
lives as long as the process anyway), so a full pass sees only what the tables made since.  The
young generation's threshold is raised from Python's 700: a decision makes thousands of
short-lived objects, which then die before a collection instead of being promoted and looked at
again.

Measured with :data:`gc.callbacks` in 13 s of ``bench/bench_serve.py`` (PostgreSQL, 2 processes,
20 tables), per process: before, about 100 young collections, 9 middle ones and a full pass of
105 to 150 ms (0.27 to 0.30 s of collector time in all); after, 5 young ones (at most 13 ms), one
middle one (45 to 60 ms) and no full pass (0.08 to 0.09 s).  A threshold of 2 000 instead gave
smaller middle pauses but a full pass of 100 ms in the same 13 s.
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
