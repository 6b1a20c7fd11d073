"""Typed dice for a waiting action (engine/continuation.py, issue #8 §1), shared by
``tests/engine/test_dice_wait.py`` and ``bench/bench_dice_request.py``: a battle stopped at
a dice-rolling decision, and the dice typed into it roll by roll."""

from __future__ import annotations

import random
import threading
from pathlib import Path

from ikusa.dice.source import RandomSource
from ikusa.engine.combat import Combat
from ikusa.engine.dice_request import DiceRequest
from ikusa.engine.driver import make_policy
from ikusa.engine.record import Entry
from ikusa.engine.runner import load_encounter


def midway(path: Path, seed: int = 3, min_dice: int = 1) -> tuple[Combat, Entry]:
    """A combat replayed to the first decision after half a greedy battle (``seed``) that
    rolls at least ``min_dice`` dice, and that decision (its action and its dice)."""
    loaded = load_encounter(path)
    full = loaded.new_combat()
    pol = make_policy(loaded.module, "greedy")
    rng, dice = random.Random(seed), RandomSource(seed)
    while not full.over:
        d = full.pending()
        assert d is not None
        full.push(pol.choose(full.state, d, rng), dice)
    i = next(j for j in range(len(full.record) // 2, len(full.record)) if len(full.record[j].dice) >= min_dice)
    c = loaded.new_combat()
    c.replay(full.record[:i])
    return c, full.record[i]


def type_all(c: Combat, values: list[int], on_thread: bool = False) -> int:
    """Type ``values`` roll by roll into the waiting action (each roll on a thread of its
    own with ``on_thread``, as a web server answers on a pool thread); the rolls typed."""
    rolls = 0
    rest = list(values)
    while c.partial is not None:
        req = c.awaiting()
        assert isinstance(req, DiceRequest)
        part, rest = rest[:req.count], rest[req.count:]
        if on_thread:
            t = threading.Thread(target=c.supply, args=(part,))
            t.start()
            t.join()
        else:
            c.supply(part)
        rolls += 1
    return rolls
