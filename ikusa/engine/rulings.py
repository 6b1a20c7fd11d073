"""GM rulings: what the GM may do whatever decision is pending, as logged entries.

A ruling is data (``{"op": "set", "unit": "oni", "resource": "wounds", "value": 2,
"reason": "…"}``), validated here; it is recorded in the combat's log with ``actor: GM``
and replays like a decision.  The core (:class:`~ikusa.engine.combat.Combat`) handles the
system-agnostic ones itself (``control``, ``note``); every other op is handed to the
state's ``apply_ruling(ruling, dice)``, which returns the events it caused (each with
``kind="ruling"`` or its own kind, the reason in the text) or raises
:class:`~ikusa.engine.errors.InputError` / :class:`~ikusa.engine.errors.RuleViolation`
for an impossible value, changing nothing.

Resources per system (``set``): maai ``wounds`` (戦力), ``vigor`` (活力), ``fate`` (運命介入
left); sengensyou ``hp``, ``dp``, ``graze``, ``reiryoku`` (霊力); fantasy ``hp``.  Japanese
names are accepted as aliases by each system.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ikusa.engine.effects import EffectSpec
from ikusa.engine.errors import InputError


class _Ruling(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    reason: str = Field(default="", max_length=500)


class SetResource(_Ruling):
    """Set one of a unit's resources (戦力, 活力, fate, HP, DP, graze, 霊力 …) to ``value``."""

    op: Literal["set"] = "set"
    unit: str
    resource: str
    value: int = Field(ge=-10_000, le=10_000)


class AddEffect(_Ruling):
    """Put an effect on a unit: an inline ``effect`` or the ``name`` of a homebrew one."""

    op: Literal["effect"] = "effect"
    unit: str
    effect: EffectSpec | None = None
    name: str | None = None


class RemoveEffect(_Ruling):
    """Remove an effect (by name) from a unit."""

    op: Literal["remove_effect"] = "remove_effect"
    unit: str
    name: str


class SetCondition(_Ruling):
    """Give (``on``) or take away a system condition (fantasy 麻痺, maai 出血 …)."""

    op: Literal["condition"] = "condition"
    unit: str
    name: str
    on: bool = True


class AddUnit(_Ruling):
    """A combatant joins mid-fight: ``unit`` is written as in the encounter file."""

    op: Literal["add_unit"] = "add_unit"
    unit: dict[str, Any]


class RemoveUnit(_Ruling):
    """A combatant leaves the fight (fled, dismissed …)."""

    op: Literal["remove_unit"] = "remove_unit"
    unit: str


class SkipTurn(_Ruling):
    """Skip ``unit``'s turn (the acting unit when omitted)."""

    op: Literal["skip_turn"] = "skip_turn"
    unit: str | None = None


class EndTurn(_Ruling):
    """End the acting unit's turn / breath now."""

    op: Literal["end_turn"] = "end_turn"


class NextCheckModifier(_Ruling):
    """A one-off modifier on ``unit``'s next check."""

    op: Literal["modifier"] = "modifier"
    unit: str
    value: int = Field(ge=-100, le=100)


class Override(_Ruling):
    """Force the outcome of ``unit``'s next roll (a check's 成功/失敗/会心 …, or a d100 table
    result as its number); the system names the outcomes it knows."""

    op: Literal["override"] = "override"
    unit: str | None = None
    outcome: str


class EndCombat(_Ruling):
    """End the combat now with ``winner`` (a side; ``None`` = a draw)."""

    op: Literal["end"] = "end"
    winner: str | None = None


class SetControl(_Ruling):
    """Who decides for a unit (or every unit of a side) and how its dice are rolled."""

    op: Literal["control"] = "control"
    unit: str | None = None
    side: str | None = None
    controller: str | None = None  # "gm", "player:<name>", "ai:<policy>"
    dice: Literal["auto", "manual", "ask"] | None = None


class Note(_Ruling):
    """A GM note in the log (GM-only: never shown to players)."""

    op: Literal["note"] = "note"
    text: str = Field(min_length=1, max_length=2000)


Ruling = Annotated[
    SetResource | AddEffect | RemoveEffect | SetCondition | AddUnit | RemoveUnit | SkipTurn | EndTurn
    | NextCheckModifier | Override | EndCombat | SetControl | Note,
    Field(discriminator="op"),
]

#: the ops the core handles itself; every other op goes to the state's ``apply_ruling``
CORE_OPS = frozenset({"control", "note"})

_ADAPTER: TypeAdapter[Any] = TypeAdapter(Ruling)


def parse_ruling(raw: Any, source: str = "<ruling>") -> Any:
    """Validate a ruling from JSON/YAML data; every problem named in one line."""
    try:
        return _ADAPTER.validate_python(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ())) or 'ruling'}: {e.get('msg', 'invalid')}"
            for e in exc.errors()
        )
        raise InputError(problems, source=source, field="ruling") from None


def ruling_to_json(ruling: Any) -> dict[str, Any]:
    """The ruling as the log stores it (defaults left out)."""
    data: dict[str, Any] = ruling.model_dump(mode="json", exclude_defaults=True)
    data["op"] = ruling.op
    return data
