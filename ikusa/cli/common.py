"""Helpers shared by the CLI commands: error reporting without tracebacks."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

import typer

from ikusa.engine.errors import IkusaError, InputError

if TYPE_CHECKING:
    from rich.console import Console

T = TypeVar("T")


class _LazyConsole:
    """A :class:`rich.console.Console` created on first use: importing rich costs more than
    ``ikusa roll`` itself (issue #12, start-up), and most dice-bot runs never print with it."""

    __slots__ = ("_console", "_stderr")

    def __init__(self, stderr: bool) -> None:
        self._stderr = stderr
        self._console: Console | None = None

    def _real(self) -> Console:
        real = self._console
        if real is None:
            from rich.console import Console

            real = self._console = Console(stderr=self._stderr, highlight=False, emoji=False)
        return real

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real(), name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _LazyConsole.__slots__:
            object.__setattr__(self, name, value)
        else:
            setattr(self._real(), name, value)

    # special methods are looked up on the type, not through __getattr__
    def __enter__(self) -> Console:
        return self._real().__enter__()

    def __exit__(self, *exc: Any) -> None:
        self._real().__exit__(*exc)


console = cast("Console", _LazyConsole(stderr=False))
err_console = cast("Console", _LazyConsole(stderr=True))


def fail(message: str, code: int = 2) -> NoReturn:
    """One line ``error: MESSAGE`` on stderr (``MESSAGE`` is plain text, never markup) and exit."""
    from rich.markup import escape

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
