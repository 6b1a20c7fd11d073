"""Abuse limits of the common dice bot (issue #2 §2).

BCDice itself only caps ``x3`` repeats (100) and reroll loops (10,000 iterations); ikusa
adds hard caps so that no command can hang or exhaust memory:

* ``MAX_DICE`` — at most 200 dice drawn by one command evaluation, counted across the
  whole command (every term of ``2D6+3D10``, every exploded die of ``xUy``, every
  rerolled die of ``xRy``, both d6 of a ``1D66`` die).  A repeat (``x3 CMD``) evaluates
  its command up to 100 times; each evaluation has its own 200-dice budget.
* ``MAX_SIDES`` — a die has 1..10,000 sides.
* ``MAX_REPEAT`` — ``x``/``rep``/``repeat`` takes 1..100 (BCDice's own limit).
* ``MAX_DIGITS`` — a number literal has at most 1,000 digits and no intermediate value
  may exceed 10**1000 in absolute value.
* ``MAX_DEPTH`` — parentheses nest at most 100 deep; deeper text is not parsed as a
  command (empty result), so the parser never overflows the stack.

Going over a limit raises :class:`~ikusa.engine.errors.DiceError` (dice) or
:class:`~ikusa.engine.errors.InputError` (numbers, repeats) with a one-line message.
"""

from __future__ import annotations

MAX_DICE = 200
MAX_SIDES = 10_000
MAX_REPEAT = 100
MAX_DIGITS = 1_000
MAX_MAGNITUDE = 10**MAX_DIGITS
MAX_DEPTH = 100
