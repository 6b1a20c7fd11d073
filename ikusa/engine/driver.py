"""The table's helper: resolves what no human needs to answer (issue #8 §1).

Decisions of AI-controlled units are chosen by their policy and pushed; dice of rollers on
``auto`` are drawn by the combat itself (table mode).  What is left for an interface is
only what a person must answer: a human's decision, or a manual/ask roller's dice.

>>> # pilot = AutoPilot(load_system("maai"), random.Random(1)); pilot.run(combat)
"""

from __future__ import annotations

import random
from typing import Any

from ikusa.engine.combat import Combat
from ikusa.engine.control import ControlSpec
from ikusa.engine.errors import InputError
from ikusa.engine.events import Event
from ikusa.engine.protocol import Decision, Policy

#: an AI loop that has not reached a human after this many decisions is stopped
MAX_AI_STEPS = 20_000


class AutoPilot:
    """Chooses for AI-controlled units with the system's policies (one instance per name)."""

    def __init__(self, module: Any, rng: random.Random | None = None) -> None:
        self.module = module
        self.rng = rng or random.Random()
        self._policies: dict[str, Policy] = {}
        #: decisions taken by the AI, as (actor, action), oldest first
        self.taken: list[tuple[str, str]] = []

    def policy(self, name: str) -> Policy:
        key = name.strip().lower()
        pol = self._policies.get(key)
        if pol is None:
            pol = self._policies[key] = make_policy(self.module, name)
        return pol

    def choose(self, combat: Combat, decision: Decision, policy: str | None = None) -> str:
        """What the AI policy (the unit's own, or ``policy``) picks for ``decision``."""
        name = policy or combat.control.of(decision.actor).who or "greedy"
        return self.policy(name).choose(combat.state, decision, self.rng)

    def wants(self, combat: Combat) -> Decision | None:
        """The pending decision if an AI must take it (``None`` when a human or dice wait)."""
        w = combat.awaiting()
        if isinstance(w, Decision) and combat.control.of(w.actor).is_ai:
            return w
        return None

    def run(self, combat: Combat, max_steps: int = MAX_AI_STEPS) -> list[Event]:
        """Push AI decisions until a person must answer or the combat ends; the events."""
        out: list[Event] = []
        for _ in range(max_steps):
            d = self.wants(combat)
            if d is None:
                return out
            key = self.choose(combat, d)
            out.extend(combat.push(key))
            self.taken.append((d.actor, key))
        raise InputError(f"the AI-controlled units took {max_steps} decisions without a human turn; stopped")


def make_policy(module: Any, name: str) -> Policy:
    """The AI policy ``name`` of ``module`` (case-insensitive), or an InputError listing them."""
    by_lower = {k.lower(): f for k, f in module.POLICIES.items()}
    try:
        factory = by_lower[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(module.POLICIES))
        raise InputError(f"unknown AI policy {name!r}; known: {known}", field="ai") from None
    pol: Policy = factory()
    return pol


def check_policies(spec: ControlSpec, module: Any, source: str = "") -> None:
    """Every ``ai:<policy>`` of a ``control:`` section names a policy of the system."""
    known = {k.lower() for k in module.POLICIES}
    groups = [("default", {"": spec.default}), ("sides", spec.sides), ("units", spec.units)]
    for group, parts in groups:
        for key, part in parts.items():
            ctl = part.controller
            if ctl and ctl.startswith("ai:") and ctl[3:].lower() not in known:
                where = f"control.{group}" + (f".{key}" if key else "")
                raise InputError(f"unknown AI policy {ctl[3:]!r}; known: {', '.join(sorted(module.POLICIES))}",
                                 source=source, field=where)
