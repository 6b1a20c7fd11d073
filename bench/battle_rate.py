"""Time whole battles of one example with one AI policy: the driver of ``bench_sengensyou``
and ``bench_fantasy``.

It imports nothing but ``ikusa`` (and the standard library), so :mod:`bench.baseline` runs
this very file's text in the baseline's tree as well as in this checkout: both sides are
timed by the same code.  As a script::

    python bench/battle_rate.py EXAMPLE POLICY BATTLES [--mode state|combat] [--warmup K]

prints one JSON line: CPU and wall seconds of the timed battles, their decisions, and a
digest of every battle's final summary (equal digests = both sides fought the same battles).

Modes: ``state`` drives the bare GameState (``pending`` / ``policy.choose`` / ``apply``, as
the byte-identity guard's bench cases do); ``combat`` goes through ``Combat.push``, which
records every decision and its dice (the cost of undo/replay/save).  Battle ``i`` uses seed
``i`` for both the policy's rng and the dice; ``--warmup`` battles (other seeds) run first,
untimed, so both sides are measured warm.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any


def battles(example: str, policy_name: str, count: int, mode: str = "state", warmup: int = 2) -> dict[str, Any]:
    """Run ``count`` seeded battles of ``example``; their timing, decisions and digest."""
    from ikusa.dice.source import RandomSource
    from ikusa.engine.runner import MAX_DECISIONS, load_encounter, policy_for

    loaded = load_encounter(example)

    def one(seed: int) -> tuple[int, Any]:
        policy = policy_for(loaded.module, policy_name)
        rng = random.Random(seed)
        dice = RandomSource(seed)
        n = 0
        if mode == "combat":
            combat = loaded.new_combat()
            while (d := combat.pending()) is not None and n < MAX_DECISIONS:
                combat.push(policy.choose(combat.state, d, rng), dice)
                n += 1
            return n, combat.state
        state = loaded.module.new_state(loaded.encounter)
        while (d := state.pending()) is not None and n < MAX_DECISIONS:
            state.apply(policy.choose(state, d, rng), dice)
            n += 1
        return n, state

    for seed in range(10**6, 10**6 + warmup):
        one(seed)
    finals = []
    decisions = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for seed in range(1, count + 1):
        n, state = one(seed)
        decisions += n
        finals.append(state)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    digest = hashlib.sha256()
    for state in finals:
        digest.update(json.dumps(state.summary(), ensure_ascii=False, sort_keys=True).encode())
    return {"battles": count, "cpu": cpu, "wall": wall, "decisions": decisions, "digest": digest.hexdigest()[:16]}


#: A deliberate rule change since the baseline: the commit that made it and why (issue, rule id).
RuleChange = tuple[str, str]


def compare(system: str, cases: list[tuple[str, str, str]], count: int, rounds: int, baseline: bool = True,
            warmup: int = 2, changes: Mapping[tuple[str, str], Sequence[RuleChange]] | None = None) -> None:
    """Print battles/s (CPU) of each (example, policy, mode) case: the baseline of issue #12
    and this checkout, one subprocess per side, case and round, interleaved; the median of
    ``rounds`` rounds and the ratio (from :mod:`bench.baseline`).

    ``changes`` names, per (example, policy), the deliberate rule changes since the baseline that
    make the sides fight different battles (oldest first).  When the digests differ, the line says
    whether those commits account for it: the tree just before the first one fights the baseline's
    battles and the tree of the last one fights this checkout's (checked in this run), or else
    that the difference is unexplained."""
    from bench.baseline import BASELINE, checkout, current_tree, interleaved, run_python, summary

    code = Path(__file__).read_text("utf-8")
    trees = {"current": current_tree()}
    if baseline:
        trees = {f"baseline {BASELINE}": checkout(), **trees}
    anchor = f"baseline {BASELINE}" if baseline else None
    print(f"{system} battles/s (CPU time), {count} seeded battles per figure, median of {rounds} interleaved "
          f"rounds, one subprocess per side, case and round")
    for example, policy, mode in cases:
        seen: dict[str, dict[str, Any]] = {}
        argv = [f"examples/{system}/{example}.yaml", policy, str(count), "--mode", mode, "--warmup", str(warmup)]
        figures = interleaved(rounds, {name: partial(_side, run_python, tree, code, argv, seen, name)
                                       for name, tree in trees.items()})
        decisions = {name: out["decisions"] / count for name, out in seen.items()}
        same = len({out["digest"] for out in seen.values()}) == 1
        print(f"{system} {example} {policy}-vs-{policy} ({mode}; "
              f"{' / '.join(f'{d:.1f}' for d in decisions.values())} decisions per battle; "
              + ("same battles on both sides)" if same else "THE SIDES FOUGHT DIFFERENT BATTLES)"))
        if not same and anchor is not None:
            known = (changes or {}).get((example, policy), ())
            print(_difference(run_python, code, argv, known, seen[anchor]["digest"], seen["current"]["digest"]))
        for line in summary(figures, "battles/s", anchor=anchor):
            print(line)
        if not same and anchor is not None:  # the same work per decision, at least: say that ratio too
            rate = {name: statistics.median(v) * decisions[name] for name, v in figures.items()}
            print(f"  decisions/s: baseline {rate[anchor]:,.0f}, current {rate['current']:,.0f}  "
                  f"x{rate['current'] / max(rate[anchor], 1e-9):.2f} (battles/s x decisions per battle)")


def _difference(run_python: Callable[[Path, str, list[str]], str], code: str, argv: list[str],
                known: Sequence[RuleChange], base_digest: str, current_digest: str) -> str:
    """Why the sides fought different battles: the deliberate rule changes ``known`` (checked:
    the parent of the first fights the baseline's battles, the last fights this checkout's), or
    a loud line saying nothing known explains it."""
    from bench.baseline import checkout, current_tree

    if not known:
        return "  !! no deliberate rule change is known for this case: behaviour changed since the baseline"
    quick = [*argv[:-1], "0"]  # the same battles, no warm-up: only the digest is read
    parent = subprocess.run(["git", "-C", str(current_tree()), "rev-parse", "--short=7", f"{known[0][0]}^"],
                            capture_output=True, text=True, check=True).stdout.strip()
    before = json.loads(run_python(checkout(parent), code, quick))["digest"]
    after = json.loads(run_python(checkout(known[-1][0]), code, quick))["digest"]
    what = "; ".join(f"{commit}: {why}" for commit, why in known)
    if before == base_digest and after == current_digest:
        return (f"  the battles differ by deliberate rule change (checked: {known[0][0]}^ fights the baseline's "
                f"battles, {known[-1][0]} this checkout's): {what}. The baseline cannot fight the new battles, "
                "so battles/s compare battles of different length; decisions/s is printed too")
    return (f"  !! {what} does NOT account for the difference ({known[0][0]}^ digest {before}, baseline "
            f"{base_digest}; {known[-1][0]} digest {after}, current {current_digest}): behaviour changed since")


def rate_parser(prog: str, doc: str, battles: int, mode: str) -> argparse.ArgumentParser:
    """The options bench_fantasy and bench_sengensyou share: ``-n``, ``--rounds``, ``--mode``
    and ``--no-baseline`` (their defaults: ``battles`` and ``mode``)."""
    ap = argparse.ArgumentParser(prog=prog, description=doc.split("\n\n")[0])
    ap.add_argument("-n", "--battles", type=int, default=battles, help=f"seeded battles per figure (default {battles})")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the median is shown (default 3)")
    ap.add_argument("--mode", choices=("state", "combat", "both"), default=mode,
                    help=f"drive the bare GameState, or through Combat (records every step), or both (default {mode})")
    ap.add_argument("--no-baseline", action="store_true", help="time only this checkout")
    return ap


def modes_of(mode: str) -> tuple[str, ...]:
    """The modes a ``--mode`` value stands for."""
    return ("state", "combat") if mode == "both" else (mode,)


def _side(run_python: Callable[[Path, str, list[str]], str], tree: Path, code: str, argv: list[str],
          seen: dict[str, dict[str, Any]], name: str) -> float:
    """One side's round of one case: battles/s CPU (its JSON line is kept in ``seen``)."""
    out: dict[str, Any] = json.loads(run_python(tree, code, argv))
    seen[name] = out
    return float(out["battles"]) / max(float(out["cpu"]), 1e-9)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="time seeded battles of one example (one JSON line)")
    ap.add_argument("example", help="an encounter file")
    ap.add_argument("policy", choices=("random", "greedy"))
    ap.add_argument("battles", type=int)
    ap.add_argument("--mode", choices=("state", "combat"), default="state")
    ap.add_argument("--warmup", type=int, default=2)
    a = ap.parse_args(argv)
    print(json.dumps(battles(a.example, a.policy, a.battles, a.mode, a.warmup)))


if __name__ == "__main__":
    main()
