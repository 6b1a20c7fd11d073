"""BCDice-compatible common dice-bot commands ("DiceBot"), issue #2 §2.

:func:`roll_command` answers one command the way BCDice's plain DiceBot does — same text
(full-width ``＞``, ``[dice]`` per roll), same flags, dice drawn in the same order — or
``None`` when the text is not a command (BCDice's empty output).  Commands:

* sum dice ``2D6+1>=7``, ``(2D6+1D4)*2``, ``7/2U``, ``3D6KH2`` (:mod:`.sum_dice`)
* individual dice ``5B6>=4``, ``2B6+1B10`` (:mod:`.barabara`)
* upper-limit dice ``3U6[6]``, ``4U6+1>=10@6`` (:mod:`.upper`)
* reroll dice ``3R6>=4``, ``2R6[>3]>=5`` (:mod:`.reroll`)
* ``choice[a,b]``, ``choice(a,b)``, ``choice a b``, ``choice2[a,b,c]``, ``choice[A-F]`` (:mod:`.choice`)
* ``D66``/``D66A``/``D66D``/``D66N`` (:mod:`.d66`)
* ``C(1+2*3)`` calculation, no dice: ``c(1+2*3) ＞ 7`` (:mod:`.calc`)
* tally dice ``5TY6``/``5TZ6`` (:mod:`.tally`)
* ``x3 CMD``, ``rep3 CMD``, ``repeat3 CMD`` (:mod:`.repeat`)

``S`` before any command makes it secret; commands are case-insensitive; text after the
first whitespace is a comment (except for ``choice a b c`` and repeats, which read on).
The limits are BCDice's (:mod:`.limits`): over a per-roll limit the answer is BCDice's
(``(500D6) ＞ 0``); over the 10,000-dice budget of a command, or over ikusa's own number
limits, a :class:`~ikusa.engine.errors.DiceError`/:class:`~ikusa.engine.errors.InputError`.

A game system reuses this as its fallback: ``roll_command(cmd, dice, evaluate=own)``
makes ``x3 CMD`` repeat with the system's own evaluator ``own(cmd, dice)``.

>>> from ikusa.dice.source import ScriptedSource
>>> roll_command("2D6>=7", ScriptedSource([3, 4])).text
'(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功'
>>> roll_command("hello", ScriptedSource([])) is None
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from ikusa.dice.bcdice.lexer import ParseFail, Token, tokenize
from ikusa.dice.bcdice.repeat import Evaluator
from ikusa.dice.bcdice.tray import DiceTray

if TYPE_CHECKING:
    from ikusa.dice.bcdice import barabara, calc, reroll, sum_dice, tally, upper
    from ikusa.dice.result import RollResult
    from ikusa.dice.source import DiceSource

    _Parsed = sum_dice.Command | barabara.Command | calc.Command | reroll.Command | tally.Command | upper.Command

__all__ = ["Evaluator", "roll_command"]

#: the parsers, tried in this order; each module is imported when a command first gets to it
#: (``ikusa roll 2D6`` loads the sum dice only: issue #12, start-up)
_PARSER_MODULES = ("sum_dice", "barabara", "calc", "reroll", "tally", "upper")
_PARSED: list[Callable[[list[Token], str], _Parsed]] = []


def _parser(i: int) -> Callable[[list[Token], str], _Parsed]:
    while len(_PARSED) <= i:
        module = importlib.import_module(f"ikusa.dice.bcdice.{_PARSER_MODULES[len(_PARSED)]}")
        _PARSED.append(module.parse)
    return _PARSED[i]


def roll_command(command: str, dice: DiceSource, *, evaluate: Evaluator | None = None) -> RollResult | None:
    """Run one DiceBot command with dice from ``dice``; ``None`` if it is not a command.

    ``evaluate`` is what a repeat (``x3 CMD``) runs for each repetition; by default this
    function itself."""
    toks = tokenize(command)
    for i in range(len(_PARSER_MODULES)):
        try:
            cmd = _parser(i)(toks, command)
        except ParseFail:
            continue
        result = cmd.eval(DiceTray(dice))
        if result is not None:
            return result
    from ikusa.dice.bcdice import choice, d66, repeat

    tray = DiceTray(dice)
    result = choice.roll(command, tray)
    if result is None:
        result = d66.roll(command, tray)
    if result is None:
        result = repeat.roll(command, dice, evaluate or _self_evaluator)
    return result


def _self_evaluator(command: str, dice: DiceSource) -> RollResult | None:
    return roll_command(command, dice)
