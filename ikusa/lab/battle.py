"""One lab battle: a variant of an encounter, a battle seed, policies per side → metrics.

A :class:`Variant` is plain data (the parsed document, where it came from, the overrides), so
it travels to worker processes and Dask workers, which need not see the file.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ikusa.engine.encounter import read_document, split_document
from ikusa.engine.errors import InputError
from ikusa.engine.protocol import Policy
from ikusa.engine.runner import MAX_DECISIONS, Loaded, resolve_system, run_script
from ikusa.lab.crn import CrnSource
from ikusa.lab.metrics import BattleMetrics, measure, roster
from ikusa.lab.policies import DEFAULT, PolicySpec
from ikusa.lab.simulate import apply_overrides

DEFAULT_POLICIES = PolicySpec()


@dataclass(frozen=True, slots=True)
class Variant:
    """An encounter document with ``--set``-style overrides, and the policies that play it."""

    document: dict[str, Any]
    source: str
    overrides: tuple[str, ...] = ()
    policies: PolicySpec = DEFAULT_POLICIES

    @classmethod
    def read(cls, path: str | Path, overrides: tuple[str, ...] = (),
             policies: PolicySpec = DEFAULT_POLICIES) -> Variant:
        return cls(read_document(path), str(path), overrides, policies)

    def with_overrides(self, extra: tuple[str, ...]) -> Variant:
        return Variant(self.document, self.source, self.overrides + extra, self.policies)

    def load(self) -> Loaded:
        doc = split_document(dict(self.document), self.source)
        module = resolve_system(doc)
        doc.body = apply_overrides(doc.body, self.overrides, self.source)
        return Loaded(doc, module, module.encounter_from_dict(doc.body, self.source))


class Player:
    """A loaded variant with its policies built, ready to fight battle after battle."""

    def __init__(self, variant: Variant) -> None:
        self.loaded = variant.load()
        first = self.loaded.new_combat()
        units = roster(first.state.summary())
        self.sides = list(dict.fromkeys(str(u.get("side")) for u in units))
        self.side_of = {str(u.get("id")): str(u.get("side")) for u in units}
        self.policies: dict[str, Policy] = variant.policies.build(self.loaded.module, self.sides)

    def policy(self, actor: str) -> Policy:
        return self.policies.get(self.side_of.get(actor, ""), self.policies[DEFAULT])

    def fight(self, seed: int) -> BattleMetrics:
        """Battle ``seed``: dice from ``CrnSource(seed)``, AI choices from their own stream."""
        dice = CrnSource(seed)
        rng = random.Random(seed ^ 0x5DEECE66D)
        combat = self.loaded.new_combat()
        for pol in self.policies.values():
            bind = getattr(pol, "bind", None)
            if bind is not None:
                bind(combat)
        run_script(combat, self.loaded, dice)
        n = 0
        while True:
            decision = combat.pending()
            if decision is None:
                break
            combat.push(self.policy(decision.actor).choose(combat.state, decision, rng), dice)
            n += 1
            if n >= MAX_DECISIONS:
                raise InputError(f"the battle was not over after {MAX_DECISIONS} decisions; stopped")
        return measure(self.loaded.doc.system, combat.events, combat.state.summary(), len(combat.record))
