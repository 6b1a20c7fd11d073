"""The system-agnostic state-machine protocol every rules engine implements.

The model is OpenSpiel's: at every point a state says who must decide what, with the
legal options listed (:meth:`GameState.pending`), or that the combat is over.  A decision
is applied with :meth:`GameState.apply`, drawing any dice it needs from the
:class:`~ikusa.dice.source.DiceSource` it is given, and returns the events it caused.
Nothing else mutates a state.

Optional methods the core uses when a state has them: ``explain_illegal(action)`` (the
rule an illegal action breaks), ``apply_ruling(ruling, dice)`` (GM rulings,
:mod:`ikusa.engine.rulings`), ``events_so_far()`` (the events of an action that stopped
for a person's dice, shown before the next roll is asked) and ``dice_sum_only`` (``True``
when only the sums of multi-dice rolls matter, as in a sengensyou pool).

An *action* is a plain string: the ``key`` of one of the pending options (so logs are
readable text and replay is trivial).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from ikusa.dice.source import DiceSource
from ikusa.engine.events import Event

Action = str


@dataclass(slots=True, frozen=True)
class Option:
    """One legal choice.  ``key`` is what is applied; ``label`` is for people (Japanese
    rule terms welcome); ``cost`` is the resource it spends (活力, DP …) when that is
    meaningful; ``odds`` is the chance of success as a float in 0..1 when known;
    ``data`` holds structured details for programs and AI policies."""

    key: Action
    label: str
    cost: int | None = None
    odds: float | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True, frozen=True)
class Decision:
    """What the state waits for: ``actor`` (a unit id, or ``"GM"``) must choose one of
    ``options``.  ``kind`` names the decision (``"breath"``, ``"reaction"``,
    ``"fate"``, ``"lull"``, ``"gm_table"`` …); ``prompt`` says it in words."""

    actor: str
    kind: str
    prompt: str
    options: tuple[Option, ...]

    def keys(self) -> list[Action]:
        return [o.key for o in self.options]

    def option(self, key: Action) -> Option | None:
        for o in self.options:
            if o.key == key:
                return o
        return None


class GameState(Protocol):
    """A combat in progress.  Implemented by each system."""

    def pending(self) -> Decision | None:
        """The decision the state waits for, or ``None`` when the combat is over."""
        ...

    def apply(self, action: Action, dice: DiceSource) -> list[Event]:
        """Apply one decision.  Raise :class:`~ikusa.engine.errors.RuleViolation` naming
        the rule if it is illegal; the caller (:class:`~ikusa.engine.combat.Combat`)
        guarantees that a refused action leaves no trace."""
        ...

    def summary(self) -> dict[str, Any]:
        """The final-state JSON: per unit the system's key numbers, and ``winner``."""
        ...

    def roster(self) -> list[tuple[str, str, str]]:
        """Every unit of the combat as ``(unit id, name, side)``, in the encounter's order
        (units still to arrive included): who may be controlled and who rolls (issue #8)."""
        ...


class Policy(Protocol):
    """An AI that picks one option of a decision.  It may use only ``rng`` for chance."""

    def choose(self, state: Any, decision: Decision, rng: Any) -> Action: ...
