"""fantasy: the special situations and status conditions of 002 (特殊な状況・状態異常) on a
minimal d6 host (ANALYSIS Part 2, F.C): surprise, cramped battlefields, conditions, water.

Module interface (ikusa/systems/registry.py): ``SYSTEM_ID``, ``POLICIES``,
``encounter_from_dict``, ``new_state``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ikusa.engine.protocol import GameState, Policy
from ikusa.systems.fantasy.encounter import FantasyEncounter
from ikusa.systems.fantasy.encounter import encounter_from_dict as _from_dict
from ikusa.systems.fantasy.policies import GreedyPolicy, RandomPolicy

SYSTEM_ID = "fantasy"

POLICIES: Mapping[str, Callable[[], Policy]] = {"random": RandomPolicy, "greedy": GreedyPolicy}


def encounter_from_dict(data: Mapping[str, Any], source: str) -> FantasyEncounter:
    """Validate a fantasy encounter; errors name ``source`` and the field."""
    return _from_dict(data, source)


def new_state(encounter: FantasyEncounter) -> GameState:
    from ikusa.systems.fantasy.state import FantasyState

    return FantasyState(encounter)
