"""Running a combat unattended: script first, then AI policies (used by ``ikusa fight``
and the lab).  Pure: no printing; dice and AI choices come from seeded sources."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ikusa.dice.source import DiceSource, RandomSource, ScriptedSource
from ikusa.engine.combat import Combat
from ikusa.engine.encounter import EncounterDoc, read_document, split_document
from ikusa.engine.errors import InputError
from ikusa.engine.protocol import Policy
from ikusa.systems.registry import SystemModule, canonical_id, load_system

#: a battle still undecided after this many decisions is stopped (never a hang)
MAX_DECISIONS = 20_000


@dataclass(slots=True)
class Loaded:
    doc: EncounterDoc
    module: SystemModule
    encounter: Any

    def new_combat(self) -> Combat:
        enc = self.encounter
        mod = self.module
        setup = {"system": self.doc.system, **self.doc.body}
        if self.doc.control_raw is not None:
            setup["control"] = self.doc.control_raw
        return Combat(self.doc.system, setup, lambda: mod.new_state(enc), self.doc.control,
                      source=self.doc.source)


def load_encounter(path: str | Path) -> Loaded:
    """Read, split and validate an encounter file."""
    src = str(path)
    doc = split_document(read_document(path), src)
    module = resolve_system(doc)
    encounter = module.encounter_from_dict(doc.body, src)
    from ikusa.engine.driver import check_policies

    check_policies(doc.control, module, src)
    loaded = Loaded(doc, module, encounter)
    if doc.control_raw:
        loaded.new_combat()  # the control section's unit ids and sides, checked against the roster
    return loaded


def resolve_system(doc: EncounterDoc, field: str = "system") -> SystemModule:
    """The combat system a document names (canonical id written back into ``doc``); an
    unknown system or DiceBot is an :class:`InputError` naming the file and field."""
    try:
        sid = canonical_id(doc.system)
    except InputError as exc:
        raise InputError(exc.message, source=doc.source, field=field) from None
    if sid is None:
        raise InputError(f"{doc.system!r} is the plain dice bot; an encounter needs a combat system "
                         "(maai, sengensyou or fantasy)", source=doc.source, field=field)
    doc.system = sid
    return load_system(sid)


def policy_for(module: SystemModule, name: str) -> Policy:
    """The AI policy called ``name`` (case-insensitive: ``Greedy`` = ``greedy``)."""
    by_lower = {k.lower(): f for k, f in module.POLICIES.items()}
    try:
        factory = by_lower[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(module.POLICIES))
        raise InputError(f"unknown AI policy {name!r}; known: {known}", field="--ai") from None
    return factory()


def run_script(combat: Combat, loaded: Loaded, dice: DiceSource) -> None:
    """Apply the encounter's scripted decisions, each with its scripted dice first and
    ``dice`` for any more it needs."""
    for i, step in enumerate(loaded.doc.script):
        if combat.over:
            raise InputError("the combat ended before this scripted step", source=loaded.doc.source,
                             field=f"script[{i}]")
        src = ScriptedSource(step.dice, fallback=dice)
        try:
            combat.push(step.action, src)
        except InputError:
            raise
        except Exception as exc:
            raise InputError(str(exc), source=loaded.doc.source, field=f"script[{i}]") from exc
        if src.remaining:
            raise InputError(f"{src.remaining} scripted dice were not used by this step",
                             source=loaded.doc.source, field=f"script[{i}].dice")


def run_ai(combat: Combat, policies: dict[str, Policy] | Policy, rng: random.Random,
           dice: DiceSource, max_decisions: int = MAX_DECISIONS) -> None:
    """Let AI policies decide until the combat ends.  ``policies`` maps actor ids (or
    ``"*"``) to policies, or is one policy for everybody."""
    n = 0
    while True:
        decision = combat.pending()
        if decision is None:
            return
        if isinstance(policies, dict):
            pol = policies.get(decision.actor) or policies["*"]
        else:
            pol = policies
        combat.push(pol.choose(combat.state, decision, rng), dice)
        n += 1
        if n >= max_decisions:
            raise InputError(f"the battle was not over after {max_decisions} decisions; stopped")


def ai_rng(seed: int | None) -> random.Random:
    """The AI policies' random stream for ``seed`` (kept apart from the dice stream, so an
    AI choice never shifts the dice).  ``ikusa fight`` and ``ikusa play``'s ``ai`` share it:
    answering ``ai`` at every prompt of ``play --seed N`` replays ``fight --seed N``."""
    return random.Random(None if seed is None else seed * 7919 + 1)


def fight(path: str | Path, seed: int | None = None, ai: str = "greedy") -> Combat:
    """Load an encounter and run it to the end: script first, then ``ai`` for everyone."""
    loaded = load_encounter(path)
    dice = RandomSource(seed)
    rng = ai_rng(seed)
    combat = loaded.new_combat()
    run_script(combat, loaded, dice)
    run_ai(combat, policy_for(loaded.module, ai), rng, dice)
    return combat


def load_log(path: str | Path, dice: DiceSource | None = None) -> Combat:
    """Load a saved log (``Combat.save``; ``ikusa-log/1`` or ``/2``) and replay it to its
    final state, with its redo stack and the action waiting for dice if there was one.
    ``dice`` becomes the combat's software dice (table mode)."""
    from ikusa.engine.record import LOG_FORMAT, LOG_FORMATS

    src = str(path)
    data = read_document(path)
    if data.get("format") not in LOG_FORMATS:
        raise InputError(f"not an ikusa log (expected format {LOG_FORMAT!r})", source=src, field="format")
    setup = data.get("setup")
    if not isinstance(setup, dict):
        raise InputError("missing setup", source=src, field="setup")
    doc = split_document(dict(setup), src)
    module = resolve_system(doc, "setup.system")
    loaded = Loaded(doc, module, module.encounter_from_dict(doc.body, src))
    combat = loaded.new_combat()
    if dice is not None:
        combat.auto_dice = dice
    combat.restore(data, source=src)
    return combat
