"""Helpers shared by the CLI commands: error reporting without tracebacks."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from ikusa.engine.errors import IkusaError, InputError

T = TypeVar("T")

console = Console(highlight=False, emoji=False)  # ":bow:" in a key is text, not an emoji (issue #8)
err_console = Console(stderr=True, highlight=False, emoji=False)


def fail(message: str, code: int = 2) -> NoReturn:
    """One line ``error: MESSAGE`` on stderr (``MESSAGE`` is plain text, never markup) and exit."""
    err_console.print(f"[bold red]error:[/] {escape(message)}", markup=True, soft_wrap=True)
    raise typer.Exit(code)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn ikusa's own errors into one clear line on stderr and exit code 2."""
    try:
        yield
    except IkusaError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        err_console.print("interrupted")
        raise typer.Exit(130) from None


def guarded(fn: Callable[[], T]) -> T:
    with user_errors():
        return fn()
    raise AssertionError("unreachable")  # pragma: no cover


def write_json_line(obj: object) -> None:
    import json

    sys.stdout.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n")


def refuse_overwrite(target: str | Path, *protected: str | Path | None) -> None:
    """Refuse to save a log over the encounter (or log) it came from: a GM who types the
    wrong name must not lose the encounter file."""
    t = Path(target)
    for p in protected:
        if p is None:
            continue
        try:
            same = t.exists() and Path(p).exists() and t.samefile(p)
        except OSError:
            same = False
        if same:
            raise InputError(f"refusing to overwrite {p} with the log; choose another file name",
                             source=str(target))
