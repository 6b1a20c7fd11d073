"""The ``ikusa`` console script (issue #12, target 5: ``ikusa odds`` as a cold process ≤ 100 ms;
target 6: ``ikusa roll 2D6`` no slower than node + bcdice-js).

``ikusa odds SYSTEM [COMMAND] [--fate N] [--json]`` is answered without importing typer (the
command-line framework costs more than the odds themselves); rich is imported only where it
prints something else than :mod:`ikusa.dice.term_table` would (a terminal, a line that wraps).
``ikusa roll COMMAND [--system S] [--seed N] [--json]`` likewise (what :mod:`ikusa.cli.roll`
prints, from :func:`ikusa.api.roll`).  Everything else — every other command, ``--help``,
any option the fast path does not know, and every error (so its message and exit code are
typer's own) — goes to the typer app of :mod:`ikusa.cli.main`, unchanged.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence


def _scan(args: Sequence[str], options: dict[str, Callable[[str], bool]]
          ) -> tuple[list[str], dict[str, str], bool] | None:
    """``(words, option values, --json given)`` of a fast path's arguments, each option of
    ``options`` taking a value as ``--opt V`` or ``--opt=V`` that its check accepts (the last
    one given wins); ``None`` for any other dash word, an empty word, a missing value or a
    value its check refuses (typer then parses them, with its messages)."""
    words: list[str] = []
    values: dict[str, str] = {}
    as_json = False
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--json":
            as_json = True
        elif a.split("=", 1)[0] in options:
            name, eq, value = a.partition("=")
            if not eq:
                i += 1
                if i >= len(args):
                    return None
                value = args[i]
            if not options[name](value):
                return None
            values[name] = value
        elif a.startswith("-") or not a:
            return None
        else:
            words.append(a)
        i += 1
    return words, values, as_json


def parse_odds(args: Sequence[str]) -> tuple[str, str | None, int, bool] | None:
    """``(system, command, fate, as_json)`` of the arguments after ``odds``, or ``None`` when
    they are anything but one or two plain words with ``--fate N`` / ``--fate=N`` / ``--json``
    (typer then parses them, with its messages)."""
    scanned = _scan(args, {"--fate": _int_word})
    if scanned is None:
        return None
    words, values, as_json = scanned
    fate = int(values.get("--fate", "0"))
    if not 1 <= len(words) <= 2:
        return None
    return words[0], (words[1] if len(words) == 2 else None), fate, as_json


def fast_odds(args: Sequence[str]) -> bool:
    """Answer ``ikusa odds ...`` here; ``False`` when typer must (unknown form or an error)."""
    parsed = parse_odds(args)
    if parsed is None:
        return False
    system, command, fate, as_json = parsed
    from ikusa.cli.odds_core import odds_for
    from ikusa.engine.errors import IkusaError

    try:
        result = odds_for(system, command, fate)
    except IkusaError:
        return False  # typer's path prints the one-line error and exits 2
    if as_json:
        import json

        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        from ikusa.dice.term_table import print_renderable

        # what the console of ikusa.cli.common prints; rich only where it prints differently
        print_renderable(result.render())
    return True


def _int_word(value: str) -> bool:
    """A whole number as typer reads one, in the plain spelling only (``12``, ``-3``)."""
    return value.isascii() and value.lstrip("-").isdigit() and value.count("-") <= 1


def parse_roll(args: Sequence[str]) -> tuple[str, str | None, int | None, bool] | None:
    """``(command, system, seed, as_json)`` of the arguments after ``roll``, or ``None``
    unless they are one plain command with ``--system S`` / ``--seed N`` / ``--json`` (each
    also as ``--opt=value``); ``--dice``, ``--batch``, ``--help`` and the rest go to typer."""
    scanned = _scan(args, {"--system": lambda v: not v.startswith("-"), "--seed": lambda v: True})
    if scanned is None:
        return None
    words, values, as_json = scanned
    seed = values.get("--seed")
    if len(words) != 1 or (seed is not None and not _int_word(seed)):
        return None
    return words[0], values.get("--system"), (int(seed) if seed is not None else None), as_json


def fast_roll(args: Sequence[str]) -> bool:
    """Answer ``ikusa roll ...`` here (issue #12, target 6: start-up); ``False`` when typer
    must: an unknown form, an error, or a text that is not a command (its hint is typer's;
    such a text draws no dice, so answering it there rolls nothing twice)."""
    parsed = parse_roll(args)
    if parsed is None:
        return False
    command, system, seed, as_json = parsed
    from ikusa.api import roll
    from ikusa.dice.source import RandomSource
    from ikusa.engine.errors import IkusaError

    try:
        result = roll(command, system, dice=RandomSource(seed))
    except (IkusaError, ModuleNotFoundError):
        return False  # typer's path prints the one-line error and exits 2, as it always has
    if result is None:
        return False
    if as_json:
        import json

        sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n")
        return True
    sys.stdout.write(result.text + "\n")
    raw = result.extra.get("warnings", [])
    # what ikusa.cli.roll prints through rich (markup off, no wrapping): the same plain line
    for note in [str(w) for w in raw] if isinstance(raw, list) else []:
        sys.stdout.flush()
        sys.stderr.write(f"note: {note}\n")
    return True


def main() -> None:
    """Entry point of the ``ikusa`` console script."""
    args = sys.argv[1:]
    if args[:1] == ["odds"] and fast_odds(args[1:]):
        return
    if args[:1] == ["roll"] and fast_roll(args[1:]):
        return
    from ikusa.cli.main import app

    app()
