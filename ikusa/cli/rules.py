"""`ikusa rules SYSTEM [TOPIC]`: print how the engine applies a rule topic (a condition, a
battlefield …), from the same data the engine uses.

A system provides topics through ``ikusa.systems.<id>.rules_text`` with ``topics()`` and
``describe(topic) -> list[str]``; systems without that module answer "not yet available".
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Annotated

import typer
from rich.markup import escape

from ikusa.cli.common import console, fail, user_errors
from ikusa.engine.errors import InputError
from ikusa.systems.registry import SYSTEMS, canonical_id


def register(app: typer.Typer) -> None:
    """Add `rules` to the app."""
    app.command("rules")(rules_cmd)


def provider(system: str) -> ModuleType | None:
    """The system's rules-text module, or None when it has none yet."""
    sid = canonical_id(system)
    if sid is None:
        raise InputError("DiceBot has no rules topics", field="SYSTEM")
    try:
        return importlib.import_module(SYSTEMS[sid].module + ".rules_text")
    except ModuleNotFoundError:
        return None


def rules_cmd(
    system: Annotated[str, typer.Argument(help="System id: maai, sengensyou or fantasy.")],
    topic: Annotated[str | None, typer.Argument(help="A condition or battlefield (e.g. 麻痺, corridor).")] = None,
) -> None:
    """Show a rule topic's effects as the engine applies them, with rule ids."""
    with user_errors():
        mod = provider(system)
        if mod is None:
            fail(f"rules topics for {system!r} are not yet available", code=1)
        if topic is None:
            console.print(escape(f"{system} topics: " + ", ".join(mod.topics())), soft_wrap=True)
            return
        for line in mod.describe(topic):
            console.print(escape(line), soft_wrap=True)
