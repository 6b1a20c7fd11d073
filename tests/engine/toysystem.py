"""The toy game wrapped as a system module, to test the generic CLI without a real system."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ikusa.engine.encounter import validation_error
from ikusa.engine.protocol import Decision, GameState, Policy
from tests.engine.toy import ToyState

SYSTEM_ID = "toy"


class ToyEncounter(BaseModel):
    model_config = ConfigDict(extra="forbid")
    hp: int = Field(5, ge=1)


class AttackPolicy:
    def choose(self, state: Any, decision: Decision, rng: random.Random) -> str:
        return "attack"


POLICIES: Mapping[str, Callable[[], Policy]] = {"greedy": AttackPolicy, "random": AttackPolicy}


def encounter_from_dict(data: Mapping[str, Any], source: str) -> ToyEncounter:
    try:
        return ToyEncounter.model_validate(dict(data))
    except ValidationError as exc:
        raise validation_error(exc, source) from None


def new_state(encounter: ToyEncounter) -> GameState:
    return ToyState(encounter.hp)
