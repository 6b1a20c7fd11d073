"""Battles per second of the fantasy engine: issue #12's baseline beside this checkout.

Run: ``python -m bench.bench_fantasy [-n BATTLES] [--rounds R] [--mode state|combat|both]
[--no-baseline]``.  For each ``examples/fantasy/*.yaml`` encounter and AI (random-vs-random,
greedy-vs-greedy) it times ``BATTLES`` seeded battles in the baseline tree (commit 8aba570,
:mod:`bench.baseline`) and in this checkout, one subprocess each, interleaved round by round,
and prints the median battles/s (CPU time) of the rounds with the ratio; both sides run the
same driver (:mod:`bench.battle_rate`) and the line says whether they fought the same battles.

Modes: ``state`` = the bare GameState (``pending`` / ``apply``); ``combat`` = through
:class:`~ikusa.engine.combat.Combat`, which records every decision and its dice (the cost of
undo/replay/save).  Each battle starts from the encounter's initial state (its ``script:`` is
not replayed).
"""

from __future__ import annotations

from pathlib import Path

from bench.battle_rate import compare, modes_of, rate_parser

EXAMPLES = tuple(sorted(p.stem for p in (Path(__file__).resolve().parents[1] / "examples" / "fantasy").glob("*.yaml")))
POLICIES = ("random", "greedy")


def main(argv: list[str] | None = None) -> None:
    a = rate_parser("python -m bench.bench_fantasy", __doc__ or "", battles=60, mode="both").parse_args(argv)
    modes = modes_of(a.mode)
    examples = EXAMPLES
    if not a.no_baseline:  # examples added since the baseline (focus_fire) have nothing to compare with
        from bench.baseline import checkout

        examples = tuple(ex for ex in EXAMPLES if (checkout() / "examples" / "fantasy" / f"{ex}.yaml").exists())
    cases = [(ex, pol, mode) for ex in examples for pol in POLICIES for mode in modes]
    print(f"load average at the start: {_load()}")
    compare("fantasy", cases, a.battles, a.rounds, baseline=not a.no_baseline)
    print(f"load average at the end: {_load()}")


def _load() -> str:
    """The 1/5/15-minute load averages (the machine is shared: say it beside the figures)."""
    try:
        return " ".join(Path("/proc/loadavg").read_text("utf-8").split()[:3])
    except OSError:
        return "unknown"


if __name__ == "__main__":
    main()
