"""The ``ikusa`` console script (issue #12, target 5: ``ikusa odds`` as a cold process ≤ 100 ms).

``ikusa odds SYSTEM [COMMAND] [--fate N] [--json]`` is answered without importing typer (the
command-line framework costs more than the odds themselves); rich is imported only where it
prints something else than :mod:`ikusa.dice.term_table` would (a terminal, a line that wraps).
Everything else — every other command, ``--help``, any option the fast path does not know, and
every error (so its message and exit code are typer's own) — goes to the typer app of
:mod:`ikusa.cli.main`, unchanged.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def parse_odds(args: Sequence[str]) -> tuple[str, str | None, int, bool] | None:
    """``(system, command, fate, as_json)`` of the arguments after ``odds``, or ``None`` when
    they are anything but one or two plain words with ``--fate N`` / ``--fate=N`` / ``--json``
    (typer then parses them, with its messages)."""
    words: list[str] = []
    fate = 0
    as_json = False
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--json":
            as_json = True
        elif a == "--fate" or a.startswith("--fate="):
            if a == "--fate":
                i += 1
                if i >= len(args):
                    return None
                value = args[i]
            else:
                value = a[7:]
            if not value.isascii() or not value.lstrip("-").isdigit():
                return None
            fate = int(value)
        elif a.startswith("-") or not a:
            return None
        else:
            words.append(a)
        i += 1
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


def main() -> None:
    """Entry point of the ``ikusa`` console script."""
    args = sys.argv[1:]
    if args[:1] == ["odds"] and fast_odds(args[1:]):
        return
    from ikusa.cli.main import app

    app()
