"""Battles per second of the 千幻抄 engine: issue #12's baseline beside this checkout.

Run: ``python -m bench.bench_sengensyou [-n BATTLES] [--duel-factor K] [--rounds R]
[--mode state|combat|both] [--no-baseline] [--check]``.  For each example (``spellcard_duel``,
``party_battle``) and AI (random, greedy) it times seeded battles in the baseline tree (commit
8aba570, :mod:`bench.baseline`) and in this checkout, one subprocess each, interleaved round by
round, and prints the median battles/s (CPU time) of the rounds with the ratio; both sides run
the same driver (:mod:`bench.battle_rate`) and the line says whether they fought the same battles.

``BATTLES`` party battles per figure (default 60), and ``K`` × as many spell-card duels (default
3: a duel is about a third as long, 40 decisions against 130), median of 5 rounds by default.
Issue #12: with 20 battles a figure this checkout's side timed 40-80 ms of CPU, short enough for
one scheduler hiccup or one full garbage collection to move it by 20-30 %; these defaults time
every figure for a few hundred ms.  ``-n 20 --duel-factor 1 --rounds 3`` gives the old figures.

``--check`` also plays the battles in this process with the engine's invariants asserted on
every one (0 ≤ DP ≤ max, graze ≥ 0), so the bench doubles as a large property run.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from bench.battle_rate import compare, modes_of, rate_parser

EXAMPLES = ("spellcard_duel", "party_battle")
POLICIES = ("random", "greedy")
ROOT = Path(__file__).resolve().parents[1]


def check(n: int) -> None:
    """Play ``n`` battles per example and policy here, asserting the invariants on each."""
    from ikusa.dice.source import RandomSource
    from ikusa.engine.runner import load_encounter, policy_for, run_ai
    from ikusa.systems.sengensyou.state import SengensyouState

    for name in EXAMPLES:
        loaded = load_encounter(ROOT / "examples" / "sengensyou" / f"{name}.yaml")
        for pol in POLICIES:
            wins: Counter[str | None] = Counter()
            for seed in range(n):
                c = loaded.new_combat()
                run_ai(c, policy_for(loaded.module, pol), random.Random(seed), RandomSource(seed))
                st = c.state
                assert isinstance(st, SengensyouState)
                assert all(0 <= f.dp <= f.dp_max and f.graze >= 0 for f in st.fighters.values())
                wins[st.winner] += 1
            print(f"checked {name} {pol}: {n} battles, invariants hold; winners {dict(wins)}")


def main(argv: list[str] | None = None) -> None:
    ap = rate_parser("python -m bench.bench_sengensyou", __doc__ or "", battles=60, mode="state")
    ap.set_defaults(rounds=5)
    ap.add_argument("--duel-factor", type=int, default=3,
                    help="spellcard_duel fights this many times BATTLES (default 3: its battles are shorter)")
    ap.add_argument("--check", action="store_true", help="also assert the invariants on every battle here")
    a = ap.parse_args(argv)
    modes = modes_of(a.mode)
    for ex in EXAMPLES:
        count = a.battles * (a.duel_factor if ex == "spellcard_duel" else 1)
        cases = [(ex, pol, mode) for pol in POLICIES for mode in modes]
        compare("sengensyou", cases, count, a.rounds, baseline=not a.no_baseline)
    if a.check:
        check(a.battles)


if __name__ == "__main__":
    main()
