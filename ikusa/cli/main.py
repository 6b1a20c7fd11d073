"""The ``ikusa`` command: dice bot, odds, fights, interactive play, rules lookup, demo.

Sub-commands are registered lazily (issue #12, start-up): :data:`COMMANDS` names each
command and the module whose ``register(app)`` adds it, and a module is imported only when
its command runs (or ``ikusa --help`` lists them all).  ``ikusa roll 2D6`` therefore never
imports rich, pydantic or the rules engines.  To add a command, append one line to
:data:`COMMANDS`.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping
from typing import Any

import typer
from typer.core import TyperGroup

#: a built click command (typer vendors click from 0.22 on, so the class is not named here)
Command = Any

#: (command name, module with ``register(app: typer.Typer)`` that adds the command)
COMMANDS: list[tuple[str, str]] = [
    ("roll", "ikusa.cli.roll"),
    ("odds", "ikusa.cli.odds"),
    ("fight", "ikusa.cli.fight"),
    ("play", "ikusa.cli.play"),
    ("sim", "ikusa.cli.sim"),
    ("rules", "ikusa.cli.rules"),
    ("demo", "ikusa.cli.demo"),
    ("serve", "ikusa.cli.serve"),
    ("lab", "ikusa.cli.lab"),
]

#: settings every sub-command is built with (those of :data:`app`)
_SETTINGS: dict[str, Any] = {"add_completion": False, "pretty_exceptions_enable": False}


def load_command(name: str, module: str) -> Command:
    """Import ``module``, let it register on a scratch app, and build command ``name``."""
    sub = typer.Typer(**_SETTINGS)
    importlib.import_module(module).register(sub)
    group = typer.main.get_group(sub)
    try:
        return group.commands[name]
    except KeyError:  # pragma: no cover - a COMMANDS line naming the wrong module
        raise RuntimeError(f"{module}.register() did not add the command {name!r}") from None


class LazyCommands(MutableMapping[str, Command]):
    """The group's commands: the eagerly built ones plus every :data:`COMMANDS` entry,
    built on first access."""

    def __init__(self, built: MutableMapping[str, Command]) -> None:
        self._built = dict(built)
        self._lazy = {name: module for name, module in COMMANDS if name not in self._built}

    def __getitem__(self, name: str) -> Command:
        cmd = self._built.get(name)
        if cmd is None:
            module = self._lazy[name]  # KeyError: not a command
            cmd = self._built[name] = load_command(name, module)
        return cmd

    def __setitem__(self, name: str, cmd: Command) -> None:
        self._built[name] = cmd

    def __delitem__(self, name: str) -> None:
        self._built.pop(name, None)
        self._lazy.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        yield from self._lazy
        yield from (name for name in self._built if name not in self._lazy)

    def __len__(self) -> int:
        return len(set(self._lazy) | set(self._built))

    def __contains__(self, name: object) -> bool:
        return name in self._lazy or name in self._built


class LazyGroup(TyperGroup):
    """A typer group whose sub-commands are imported when used."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands = LazyCommands(self.commands)

    def get_command(self, ctx: Any, cmd_name: str) -> Command | None:
        return self.commands.get(cmd_name)

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.commands)


app = typer.Typer(
    name="ikusa",
    help="ikusa (戦): rules engine, BCDice-compatible dice bot, GM combat tracker and balance lab "
    "for maai (000+001), sengensyou/千幻抄 (003) and fantasy (002).",
    no_args_is_help=True,
    cls=LazyGroup,
    **_SETTINGS,
)


@app.callback()
def main() -> None:
    """ikusa (戦): dice bot, odds, fights and play for maai, sengensyou and fantasy."""


if __name__ == "__main__":  # pragma: no cover
    app()
