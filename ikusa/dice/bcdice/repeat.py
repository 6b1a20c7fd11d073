"""Repeat ``x3 CMD`` / ``rep3 CMD`` / ``repeat3 CMD`` (BCDice ``CommonCommand::Repeat``).

The keyword (case-insensitive, optional ``S`` before it), a count, whitespace, then the
command to repeat — evaluated that many times by the same evaluator (a game system's
full command set when called from a system).

Text, as BCDice: ``#1\\n(2D6) ＞ …\\n\\n#2\\n(2D6) ＞ …``.  ``secret`` is set when the
repeat or any repeated result is secret.  Flags, as BCDice: a repeat sets no
success/failure/critical/fumble flag of its own; each repeated result (its own flags and
dice) is in ``extra["results"]`` (``RollResult.to_json`` dicts), and ``dice`` lists all
dice in order.

Checks, in BCDice's order: a repeat inside a repeat (``x3 x2 1D6``) answers
``Repeatコマンドの重複はできません``; a count outside 1..100 answers
``繰り返し回数は1以上、100以下としてください`` (both are answers, not errors, with the
repeat's own ``secret``).  When the repeated text is not a command at all the answer is
``繰り返し対象のコマンドが実行できませんでした (CMD)``.

As in BCDice only a lower-case nested repeat is refused: ``x3 X3 1D6`` repeats a repeat.
All repetitions of one command, nested ones included, draw from one 10,000-dice budget
(:class:`~ikusa.dice.bcdice.tray.Budget`, BCDice's shared randomizer) and may run at most
:data:`MAX_EVALUATIONS` evaluations (an ikusa limit: BCDice would run ``x100 X100 X100
C(1)`` a million times), beyond which a :class:`~ikusa.engine.errors.DiceError` says so.
Whitespace is bcdice-js's (:data:`ikusa.dice.bcdice.lexer.WS`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ikusa.dice.bcdice.lexer import WS
from ikusa.dice.bcdice.limits import MAX_REPEAT
from ikusa.dice.bcdice.tray import budget
from ikusa.dice.result import RollResult
from ikusa.dice.source import DiceSource
from ikusa.engine.errors import DiceError

#: how one repeated command is evaluated: (command, dice) -> result or None
Evaluator = Callable[[str, DiceSource], RollResult | None]

#: repetitions of one command at most, nested repeats included: two levels of 100
MAX_EVALUATIONS = MAX_REPEAT + MAX_REPEAT * MAX_REPEAT

_HEAD = re.compile(rf"(S)?(repeat|rep|x)([0-9]+){WS}+", re.IGNORECASE)
_NESTED = re.compile(r"(repeat|rep|x)[0-9]+")
TOO_MANY = f"繰り返し回数は1以上、{MAX_REPEAT}以下としてください"
NESTED = "Repeatコマンドの重複はできません"


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
        return RollResult(text=NESTED, secret=secret, extra={"command": "repeat"})
    if times < 1 or times > MAX_REPEAT:
        return RollResult(text=TOO_MANY, secret=secret, extra={"command": "repeat"})
    shared = budget(dice)
    shared.evaluations += times
    if shared.evaluations > MAX_EVALUATIONS:
        raise DiceError(f"too many repetitions: at most {MAX_EVALUATIONS} evaluations in one command "
                        "(repeats nested in repeats)")
    results = [evaluate(trailer, shared) for _ in range(times)]
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
