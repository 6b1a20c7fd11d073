"""間合 (maai): the samurai/yokai 2d10 system of texts 000 + 001 as a state machine.

``SYSTEM_ID``, ``POLICIES``, ``encounter_from_dict`` and ``new_state`` are the system
interface (:class:`ikusa.systems.registry.SystemModule`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # not at run time: ``ikusa odds`` and ``ikusa roll`` load no engine (issue #12)
    from ikusa.engine.protocol import GameState, Policy

SYSTEM_ID = "maai"


def encounter_from_dict(data: Mapping[str, Any], source: str) -> Any:
    """Validate an encounter document (see :mod:`ikusa.systems.maai.encounter`)."""
    from ikusa.systems.maai.encounter import encounter_from_dict as _load

    return _load(data, source)


def new_state(encounter: Any) -> GameState:
    """A fresh battle for a validated encounter."""
    from ikusa.systems.maai.state import MaaiState

    return MaaiState(encounter)


def _random() -> Policy:
    from ikusa.systems.maai.policies import RandomPolicy

    return RandomPolicy()


def _greedy() -> Policy:
    from ikusa.systems.maai.policies import GreedyPolicy

    return GreedyPolicy()


POLICIES: Mapping[str, Callable[[], Policy]] = {"random": _random, "greedy": _greedy}
