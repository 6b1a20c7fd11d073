"""Abuse limits of the common dice bot, as BCDice 3.16.1 (bcdice-js 4.9.0) draws them.

BCDice's ``Randomizer`` has three limits and ikusa follows them, so a drop-in answers what
BCDice answers (issue #10):

* ``MAX_TIMES`` — one roll of more than 200 dice (or of 0 or fewer) rolls nothing:
  ``500D6`` is ``(500D6) ＞ 0``, ``201D`` is ``(201D6) ＞ 0`` (BCDice's ``roll_barabara``).
  ``100D6+100D6+100D6`` is three rolls of 100 and rolls 300 dice.
* ``MAX_SIDES`` — a die of more than 10,000 sides (or of 0 or fewer) shows 0 and draws
  nothing: ``1D10001`` is ``(1D10001) ＞ 0`` (BCDice's ``roll_once``).
* ``MAX_RANDS`` — at most 10,000 dice drawn by one command, repeats included (BCDice's
  ``UPPER_LIMIT_RANDS``, a shared randomizer); one more is a
  :class:`~ikusa.engine.errors.DiceError` (BCDice raises ``TooManyRandsError``), so an
  exploding ``1U6[2]`` or a ``x100 100D6`` can never run away.

ikusa adds two limits of its own so that no text can hang or exhaust memory:

* ``MAX_REPEAT`` — ``x``/``rep``/``repeat`` takes 1..100 (BCDice's own limit, answered with
  its message ``繰り返し回数は1以上、100以下としてください``).
* ``MAX_DIGITS`` — a number literal has at most 1,000 digits and no intermediate value
  may exceed 10**1000 in absolute value (:class:`~ikusa.engine.errors.InputError`).
* ``MAX_DEPTH`` — parentheses nest at most 100 deep; deeper text is not parsed as a
  command (empty result), so the parser never overflows the stack.
"""

from __future__ import annotations

MAX_TIMES = 200
MAX_SIDES = 10_000
MAX_RANDS = 10_000
MAX_REPEAT = 100
MAX_DIGITS = 1_000
MAX_MAGNITUDE = 10**MAX_DIGITS
MAX_DEPTH = 100
