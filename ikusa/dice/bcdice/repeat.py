"""Repeat ``x3 CMD`` / ``rep3 CMD`` / ``repeat3 CMD`` (BCDice ``CommonCommand::Repeat``).

The keyword (case-insensitive, optional ``S`` before it), a count, whitespace, then the
command to repeat — evaluated that many times by the same evaluator (a game system's
full command set when called from a system), each evaluation with its own dice budget.

Text, as BCDice: ``#1\\n(2D6) ＞ …\\n\\n#2\\n(2D6) ＞ …``.  ``secret`` is set when the
repeat or any repeated result is secret.  Flags, as BCDice: a repeat sets no
success/failure/critical/fumble flag of its own; each repeated result (its own flags and
dice) is in ``extra["results"]`` (``RollResult.to_json`` dicts), and ``dice`` lists all
dice in order.

Limits: the count must be 1..100 (:class:`InputError` otherwise; BCDice answers with the
same message as text).  A repeat inside a repeat answers BCDice's
``Repeatコマンドの重複はできません`` (ikusa also catches upper-case and ``S``-prefixed
forms, which BCDice's check misses, so repeats never multiply).  When the repeated text
is not a command at all the answer is ``繰り返し対象のコマンドが実行できませんでした (CMD)``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ikusa.dice.bcdice.limits import MAX_REPEAT
from ikusa.dice.result import RollResult
from ikusa.dice.source import DiceSource
from ikusa.engine.errors import InputError

#: how one repeated command is evaluated: (command, dice) -> result or None
Evaluator = Callable[[str, DiceSource], RollResult | None]

_HEAD = re.compile(r"(S)?(repeat|rep|x)([0-9]+)[ \t\n\v\f\r]+", re.IGNORECASE | re.ASCII)
_NESTED = re.compile(r"S?(repeat|rep|x)[0-9]+", re.IGNORECASE | re.ASCII)


def parse(command: str) -> tuple[bool, int, str] | None:
    """``(secret, times, trailer)`` or ``None``."""
    m = _HEAD.match(command)
    if m is None or m.end() >= len(command):
        return None
    digits = m.group(3).lstrip("0")
    times = int(digits or "0") if len(digits) <= 6 else MAX_REPEAT + 1
    return m.group(1) is not None, times, command[m.end() :]


def roll(command: str, dice: DiceSource, evaluate: Evaluator) -> RollResult | None:
    parsed = parse(command)
    if parsed is None:
        return None
    secret, times, trailer = parsed
    if _NESTED.match(trailer):
        return RollResult(text="Repeatコマンドの重複はできません", secret=secret, extra={"command": "repeat"})
    if times < 1 or times > MAX_REPEAT:
        raise InputError(
            f"繰り返し回数は1以上、{MAX_REPEAT}以下が指定可能です (repeat count must be 1..{MAX_REPEAT})",
            source="<command>",
        )
    results = [evaluate(trailer, dice) for _ in range(times)]
    if all(r is None for r in results):
        return RollResult(
            text=f"繰り返し対象のコマンドが実行できませんでした ({trailer})",
            secret=secret,
            extra={"command": "repeat"},
        )
    text = "\n\n".join(f"#{i}\n{r.text if r is not None else ''}" for i, r in enumerate(results, 1))
    done = [r for r in results if r is not None]
    return RollResult(
        text=text,
        secret=secret or any(r.secret for r in done),
        dice=[d for r in done for d in r.dice],
        extra={"command": "repeat", "results": [r.to_json() for r in done]},
    )
