"""Speed of whole fantasy battles: ``python -m bench.bench_fantasy``.

For each ``examples/fantasy/*.yaml`` encounter, prints battles per second with the
random-vs-random and greedy-vs-greedy policies, driven two ways:

* ``state``: the bare :class:`~ikusa.engine.protocol.GameState` (``pending`` / ``apply``);
* ``combat``: through :class:`~ikusa.engine.combat.Combat`, which records every decision
  and its dice (the cost of undo/replay/save).

Each battle starts from the encounter's initial state (its ``script:`` is not replayed) with
its own seed, so every measurement runs different battles; the average decision count per
battle is printed alongside.  Each figure is measured for about one second.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

from bench.timing import per_second
from ikusa.dice.source import RandomSource
from ikusa.engine.runner import MAX_DECISIONS, Loaded, load_encounter, policy_for

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "fantasy"
POLICIES = ("random", "greedy")


def battle_on_state(loaded: Loaded, policy_name: str, seed: int) -> int:
    """One battle on the bare state; returns the number of decisions taken."""
    policy = policy_for(loaded.module, policy_name)
    state = loaded.module.new_state(loaded.encounter)
    rng = random.Random(seed)
    dice = RandomSource(seed)
    n = 0
    while (decision := state.pending()) is not None and n < MAX_DECISIONS:
        state.apply(policy.choose(state, decision, rng), dice)
        n += 1
    return n


def battle_on_combat(loaded: Loaded, policy_name: str, seed: int) -> int:
    """One battle through :class:`Combat` (every step recorded); returns the decision count."""
    policy = policy_for(loaded.module, policy_name)
    combat = loaded.new_combat()
    rng = random.Random(seed)
    dice = RandomSource(seed)
    n = 0
    while (decision := combat.pending()) is not None and n < MAX_DECISIONS:
        combat.push(policy.choose(combat.state, decision, rng), dice)
        n += 1
    return n


def measure(run: Callable[[Loaded, str, int], int], loaded: Loaded, policy_name: str,
            seconds: float) -> tuple[float, float]:
    """(battles per second, mean decisions per battle) over about ``seconds``."""
    seeds = iter(range(1, 10**9))
    decisions: list[int] = []

    def one() -> None:
        decisions.append(run(loaded, policy_name, next(seeds)))

    rate, _ = per_second(one, seconds)
    return rate, sum(decisions) / len(decisions)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    seconds = float(args[0]) if args else 1.0
    files = sorted(EXAMPLES.glob("*.yaml"))
    print(f"fantasy battles per second ({seconds:g} s per figure; state = bare GameState, "
          "combat = recorded through Combat)")
    for path in files:
        loaded = load_encounter(path)
        for policy_name in POLICIES:
            s_rate, s_dec = measure(battle_on_state, loaded, policy_name, seconds)
            c_rate, c_dec = measure(battle_on_combat, loaded, policy_name, seconds)
            overhead = (s_rate / c_rate - 1) * 100 if c_rate else float("nan")
            print(f"{path.name:<22} {policy_name}-vs-{policy_name:<7} state {s_rate:>8,.0f}/s "
                  f"({s_dec:5.1f} decisions)   combat {c_rate:>8,.0f}/s ({c_dec:5.1f} decisions)   "
                  f"Combat time per battle {overhead:+.0f}%")


if __name__ == "__main__":
    main()
