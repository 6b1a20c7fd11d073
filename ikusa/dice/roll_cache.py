"""A bounded cache of dice-bot commands for :func:`ikusa.roll` (issue #12).

A command's result is a pure function of the command and the dice it draws (dice are
injected everywhere; the evaluators keep no state).  So for each ``(system, command)`` the
cache learns, as the command is rolled, a small tree: which dice the command asks for
first (sides, count, purpose), then for each answer either the next request or the
finished :class:`RollResult`.  Rolling a cached command asks the dice source for exactly
the same dice in the same order, then copies the stored result: the command is not parsed
again, and the source (seeded, scripted or a person typing dice) sees the same requests as
without the cache, so every result and every seeded stream is byte-identical.

An answer the tree has not seen yet runs the system's evaluator with the dice already
drawn replayed first, and stores the new branch.  Bounds: at most
:data:`MAX_LEAVES_PER_COMMAND` results per command (a command with more outcomes is only
partly cached, and bypassed once it mostly misses) and :data:`MAX_LEAVES` results in all
(the oldest commands are dropped first).  The cache is per process and holds no object
ids; it only ever holds results the evaluator produced.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from ikusa.dice.result import RollResult, is_plain
from ikusa.dice.source import DiceSource

#: a system's command evaluator: (command, dice) -> result, ``None`` for a non-command
Evaluator = Callable[[str, DiceSource], RollResult | None]

#: results stored per command (2D6: 36, 3D6: 216, 2D10: 100, 4D6: 1,296)
MAX_LEAVES_PER_COMMAND = 2048
#: results stored in all; past it the oldest commands are dropped
MAX_LEAVES = 32768
#: after this many misses, a command that hits less than one time in four (5B6: 7,776
#: outcomes) or that is full and misses this many times more than it hits is no longer
#: looked up: it runs its evaluator directly, as without the cache
BYPASS_AFTER = 256

#: one dice request: (sides, count, purpose)
Request = tuple[int, int, str]


class _Leaf:
    __slots__ = ("result",)

    def __init__(self, result: RollResult | None) -> None:
        self.result = result


class _Draw:
    __slots__ = ("children", "request")

    def __init__(self, request: Request) -> None:
        self.request = request
        self.children: dict[tuple[int, ...], _Draw | _Leaf] = {}


class _Entry:
    __slots__ = ("bypass", "evaluate", "hits", "leaves", "misses", "root")

    def __init__(self, evaluate: Evaluator) -> None:
        self.evaluate = evaluate
        self.root: _Draw | _Leaf | None = None
        self.leaves = 0
        self.hits = 0
        self.misses = 0
        self.bypass = False


class _Replay:
    """The dice source the evaluator sees on a cache miss: the dice already drawn for this
    roll first (and the error the source raised, if it raised), then the real source; every
    request is logged for the tree."""

    __slots__ = ("error", "inner", "log", "pos", "prefix")

    def __init__(self, inner: DiceSource, prefix: list[tuple[Request, tuple[int, ...]]],
                 error: BaseException | None) -> None:
        self.inner = inner
        self.prefix = prefix
        self.error = error
        self.pos = 0
        self.log: list[tuple[Request, tuple[int, ...]]] = []

    def roll(self, sides: int, count: int = 1, purpose: str = "", roller: str = "") -> list[int]:
        request = (sides, count, purpose)
        if self.pos < len(self.prefix):
            expected, values = self.prefix[self.pos]
            if expected != request:  # pragma: no cover - an evaluator that is not a pure function
                raise AssertionError(f"dice request {request} differs from the cached {expected}")
            self.pos += 1
            self.log.append((request, values))
            return list(values)
        if self.error is not None:
            error, self.error = self.error, None
            raise error
        # the dice bot's commands name no roller: a caller's own source may predate ``roller=``
        inner = self.inner
        drawn = inner.roll(sides, count, purpose, roller=roller) if roller else inner.roll(sides, count, purpose)
        self.log.append((request, tuple(drawn)))
        return drawn


class RollCache:
    """``(system, command)`` → the command's learned dice tree (see the module docstring)."""

    def __init__(self) -> None:
        self._entries: dict[tuple[str | None, str], _Entry] = {}
        self._leaves = 0

    def clear(self) -> None:
        self._entries.clear()
        self._leaves = 0

    def __len__(self) -> int:
        """Results stored."""
        return self._leaves

    def run(self, system: str | None, command: str, dice: DiceSource,
            evaluator_for: Callable[[str | None], Evaluator]) -> RollResult | None:
        """``evaluator_for(system)(command, dice)``, answered from the cache where it can."""
        key = (system, command)
        entry = self._entries.get(key)
        if entry is None:
            entry = _Entry(evaluator_for(system))
        elif entry.bypass:
            return entry.evaluate(command, dice)
        node = entry.root
        prefix: list[tuple[Request, tuple[int, ...]]] = []
        error: BaseException | None = None
        while node is not None:
            if type(node) is not _Draw:
                entry.hits += 1
                result = cast(_Leaf, node).result
                return result.copy() if result is not None else None
            request = node.request
            try:
                values = tuple(dice.roll(*request))
            except Exception as exc:
                # what the evaluator does with a failing source is its business: replay it
                error = exc
                break
            prefix.append((request, values))
            node = node.children.get(values)
        replay = _Replay(dice, prefix, error)
        result = entry.evaluate(command, replay)
        misses = entry.misses = entry.misses + 1
        if misses >= BYPASS_AFTER and (entry.hits * 4 < misses or entry.misses > entry.hits + BYPASS_AFTER):
            entry.bypass = True
        elif entry.leaves < MAX_LEAVES_PER_COMMAND and (result is None or is_plain(result.extra)):
            self._store(key, entry, replay.log, result)
        return result

    def _store(self, key: tuple[str | None, str], entry: _Entry,
               log: list[tuple[Request, tuple[int, ...]]], result: RollResult | None) -> None:
        leaf = _Leaf(result.copy() if result is not None else None)
        if not log:
            entry.root = leaf
        else:
            if entry.root is None:
                entry.root = _Draw(log[0][0])
            node = entry.root
            for i, (request, values) in enumerate(log):
                if not isinstance(node, _Draw) or node.request != request:  # pragma: no cover - impure evaluator
                    return
                if i + 1 == len(log):
                    node.children[values] = leaf
                    break
                nxt = node.children.get(values)
                if nxt is None:
                    nxt = node.children[values] = _Draw(log[i + 1][0])
                node = nxt
        entry.leaves += 1
        self._leaves += 1
        if key not in self._entries:
            self._entries[key] = entry
        if self._leaves > MAX_LEAVES:
            self._evict(key)

    def _evict(self, keep: tuple[str | None, str]) -> None:
        """Drop the oldest commands until a quarter of the room is free again.  (Threads of
        one server may race here: the counts are then approximate, never the results.)"""
        target = MAX_LEAVES * 3 // 4
        for old in list(self._entries):
            if self._leaves <= target:
                break
            if old == keep:
                continue
            dropped = self._entries.pop(old, None)
            if dropped is not None:
                self._leaves -= dropped.leaves


def stats(cache: RollCache) -> dict[str, Any]:
    """Commands and results held (for the bench and tests)."""
    entries = cache._entries
    return {"commands": len(entries), "results": len(cache),
            "bypassed": sum(1 for e in entries.values() if e.bypass)}
