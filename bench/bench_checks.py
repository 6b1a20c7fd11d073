"""Speed of the check commands and the exact odds: ``python -m bench.bench_checks``.

Prints rolls/s of ``2D10+3>=11`` through ``ikusa.roll(..., system="maai")`` (seeded dice),
of the 千幻抄 ``SGS+2`` and ``DP3+7>=12`` commands, and the time to compute a full maai
odds table (TN 5…19 × modifiers −3…+5) without fate, with one fate and with two, from a
cold cache.
"""

from __future__ import annotations

from functools import partial

from bench.timing import once, per_second
from ikusa import api
from ikusa.dice.source import RandomSource
from ikusa.systems.maai import odds as maai_odds


def clear_odds() -> None:
    """Cold odds: forget the computed tables (older code had one cache, outcome_odds)."""
    getattr(maai_odds, "clear_caches", maai_odds.outcome_odds.cache_clear)()


def main() -> None:
    dice = RandomSource(1)
    for system, command in (("maai", "2D10+3>=11"), ("maai", "2D10+3>=11FB"), ("sengensyou", "SGS+2"),
                            ("sengensyou", "DP3+7>=12"), ("fantasy", "2D6+5>=12")):
        rate, n = per_second(partial(api.roll, command, system, dice=dice), 0.5)
        print(f"roll {system:<10} {command:<14} {rate:>10,.0f} rolls/s  ({n} calls)")
    for fate in (0, 1, 2):
        clear_odds()
        cells = len(maai_odds.MOD_RANGE) * len(maai_odds.TN_GRID)
        seconds = once(partial(maai_odds.success_table, fate))
        print(f"maai odds table, fate {fate}: {cells} cells in {seconds * 1000:.1f} ms (cold cache)")
    clear_odds()
    ms = once(lambda: api.odds("maai", "2D10+3>=11", fate=1)) * 1000
    print(f"ikusa.odds('maai', '2D10+3>=11', fate=1), cold: {ms:.1f} ms")
    ms = once(lambda: api.odds("sengensyou", "DP6+5>=20")) * 1000
    print(f"ikusa.odds('sengensyou', 'DP6+5>=20'):     {ms:.1f} ms")


if __name__ == "__main__":
    main()
