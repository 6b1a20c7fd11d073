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

from collections.abc import Callable
from typing import Any, Protocol

from mypy_extensions import mypyc_attr

from ikusa.dice.source import DiceSource
from ikusa.engine.events import Event

Action = str


# sengensyou's ColumnOption, a Python class, subclasses it (compiled with mypyc, setup.py)
@mypyc_attr(allow_interpreted_subclasses=True)
class Option:
    """One legal choice.  ``key`` is what is applied; ``label`` is for people (Japanese
    rule terms welcome); ``cost`` is the resource it spends (活力, DP …) when that is
    meaningful; ``odds`` is the chance of success as a float in 0..1 when known;
    ``data`` holds structured details for programs and AI policies.

    ``Option(key, label, cost, odds, data)`` takes the label ready made; :meth:`lazy` takes
    a function that makes it, called on first access (issue #12: an AI deciding many
    battles reads ``key``, ``cost``, ``odds`` and ``data``, never the label).  A lazy label
    is worked out from the state as it is when first read: read it while its decision is
    pending (every reader in ikusa does; pickling and copying an option format it first).
    An option is a value: its fields are not meant to change.
    """

    __slots__ = ("_label", "_make", "cost", "data", "key", "odds")

    def __init__(self, key: Action, label: str, cost: int | None = None, odds: float | None = None,
                 data: dict[str, Any] | None = None) -> None:
        self.key = key
        self._label: str | None = label
        self._make: Callable[[], str] | None = None
        self.cost = cost
        self.odds = odds
        self.data: dict[str, Any] = {} if data is None else data

    @classmethod
    def lazy(cls, key: Action, make_label: Callable[[], str], cost: int | None = None, odds: float | None = None,
             data: dict[str, Any] | None = None) -> Option:
        """An option whose label is ``make_label()``, made when first read."""
        o = cls(key, "", cost, odds, data)
        o._label = None
        o._make = make_label
        return o

    @property
    def label(self) -> str:
        t = self._label
        if t is None:
            assert self._make is not None
            t = self._label = self._make()
            self._make = None
        return t

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Option):
            return NotImplemented
        return (self.key, self.label, self.cost, self.odds, self.data) == (
            other.key, other.label, other.cost, other.odds, other.data)

    __hash__ = None  # type: ignore[assignment]  # holds a dict, like the frozen dataclass it was

    def __repr__(self) -> str:
        return (f"Option(key={self.key!r}, label={self.label!r}, cost={self.cost!r}, odds={self.odds!r}, "
                f"data={self.data!r})")

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle / copy / deepcopy carry the label, never the function that makes it
        return (Option, (self.key, self.label, self.cost, self.odds, self.data))


class Decision:
    """What the state waits for: ``actor`` (a unit id, or ``"GM"``) must choose one of
    ``options``.  ``kind`` names the decision (``"breath"``, ``"reaction"``,
    ``"fate"``, ``"lull"``, ``"gm_table"`` …); ``prompt`` says it in words.
    A decision is a value: its fields are not meant to change.

    ``Decision(actor, kind, prompt, options)`` takes the prompt ready made; :meth:`lazy` takes
    a formatter and the values it shows, and the prompt is ``fmt(*args)``, made on first read
    (issue #12: an AI answering many decisions never reads a prompt).  As with
    :meth:`Event.lazy <ikusa.engine.events.Event.lazy>`, the formatter must depend on those
    values only, so the prompt reads the same whenever it is first read."""

    __slots__ = ("_args", "_fmt", "_prompt", "actor", "kind", "options")

    def __init__(self, actor: str, kind: str, prompt: str, options: tuple[Option, ...]) -> None:
        self.actor = actor
        self.kind = kind
        self._prompt: str | None = prompt
        self._fmt: Callable[..., str] | None = None
        self._args: tuple[Any, ...] = ()
        self.options = options

    @classmethod
    def lazy(cls, actor: str, kind: str, fmt: Callable[..., str], args: tuple[Any, ...],
             options: tuple[Option, ...]) -> Decision:
        """A decision whose prompt is ``fmt(*args)``, made when first read."""
        d = cls(actor, kind, "", options)
        d._prompt = None
        d._fmt = fmt
        d._args = args
        return d

    @property
    def prompt(self) -> str:
        t = self._prompt
        if t is None:
            assert self._fmt is not None
            t = self._prompt = self._fmt(*self._args)
            self._fmt = None
            self._args = ()
        return t

    def keys(self) -> list[Action]:
        return [o.key for o in self.options]

    def option(self, key: Action) -> Option | None:
        for o in self.options:
            if o.key == key:
                return o
        return None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Decision):
            return NotImplemented
        return (self.actor, self.kind, self.prompt, self.options) == (
            other.actor, other.kind, other.prompt, other.options)

    __hash__ = None  # type: ignore[assignment]  # its options hold dicts

    def __repr__(self) -> str:
        return (f"Decision(actor={self.actor!r}, kind={self.kind!r}, prompt={self.prompt!r}, "
                f"options={self.options!r})")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Decision, (self.actor, self.kind, self.prompt, self.options))


def fix_labels(decision: Decision | None) -> None:
    """Make every lazy label of ``decision`` now, from the state as it is: the core calls this
    before it applies anything, so a decision kept after it was answered (an undo stack, the
    decision a partial entry answers) shows the labels it had while pending."""
    if decision is not None:
        for o in decision.options:
            if o._label is None:
                o.label  # noqa: B018 - the property makes and keeps it


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
