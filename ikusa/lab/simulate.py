"""Balance lab: run one encounter many times and count who wins.

A designer changes a rule option (``--set options.fate.lethal_exception=false``) or a unit
(``--set units.0.abilities.yu=3``) and sees what it does to the win rates, over many
seeded battles.  Pure: seeds in, numbers out; the CLI shows progress.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from math import sqrt
from pathlib import Path
from typing import Any

import yaml

from ikusa.dice.source import RandomSource
from ikusa.engine.encounter import read_document, split_document
from ikusa.engine.errors import InputError
from ikusa.engine.runner import Loaded, policy_for, resolve_system, run_ai, run_script

#: one run's ceiling: a typo like ``-n 10000000000`` would otherwise run for days
MAX_BATTLES = 1_000_000


@dataclass(slots=True)
class SimReport:
    battles: int
    wins: Counter[str] = field(default_factory=Counter)
    decisions: int = 0
    events: int = 0

    def rate(self, side: str) -> float:
        return self.wins[side] / self.battles if self.battles else 0.0

    def interval(self, side: str) -> tuple[float, float]:
        """95 % Wilson score interval of a side's win rate."""
        n = self.battles
        if n == 0:
            return (0.0, 0.0)
        p = self.rate(side)
        z = 1.96
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        return (max(0.0, centre - half), min(1.0, centre + half))

    def to_json(self) -> dict[str, Any]:
        return {
            "battles": self.battles,
            "wins": {k: self.wins[k] for k in sorted(self.wins)},
            "win_rate": {k: self.rate(k) for k in sorted(self.wins)},
            "win_rate_95": {k: list(self.interval(k)) for k in sorted(self.wins)},
            "mean_decisions": self.decisions / self.battles if self.battles else 0.0,
            "mean_events": self.events / self.battles if self.battles else 0.0,
        }


def apply_overrides(body: dict[str, Any], overrides: Iterable[str], source: str) -> dict[str, Any]:
    """Apply ``path.to.key=value`` overrides (value parsed as YAML) to an encounter body.

    >>> apply_overrides({"options": {"a": 1}}, ["options.a=2", "options.b.c=true"], "<t>")
    {'options': {'a': 2, 'b': {'c': True}}}
    """
    out: dict[str, Any] = yaml.safe_load(yaml.safe_dump(body))  # deep copy of plain data
    for item in overrides:
        path, sep, raw = item.partition("=")
        if not sep or not path:
            raise InputError(f"override {item!r} must look like path.to.key=value", field="--set")
        try:
            value = yaml.safe_load(raw) if raw else ""
        except yaml.YAMLError as exc:
            problem = getattr(exc, "problem", None) or "malformed"
            raise InputError(f"override {item!r}: the value is not valid YAML ({problem})",
                             source=source, field="--set") from None
        if path.split(".")[0] in ("system", "script"):
            raise InputError(f"override {item!r}: --set changes the encounter body, not "
                             f"{path.split('.')[0]!r}", source=source, field="--set")
        node: Any = out
        keys = path.split(".")
        if "" in keys:
            raise InputError(f"override {item!r}: an empty key in {path!r} (a stray or doubled '.')",
                             source=source, field="--set")
        for i, key in enumerate(keys):
            last = i == len(keys) - 1
            if isinstance(node, list):
                if not key.isdigit() or int(key) >= len(node):
                    raise InputError(f"{'.'.join(keys[:i + 1])}: no list item {key}", source=source, field="--set")
                if last:
                    node[int(key)] = value
                else:
                    node = node[int(key)]
            elif isinstance(node, dict):
                if last:
                    node[key] = value
                else:
                    node = node.setdefault(key, {})
            else:
                raise InputError(f"{'.'.join(keys[:i])} is not a mapping or list", source=source, field="--set")
    return out


def prepare(path: str | Path, overrides: Iterable[str] = ()) -> Loaded:
    src = str(path)
    doc = split_document(read_document(path), src)
    module = resolve_system(doc)
    doc.body = apply_overrides(doc.body, overrides, src)
    return Loaded(doc, module, module.encounter_from_dict(doc.body, src))


def simulate(
    loaded: Loaded,
    battles: int,
    *,
    seed: int = 0,
    ai: str = "greedy",
    progress: Callable[[int], None] | None = None,
) -> SimReport:
    """Run ``battles`` battles with seeds ``seed, seed+1, …``; draws count as ``"draw"``."""
    if battles < 1:
        raise InputError("the number of battles must be at least 1", field="--battles")
    if battles > MAX_BATTLES:
        raise InputError(f"at most {MAX_BATTLES:,} battles in one run (got {battles:,}); split it "
                         "with --seed", field="--battles")
    policy = policy_for(loaded.module, ai)
    report = SimReport(battles)
    for i in range(battles):
        s = seed + i
        dice = RandomSource(s)
        rng = random.Random(s * 7919 + 1)
        combat = loaded.new_combat()
        run_script(combat, loaded, dice)
        run_ai(combat, policy, rng, dice)
        winner = combat.state.summary().get("winner")
        report.wins[str(winner) if winner is not None else "draw"] += 1
        report.decisions += len(combat.record)
        report.events += len(combat.events)
        if progress is not None:
            progress(i + 1)
    return report


@dataclass(frozen=True, slots=True)
class SimTask:
    """Battles ``start … start+count-1`` of an ``ikusa sim`` run, as plain data for a worker."""

    document: dict[str, Any]
    source: str
    overrides: tuple[str, ...]
    start: int
    count: int
    ai: str


def run_sim_task(task: SimTask) -> SimReport:
    """One worker's share: the same battles (same seeds) :func:`simulate` runs in one process."""
    doc = split_document(dict(task.document), task.source)
    module = resolve_system(doc)
    doc.body = apply_overrides(doc.body, task.overrides, task.source)
    loaded = Loaded(doc, module, module.encounter_from_dict(doc.body, task.source))
    return simulate(loaded, task.count, seed=task.start, ai=task.ai)


def simulate_parallel(
    path: str | Path,
    overrides: Iterable[str],
    battles: int,
    *,
    seed: int = 0,
    ai: str = "greedy",
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimReport:
    """:func:`simulate` on ``workers`` processes (default: every core).  Battle ``i`` has seed
    ``seed + i`` wherever it runs and the counts are integers, so the report is identical to
    one worker's."""
    from ikusa.lab.executors import make_executor

    loaded = prepare(path, overrides)  # every input error, in this process
    policy_for(loaded.module, ai)
    if battles < 1:
        raise InputError("the number of battles must be at least 1", field="--battles")
    if battles > MAX_BATTLES:
        raise InputError(f"at most {MAX_BATTLES:,} battles in one run (got {battles:,}); split it "
                         "with --seed", field="--battles")
    executor = make_executor(workers, None)
    try:
        if executor.workers == 1 or battles < 100:
            return simulate(loaded, battles, seed=seed, ai=ai, progress=progress)
        document = read_document(path)
        size = max(25, -(-battles // (executor.workers * 4)))
        tasks = [SimTask(document, str(path), tuple(overrides), seed + s, min(size, battles - s), ai)
                 for s in range(0, battles, size)]
        report = SimReport(0)
        for part in executor.run(run_sim_task, tasks):
            report.battles += part.battles
            report.wins.update(part.wins)
            report.decisions += part.decisions
            report.events += part.events
            if progress is not None:
                progress(report.battles)
        report.wins = Counter({k: report.wins[k] for k in sorted(report.wins)})
        return report
    finally:
        executor.close()
