"""Battles per second of the fantasy engine: issue #12's baseline beside this checkout.

Run: ``python -m bench.bench_fantasy [-n BATTLES] [--rounds R] [--mode state|combat|both]
[--no-baseline] [--calls]``.  For each ``examples/fantasy/*.yaml`` encounter and AI (random-vs-random,
greedy-vs-greedy) it times ``BATTLES`` seeded battles in the baseline tree (commit 8aba570,
:mod:`bench.baseline`) and in this checkout, one subprocess each, interleaved round by round,
and prints the median battles/s (CPU time) of the rounds with the ratio; both sides run the
same driver (:mod:`bench.battle_rate`) and the line says whether they fought the same battles;
where they did not, it says which deliberate rule change (:data:`RULE_CHANGES`) accounts for it,
checked in the same run, and adds the decisions/s ratio.

Modes: ``state`` = the bare GameState (``pending`` / ``apply``); ``combat`` = through
:class:`~ikusa.engine.combat.Combat`, which records every decision and its dice (the cost of
undo/replay/save).  Each battle starts from the encounter's initial state (its ``script:`` is
not replayed).

``--calls`` adds, per case, the Python calls per decision under cProfile of each side (the
same seeded battles once more, state mode): a figure the shared machine's load does not move.
"""

from __future__ import annotations

import json
from pathlib import Path

from bench.battle_rate import RuleChange, compare, modes_of, rate_parser

EXAMPLES = tuple(sorted(p.stem for p in (Path(__file__).resolve().parents[1] / "examples" / "fantasy").glob("*.yaml")))
POLICIES = ("random", "greedy")

#: Deliberate rule changes since the baseline that change a case's seeded battles (commit, why):
#: the bench checks that they, and nothing else, account for the different battles.
RULE_CHANGES: dict[tuple[str, str], tuple[RuleChange, ...]] = {
    ("corridor_ambush", "random"): (
        ("3247657", "issue #13 made 全力移動 (run:fore|rear, F-R08: a front-row character runs to its unit's "
                    "other front) a legal option; corridor_ambush has two fronts, so the random AI's lists "
                    "are longer and it draws other moves"),
    ),
}


def main(argv: list[str] | None = None) -> None:
    ap = rate_parser("python -m bench.bench_fantasy", __doc__ or "", battles=60, mode="both")
    ap.add_argument("--calls", action="store_true", help="also Python calls per decision under cProfile")
    a = ap.parse_args(argv)
    modes = modes_of(a.mode)
    examples = EXAMPLES
    if not a.no_baseline:  # examples added since the baseline (focus_fire) have nothing to compare with
        from bench.baseline import checkout

        examples = tuple(ex for ex in EXAMPLES if (checkout() / "examples" / "fantasy" / f"{ex}.yaml").exists())
    cases = [(ex, pol, mode) for ex in examples for pol in POLICIES for mode in modes]
    print(f"load average at the start: {_load()}")
    compare("fantasy", cases, a.battles, a.rounds, baseline=not a.no_baseline, changes=RULE_CHANGES)
    if a.calls:
        calls(examples, min(a.battles, 20), baseline=not a.no_baseline)
    print(f"load average at the end: {_load()}")


#: run in each tree: Python calls per decision of seeded state-driven battles under cProfile
_CALLS = """
import cProfile, json, pstats, random, sys
from ikusa.dice.source import RandomSource
from ikusa.engine.runner import MAX_DECISIONS, load_encounter, policy_for
loaded = load_encounter(sys.argv[1])
prof = cProfile.Profile()
decisions = 0
for seed in range(1, int(sys.argv[3]) + 1):
    policy = policy_for(loaded.module, sys.argv[2])
    rng, dice = random.Random(seed), RandomSource(seed)
    prof.enable()
    state = loaded.module.new_state(loaded.encounter)
    n = 0
    while (d := state.pending()) is not None and n < MAX_DECISIONS:
        state.apply(policy.choose(state, d, rng), dice)
        n += 1
    prof.disable()
    decisions += n
print(json.dumps({"calls": sum(v[1] for v in pstats.Stats(prof).stats.values()), "decisions": decisions}))
"""


def calls(examples: tuple[str, ...], count: int, baseline: bool = True) -> None:
    """Print each side's Python calls per decision (cProfile) for every example and AI."""
    from bench.baseline import BASELINE, checkout, current_tree, run_python

    trees = {"current": current_tree()}
    if baseline:
        trees = {f"baseline {BASELINE}": checkout(), **trees}
    print(f"Python calls per decision (cProfile, {count} seeded battles, state mode; load-independent)")
    for ex in examples:
        for pol in POLICIES:
            per = {}
            for name, tree in trees.items():
                out = json.loads(run_python(tree, _CALLS, [f"examples/fantasy/{ex}.yaml", pol, str(count)]))
                per[name] = out["calls"] / max(out["decisions"], 1)
            line = " / ".join(f"{name} {v:,.0f}" for name, v in per.items())
            if baseline:
                line += f"  (÷{per[f'baseline {BASELINE}'] / per['current']:.2f})"
            print(f"  {ex} {pol}: {line}")


def _load() -> str:
    """The 1/5/15-minute load averages (the machine is shared: say it beside the figures)."""
    try:
        return " ".join(Path("/proc/loadavg").read_text("utf-8").split()[:3])
    except OSError:
        return "unknown"


if __name__ == "__main__":
    main()
