"""A tiny game used to test the system-agnostic core: two players alternately attack;
an attack rolls 1d6 and removes that many HP when the roll is >= 4."""

from __future__ import annotations

from typing import Any

from ikusa.dice.source import DiceSource
from ikusa.engine.errors import RuleViolation
from ikusa.engine.events import Event
from ikusa.engine.protocol import Decision, Option


class ToyState:
    def __init__(self, hp: int = 5) -> None:
        self.hp = {"a": hp, "b": hp}
        self.turn = "a"

    def pending(self) -> Decision | None:
        if min(self.hp.values()) <= 0:
            return None
        return Decision(self.turn, "turn", "attack or wait",
                        (Option("attack", "attack"), Option("wait", "wait")))

    def explain_illegal(self, action: str) -> RuleViolation:
        return RuleViolation("T-R01", "toy §1", f"{action!r} is not a toy action")

    def apply(self, action: str, dice: DiceSource) -> list[Event]:
        if action not in ("attack", "wait"):
            raise self.explain_illegal(action)
        other = "b" if self.turn == "a" else "a"
        events = []
        if action == "attack":
            (v,) = dice.roll(6, 1, f"{self.turn} attack", roller=self.turn)
            if v >= 4:
                self.hp[other] -= v
            events.append(Event("attack", "T-R02", f"{self.turn} rolls {v}", {"roll": v}))
        self.turn = other
        return events

    def roster(self) -> list[tuple[str, str, str]]:
        return [("a", "A", "left"), ("b", "B", "right")]

    def summary(self) -> dict[str, Any]:
        winner = None
        if self.hp["a"] <= 0:
            winner = "b"
        elif self.hp["b"] <= 0:
            winner = "a"
        return {"hp": dict(self.hp), "winner": winner}
