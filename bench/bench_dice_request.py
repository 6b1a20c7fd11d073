"""The cost of dice requests (issue #8 §1): an action that stops for a person's dice is
parked where it rolled and goes on once they arrive (engine/continuation.py).  Where it
cannot go on (the dice arrive on another thread, as on a web server's pool) it falls back
to the old way: the state rebuilt by replaying every entry so far, and the action
re-applied from its start.  How much does each cost, beside the anchor (the same action
with software dice)?

For each example, a battle is played with the greedy AI to about half its length; then,
at that point, one decision that rolls dice is timed three ways:

* anchor: ``push(action)`` with software dice (what ``ikusa fight`` does, plus recording);
* request: ``push(action)`` with the roller on manual (parked at the roll) + ``supply(dice)``
  (goes on from there) — for all its typed rolls;
* replay: the same, each ``supply`` on another thread (rebuild by replay of every entry so
  far, the action re-applied from its start) — what every typed roll cost before;
* load: ``load_log`` of the saved battle with the action waiting (a process restart).

Run: ``python -m bench.bench_dice_request``.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ikusa.dice.source import ScriptedSource
from ikusa.engine.combat import Combat
from ikusa.engine.runner import load_encounter, load_log
from tests.engine.dice_wait import midway, type_all

ROOT = Path(__file__).resolve().parent.parent / "examples"
CASES = ["maai/duel.yaml", "maai/squad_battle.yaml", "sengensyou/party_battle.yaml", "fantasy/corridor_ambush.yaml"]


def _best(fn: Callable[[], float], repeat: int = 7) -> float:
    """The best of ``repeat`` runs of ``fn``, which returns the seconds of its timed part."""
    return min(fn() for _ in range(repeat))


def _timed(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def _midway(path: Path, seed: int) -> tuple[Combat, int]:
    """A battle played (greedy) to the first dice-rolling decision after half its length,
    that decision kept on the redo stack (its action and dice, to replay the same roll every time)."""
    c, entry = midway(path, seed)
    c.redo_stack = [entry]
    return c, len(c.record)


def main() -> None:
    print(f"{'example':32} {'entries':>7} {'anchor push':>12} {'stop+supply':>12} {'ratio':>6} "
          f"{'via replay':>11} {'load':>9} {'encounter':>9}")
    for name in CASES:
        _case(name)
    print("anchor = push with software dice; stop+supply = the same action parked at each roll for typed dice and "
          "going on once they are in; via replay = the same with the dice typed on another thread (state rebuilt by "
          "replaying every entry so far, action re-applied from its start, per typed roll: the cost before the "
          "continuation); load = load_log with the action waiting, beside loading the encounter alone.  A person "
          "types in seconds.")


def _case(name: str) -> None:
    c, n = _midway(ROOT / name, 3)
    target = c.redo_stack.pop()
    values = [v for v, _ in target.dice]

    def anchor() -> float:
        t = _timed(lambda: c.push(target.action, ScriptedSource(values)))
        c.pop()
        return t

    roller = target.actor

    def request() -> float:
        c.dice_override = "manual"
        t = _timed(lambda: _type_all(c, target.action, values))
        c.dice_override = None
        c.pop()
        return t

    t_anchor = _best(anchor)
    rolls = _count_rolls(c, target.action, values)
    t_request = _best(request)

    def replayed() -> float:
        c.dice_override = "manual"
        t = _timed(lambda: _type_all(c, target.action, values, on_thread=True))
        c.dice_override = None
        c.pop()
        return t

    t_replay = _best(replayed, 3)
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "log.json"
        c.dice_override = "manual"
        c.push(target.action)
        c.save(log)
        c.dice_override = None
        c.undo()
        t_load = _best(lambda: _timed(lambda: load_log(log)), 3)
    t_enc = _best(lambda: _timed(lambda: load_encounter(ROOT / name).new_combat()), 3)
    print(f"{name:32} {n:>7} {t_anchor * 1e3:>10.2f}ms {t_request * 1e3:>10.2f}ms "
          f"{t_request / t_anchor:>5.1f}× {t_replay * 1e3:>9.2f}ms {t_load * 1e3:>7.1f}ms {t_enc * 1e3:>7.1f}ms   "
          f"({rolls} typed roll(s), {roller})")


def _type_all(c: Combat, action: str, values: list[int], on_thread: bool = False) -> int:
    """Push ``action`` in table mode and type ``values`` roll by roll (each on a thread of
    its own with ``on_thread``: the fallback by replay); the number of rolls."""
    c.push(action)
    return type_all(c, values, on_thread)


def _count_rolls(c: Combat, action: str, values: list[int]) -> int:
    c.dice_override = "manual"
    rolls = _type_all(c, action, values)
    c.dice_override = None
    c.pop()
    return rolls


if __name__ == "__main__":
    main()
