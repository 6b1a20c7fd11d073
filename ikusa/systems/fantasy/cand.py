"""A candidate action with the rule that forbids it (legal.py lists them, lines.py adds the
lines-of-fire/running/breathing ones), and the small helpers both build them with."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from ikusa.engine.errors import RuleViolation
from ikusa.systems.fantasy.character import Fighter

if TYPE_CHECKING:
    from ikusa.systems.fantasy.state import FantasyState

HOST = "002 (host action economy, F.C)"


@mypyc_attr(allow_interpreted_subclasses=True)  # copied via cls.__new__ (deepcopy, pickle): see setup.py
@dataclass(slots=True)
class Cand:
    key: str
    label: str
    cost: int
    why_not: RuleViolation | None = None
    odds: float | None = None
    data: dict[str, Any] = field(default_factory=dict)


def rv(rule: str, section: str, msg: str) -> RuleViolation:
    return RuleViolation(rule, section, msg)


def cost_reason(cost: int, f: Fighter) -> RuleViolation | None:
    """F-H07/F-G13: not enough actions left this turn."""
    if cost > f.actions:
        return rv("F-H07,F-G13", HOST, f"アクションが足りない (必要{cost}, 残り{f.actions})")
    return None


def reach_if(st: FantasyState, f: Fighter, row: str, front: str) -> int:
    """How many enemies ``f`` could reach in melee from ``row``/``front`` (for AI hints)."""
    return 0 if row != "front" else len(st.formation.reach_from((f.unit, front)))
