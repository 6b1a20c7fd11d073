"""千幻抄 (sengensyou): the Touhou dice-pool combat engine of text 003 (ANALYSIS Part 3).

Exposes the :class:`~ikusa.systems.registry.SystemModule` interface.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ikusa.engine.protocol import GameState, Policy
from ikusa.systems.sengensyou.encounter import Encounter
from ikusa.systems.sengensyou.encounter import encounter_from_dict as _encounter_from_dict
from ikusa.systems.sengensyou.policies import GreedyPolicy, RandomPolicy

SYSTEM_ID = "sengensyou"

POLICIES: dict[str, Callable[[], Policy]] = {"random": RandomPolicy, "greedy": GreedyPolicy}


def encounter_from_dict(data: Mapping[str, Any], source: str) -> Encounter:
    """Validate an encounter document (InputError naming file + field + rule)."""
    return _encounter_from_dict(data, source)


def new_state(encounter: Encounter) -> GameState:
    """A fresh battle state for a validated encounter."""
    from ikusa.systems.sengensyou.state import SengensyouState

    return SengensyouState(encounter)
