"""Which game systems ikusa knows, imported lazily by id.

Each system is a package ``ikusa.systems.<id>`` whose ``__init__`` exposes the
:class:`SystemModule` interface below.  Bot ids are matched case-insensitively and accept
BCDice's spelling (``Sengensyou``; ``DiceBot`` is the plain dice bot, no system).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, cast

from ikusa.engine.errors import InputError

if TYPE_CHECKING:  # annotations only: the dice bot's start-up does not load the engine (issue #12)
    from ikusa.dice.result import RollResult
    from ikusa.dice.source import DiceSource
    from ikusa.engine.protocol import GameState, Policy


class SystemModule(Protocol):
    """What a system package exposes (module-level names)."""

    SYSTEM_ID: str
    #: AI policies by name (at least ``"random"`` and ``"greedy"``)
    POLICIES: Mapping[str, Callable[[], Policy]]

    def encounter_from_dict(self, data: Mapping[str, Any], source: str) -> Any:
        """Validate an encounter document (already parsed YAML/TOML/JSON, without the
        common keys ``system`` and ``script``).  Raise :class:`InputError` naming
        ``source``, the field and the problem."""
        ...

    def new_state(self, encounter: Any) -> GameState:
        """A fresh combat state for a validated encounter."""
        ...


class SystemInfo:
    """One known system: its id, display name, rules texts and package.  A plain slots class, not
    a dataclass: ``dataclasses`` imports ``inspect``, about 8 ms of every ``ikusa odds`` start-up
    (issue #12 target 5)."""

    __slots__ = ("id", "module", "name", "texts")

    def __init__(self, id: str, name: str, texts: str, module: str) -> None:
        self.id = id
        self.name = name
        self.texts = texts
        self.module = module

    def __repr__(self) -> str:
        return f"SystemInfo({self.id!r}, {self.name!r}, {self.texts!r}, {self.module!r})"


SYSTEMS: dict[str, SystemInfo] = {
    "maai": SystemInfo("maai", "間合 (2d10 samurai/yokai)", "000 + 001", "ikusa.systems.maai"),
    "sengensyou": SystemInfo("sengensyou", "千幻抄 (Touhou dice pool)", "003", "ikusa.systems.sengensyou"),
    "fantasy": SystemInfo("fantasy", "fantasy d6 special situations", "002", "ikusa.systems.fantasy"),
}

DICEBOT_IDS = {"dicebot", "", "none"}


def canonical_id(system: str | None) -> str | None:
    """``None`` for the plain dice bot, else the canonical system id.

    >>> canonical_id("Sengensyou"), canonical_id("DiceBot"), canonical_id("MAAI")
    ('sengensyou', None, 'maai')
    """
    if system is None:
        return None
    key = system.strip().lower()
    if key in DICEBOT_IDS:
        return None
    if key not in SYSTEMS:
        known = ", ".join(["DiceBot", *SYSTEMS])
        raise InputError(f"unknown system {system!r}; known: {known}", field="system")
    return key


class CommandsModule(Protocol):
    """``ikusa.systems.<id>.commands``: the system's dice-bot commands."""

    def roll_command(self, command: str, dice: DiceSource) -> RollResult | None:
        """The system's own commands, falling back to the common DiceBot commands.
        ``None`` when ``command`` is not a dice command (BCDice's empty output)."""
        ...


def load_commands(system: str) -> CommandsModule:
    sid = canonical_id(system)
    if sid is None:
        raise InputError("DiceBot has no system commands", field="system")
    return cast(CommandsModule, importlib.import_module(SYSTEMS[sid].module + ".commands"))


def load_system(system: str) -> SystemModule:
    sid = canonical_id(system)
    if sid is None:
        raise InputError("DiceBot is a dice bot, not a combat system", field="system")
    return cast(SystemModule, importlib.import_module(SYSTEMS[sid].module))
