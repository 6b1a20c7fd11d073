"""Effects with durations: buffs, debuffs and lasting conditions, on each system's own clock.

An effect is data (a GM writes homebrew ones in an encounter or a ruling): a ``name``,
``modifiers`` in the system's own terms (maai ``defense`` = 防備, ``attack``, ``check``;
sengensyou ``evasion``, ``hit``, ``dp_recovery``; fantasy ``check``, ``attack``,
``evasion`` …: each system documents and validates its keys), an optional ``condition``
it holds while active, and a :class:`Duration` on the system's clock:

* maai: ``maai`` (N 間合; ``n: 1`` = until the end of this 間合) or ``breath`` (until the
  unit's own next breath);
* sengensyou: ``turn`` (N turns);
* fantasy: ``round`` (N rounds);
* any system: ``permanent`` (until removed).

:class:`EffectBook` holds the active effects of one combat state (it is part of the state,
so replay reproduces it).  A system calls :meth:`EffectBook.modifier` in every check an
effect key touches (and shows the parts in that check's breakdown, like ``-1(毒)``), and
:meth:`EffectBook.tick` whenever its clock advances; an expired effect is returned so the
system can emit an event for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Clock = Literal["maai", "breath", "turn", "round", "permanent"]


class Duration(BaseModel):
    """How long an effect lasts: ``n`` ticks of ``clock`` (``permanent``: until removed)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    clock: Clock = "permanent"
    n: int = Field(default=1, ge=1, le=1000)

    def label(self) -> str:
        names = {"maai": "間合", "breath": "呼吸", "turn": "ターン", "round": "ラウンド"}
        if self.clock == "permanent":
            return "解除まで"
        if self.clock == "breath":
            return "次の呼吸まで"
        return f"{self.n}{names[self.clock]}"


class EffectSpec(BaseModel):
    """An effect as written in a file or a ruling (validated by the system's own key list)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=80)
    modifiers: dict[str, int] = Field(default_factory=dict)
    condition: str | None = None
    duration: Duration = Field(default_factory=Duration)
    note: str = Field(default="", max_length=500)


@dataclass(slots=True)
class ActiveEffect:
    """One effect on one unit: its spec, the ticks left and who or what caused it."""

    uid: int
    target: str
    spec: EffectSpec
    left: int
    source: str = ""

    def left_label(self) -> str:
        c = self.spec.duration.clock
        if c == "permanent":
            return "解除まで"
        if c == "breath":
            return "次の呼吸まで"
        return self.spec.duration.label().replace(str(self.spec.duration.n), str(self.left), 1)


@dataclass(slots=True)
class EffectBook:
    """The active effects of one combat state."""

    active: list[ActiveEffect] = field(default_factory=list)
    _next: int = 1

    def add(self, target: str, spec: EffectSpec, source: str = "") -> ActiveEffect:
        eff = ActiveEffect(self._next, target, spec, spec.duration.n, source)
        self._next += 1
        self.active.append(eff)
        return eff

    def remove(self, target: str, name: str) -> list[ActiveEffect]:
        """Remove every effect called ``name`` on ``target``; the removed ones are returned."""
        gone = [e for e in self.active if e.target == target and e.spec.name == name]
        self.active = [e for e in self.active if not (e.target == target and e.spec.name == name)]
        return gone

    def on(self, target: str) -> list[ActiveEffect]:
        return [e for e in self.active if e.target == target]

    def conditions(self, target: str) -> set[str]:
        return {e.spec.condition for e in self.active if e.target == target and e.spec.condition}

    def modifier(self, target: str, key: str) -> tuple[int, list[tuple[int, str]]]:
        """The total of ``key`` on ``target`` and its parts as ``(value, effect name)``."""
        parts = [(e.spec.modifiers[key], e.spec.name) for e in self.active
                 if e.target == target and key in e.spec.modifiers]
        return sum(v for v, _ in parts), parts

    def tick(self, clock: Clock, target: str | None = None) -> list[ActiveEffect]:
        """One tick of ``clock`` (for ``target`` only, or every unit): counts down the
        effects on that clock and returns those that expired (already removed)."""
        expired: list[ActiveEffect] = []
        keep: list[ActiveEffect] = []
        for e in self.active:
            if e.spec.duration.clock == clock and (target is None or e.target == target):
                e.left -= 1
                if e.left <= 0:
                    expired.append(e)
                    continue
            keep.append(e)
        self.active = keep
        return expired
