"""Rolls per second of the dice bot through the public API ``ikusa.roll``.

Run: ``python -m bench.bench_roll [--seconds S]``.  Prints one line per command; the maai
line is skipped with a note while ``ikusa.systems.maai.commands`` is not importable.
"""

from __future__ import annotations

import argparse
import importlib.util

import ikusa
from bench.timing import per_second
from ikusa.dice.source import RandomSource

COMMANDS = ["2D6>=7", "5B6>=4", "3U6[6]"]


def _bench(command: str, system: str | None, seconds: float) -> str:
    source = RandomSource(20261129)

    def once() -> object:
        return ikusa.roll(command, system, dice=source)

    rate, n = per_second(once, seconds)
    label = f"{system or 'DiceBot'} {command}"
    return f"{label:<24} {rate:>12,.0f} rolls/s  ({n} rolls)"


def _has_maai_commands() -> bool:
    try:
        return importlib.util.find_spec("ikusa.systems.maai.commands") is not None
    except ImportError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per command")
    args = parser.parse_args()
    for command in COMMANDS:
        print(_bench(command, None, args.seconds))
    if _has_maai_commands():
        print(_bench("2D10+3>=11", "maai", args.seconds))
    else:
        print("maai 2D10+3>=11          skipped: ikusa.systems.maai.commands is not importable yet")


if __name__ == "__main__":
    main()
