"""Dice sources: where the numbers come from.

Every part of ikusa draws dice through a :class:`DiceSource`, never from a global RNG, so
a roll can come from a seeded RNG (:class:`RandomSource`), a scripted sequence for tests
and replays (:class:`ScriptedSource`), or a person typing values read off physical dice
(:class:`ManualSource`).  :class:`RecordingSource` wraps any source and keeps what was
drawn, which is how a combat log stores its dice.

>>> src = ScriptedSource([7, 7])
>>> src.roll(10, 2)
[7, 7]
>>> src.remaining
0
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Protocol, cast

from ikusa.engine.errors import DiceError

#: one die as drawn: (value, sides)
Die = tuple[int, int]


class DiceSource(Protocol):
    """Anything that can roll ``count`` dice of ``sides`` faces."""

    def roll(self, sides: int, count: int = 1, purpose: str = "", roller: str = "") -> list[int]:
        """Return ``count`` values, each in ``1..sides``. ``purpose`` is a human hint
        (for example ``"源三郎 横斬り 命中"``) shown to a person typing dice; ``roller`` says
        who rolls them (a unit id, or ``"GM"``; ``""`` = whoever is deciding).  A source
        never lets ``roller`` change which values it draws."""
        ...


class RandomSource:
    """Pseudo-random dice from a private, seeded :class:`random.Random`."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._bits = self._rng.getrandbits

    def roll(self, sides: int, count: int = 1, purpose: str = "", roller: str = "") -> list[int]:
        if not _FAST_RANDINT or not 1 <= sides <= MAX_SIDES or not 0 <= count <= MAX_COUNT:
            _check_request(sides, count)
            r = self._rng.randint
            return [r(1, sides) for _ in range(count)]
        return randint_draws(self._bits, sides, count)

    def pair(self, sides: int) -> tuple[int, int]:
        """``tuple(roll(sides, 2))``, the same two draws, for a hot path that knows ``sides``
        is valid and has no purpose to show (a seeded source ignores it): one call instead of
        two and no list (issue #12; tests/dice/test_pair.py checks it against :meth:`roll`)."""
        if not _FAST_RANDINT:
            r = self._rng.randint
            return r(1, sides), r(1, sides)
        bits = self._bits
        k = sides.bit_length()
        a = bits(k)
        while a >= sides:
            a = bits(k)
        b = bits(k)
        while b >= sides:
            b = bits(k)
        return a + 1, b + 1


def randint_draws(bits: Callable[[int], int], sides: int, count: int) -> list[int]:
    """``count`` draws of ``randint(1, sides)`` from ``getrandbits`` (= 1 +
    ``_randbelow_with_getrandbits(sides)``) without its layers of calls: the same seed gives the
    same sequence (tests/systems/maai/test_perf_dice.py)."""
    k = sides.bit_length()
    out = []
    for _ in range(count):
        v = bits(k)
        while v >= sides:
            v = bits(k)
        out.append(v + 1)
    return out


class ScriptedSource:
    """Dice taken in order from a fixed list; running out or a value outside the die's
    range is a :class:`DiceError`.

    ``fallback`` (optional) is used once the script is exhausted instead of raising.
    """

    def __init__(self, values: Iterable[int], fallback: DiceSource | None = None) -> None:
        if isinstance(values, str | bytes):
            raise DiceError(f"scripted dice must be a list of whole numbers, not the text {values!r}")
        # checked as objects: compiled (mypyc, setup.py), a list typed list[int] would turn True
        # into 1 and refuse "a" with a TypeError before the check could name them
        raw: list[object] = list(values)
        for i, v in enumerate(raw):
            if not isinstance(v, int) or isinstance(v, bool):
                raise DiceError(f"scripted die #{i + 1} is {v!r}, not a whole number")
        self._values = cast("list[int]", raw)
        self._pos = 0
        self.fallback = fallback

    @property
    def remaining(self) -> int:
        return len(self._values) - self._pos

    @property
    def consumed(self) -> int:
        return self._pos

    def roll(self, sides: int, count: int = 1, purpose: str = "", roller: str = "") -> list[int]:
        _check_request(sides, count)
        out: list[int] = []
        for _ in range(count):
            if self._pos >= len(self._values):
                if self.fallback is None:
                    what = f" for {purpose}" if purpose else ""
                    raise DiceError(
                        f"scripted dice ran out: needed a d{sides}{what} after {self._pos} dice"
                    )
                out.extend(self.fallback.roll(sides, 1, purpose, roller))
                continue
            v = self._values[self._pos]
            if not 1 <= v <= sides:
                raise DiceError(f"scripted die #{self._pos + 1} is {v}, outside 1..{sides} of a d{sides}")
            self._pos += 1
            out.append(v)
        return out


class ManualSource:
    """Dice typed by a person.  ``ask(sides, count, purpose)`` returns the values; it is
    called again (with the complaint in ``purpose``) while the answer is invalid,
    up to ``retries`` times."""

    def __init__(self, ask: Callable[[int, int, str], list[int]], retries: int = 5) -> None:
        self._ask = ask
        self._retries = retries

    def roll(self, sides: int, count: int = 1, purpose: str = "", roller: str = "") -> list[int]:
        _check_request(sides, count)
        prompt = purpose
        for _ in range(self._retries):
            values = list(self._ask(sides, count, prompt))
            if len(values) != count:
                prompt = f"{purpose} (need exactly {count} value(s), got {len(values)})"
                continue
            bad = [v for v in values if not 1 <= v <= sides]
            if bad:
                prompt = f"{purpose} (values must be 1..{sides}; got {bad})"
                continue
            return values
        raise DiceError(f"no valid dice typed for {count}d{sides} {purpose}".strip())


class RecordingSource:
    """Wraps a source and records every die it hands out as ``(value, sides)``."""

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.drawn: list[Die] = []

    def roll(self, sides: int, count: int = 1, purpose: str = "", roller: str = "") -> list[int]:
        values = self.inner.roll(sides, count, purpose, roller)
        self.drawn.extend((v, sides) for v in values)
        return values

    def take(self) -> list[Die]:
        """Return what was drawn since the last ``take`` and forget it."""
        out, self.drawn = self.drawn, []
        return out


MAX_SIDES = 10_000
MAX_COUNT = 200

#: ``random.Random.randint`` draws through ``_randbelow_with_getrandbits`` (CPython 3.11+):
#: only then does :meth:`RandomSource.roll` reproduce it with ``getrandbits`` directly
_FAST_RANDINT = random.Random._randbelow is random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]


def _check_request(sides: int, count: int) -> None:
    if sides < 1 or sides > MAX_SIDES:
        raise DiceError(f"a die must have 1..{MAX_SIDES} sides, not {sides}")
    if count < 0 or count > MAX_COUNT:
        raise DiceError(f"at most {MAX_COUNT} dice in one roll, not {count}")


def parse_dice_list(text: str) -> list[int]:
    """Parse ``"4,1,3"`` (commas and/or spaces) into ``[4, 1, 3]``.

    >>> parse_dice_list("4, 1 3")
    [4, 1, 3]
    """
    parts = [p for p in text.replace(",", " ").split() if p]
    try:
        return [int(p) for p in parts]
    except ValueError as exc:
        raise DiceError(f"dice must be whole numbers separated by commas: {text!r}") from exc
