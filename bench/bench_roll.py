"""Rolls per second of the dice bot through the public API ``ikusa.roll``, beside d20.

Run: ``python -m bench.bench_roll [--seconds S] [--rounds N]`` (the anchor needs the
``bench`` extra: ``pip install -e '.[bench]'``).  For each command, ikusa and the anchor
**d20** (Avrae's dice library, the same roll in its syntax: ``2d6>=7``) are timed in the same
process, interleaved round by round (``S`` seconds each per round), and the median and
best rounds are printed with the ratio of the medians (issue #12, target 4: ≥ 1, aim 2).
ikusa draws from one seeded :class:`RandomSource`, so every roll is a real roll.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable

import ikusa
from bench.timing import per_second
from ikusa.dice.source import RandomSource

#: (system, ikusa command, the same roll for d20 or None)
COMMANDS: list[tuple[str | None, str, str | None]] = [
    (None, "2D6>=7", "2d6>=7"),
    ("maai", "2D10+3>=11", "2d10+3>=11"),
    (None, "2D6+1D4-2>=8", "2d6+1d4-2>=8"),
    (None, "5B6>=4", None),
    (None, "3U6[6]", None),
    ("maai", "2D10+3>=11FB", None),
    ("sengensyou", "DP3+7>=12", None),
]


def _ikusa(command: str, system: str | None) -> Callable[[], object]:
    source = RandomSource(20261129)

    def once() -> object:
        return ikusa.roll(command, system, dice=source)

    return once


def _d20(expr: str) -> Callable[[], object] | None:
    try:
        import d20
    except ImportError:
        return None

    def once() -> object:
        return d20.roll(expr)

    return once


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.3, help="time per figure per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    if _d20("1d6") is None:
        print("d20 is not installed (pip install -e '.[bench]'): the anchor is skipped")
    print(f"rolls/s, {args.rounds} interleaved rounds of {args.seconds:g} s: median (best)")
    for system, command, expr in COMMANDS:
        ours = _ikusa(command, system)
        anchor = _d20(expr) if expr is not None else None
        mine: list[float] = []
        theirs: list[float] = []
        for _ in range(args.rounds):
            mine.append(per_second(ours, args.seconds)[0])
            if anchor is not None:
                theirs.append(per_second(anchor, args.seconds)[0])
        label = f"{system or 'DiceBot'} {command}"
        line = f"{label:<24} ikusa {statistics.median(mine):>9,.0f} ({max(mine):>9,.0f})"
        if theirs:
            ratio = statistics.median(mine) / statistics.median(theirs)
            line += (f"   anchor d20 {expr:<12} {statistics.median(theirs):>9,.0f} ({max(theirs):>9,.0f})"
                     f"   ×{ratio:.2f}")
        print(line)


if __name__ == "__main__":
    main()
