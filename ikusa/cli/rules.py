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
from ikusa.systems.rule_index import lookup
from ikusa.systems.rule_index import topics as rule_topics


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
        sid = canonical_id(system) or system
        if topic is None:
            console.print(escape(f"{system} topics: " + ", ".join(mod.topics())), soft_wrap=True)
            console.print(escape(f"{system} rule ids and concepts: " + ", ".join(rule_topics(sid))), soft_wrap=True)
            return
        for line in topic_lines(mod, sid, topic):
            console.print(escape(line), soft_wrap=True)


def topic_lines(mod: ModuleType, sid: str, topic: str) -> list[str]:
    """The system's own lines for ``topic`` and, for an ANALYSIS id or a core concept, the rule
    text with the options citing it first (#13: `rules maai S-R29` prints the rule)."""
    rule = lookup(sid, topic)
    try:
        own: list[str] = mod.describe(topic)
    except InputError:
        if rule is None:
            raise
        return rule
    if rule is None:
        return own
    if any("options matching" in line for line in own[:1]):
        return rule  # the system only listed the options citing it: the rule lines show them too
    return [*rule, "", *own]
