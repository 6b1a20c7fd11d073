"""Integer arithmetic as BCDice does it (``Arithmetic::Node`` and the add/mul/unary/term
grammar shared by ``xBy``, ``xUy`` and ``xRy``).

Ruby semantics: ``/`` floors; ``/U`` and ``/C`` round up, ``/R`` rounds half away from
zero (``Float#round``), ``/F`` or a bare ``/`` floors (DiceBot's ``round_type`` is FLOOR).
ikusa computes these exactly on integers instead of through floats (identical results for
every value below 2**53).  Division by zero in these contexts is an :class:`InputError`
(BCDice raises a Ruby exception); in sum dice (``xDy``) BCDice's own rule applies
(``x/0`` is 1, see :mod:`ikusa.dice.bcdice.sum_dice`).

The grammar is :class:`ikusa.dice.bcdice.infix.InfixGrammar`.
"""

from __future__ import annotations

from typing import Protocol

from ikusa.dice.bcdice.infix import InfixGrammar
from ikusa.dice.bcdice.limits import MAX_DIGITS, MAX_MAGNITUDE
from ikusa.engine.errors import InputError


def literal(text: str) -> int:
    """A number literal, within :data:`MAX_DIGITS` digits."""
    digits = text.lstrip("0")
    if len(digits) > MAX_DIGITS:
        raise InputError(f"number too large: {len(digits)} digits (at most {MAX_DIGITS})", source="<command>")
    return int(digits or "0")


def checked(value: int) -> int:
    """Refuse intermediate values beyond 10**MAX_DIGITS."""
    if abs(value) > MAX_MAGNITUDE:
        raise InputError(f"number too large (over 10^{MAX_DIGITS})", source="<command>")
    return value


def divide(dividend: int, divisor: int, rounding: str) -> int:
    """``dividend / divisor`` with BCDice's rounding (``divisor`` non-zero).

    >>> [divide(7, 2, r) for r in ("", "F", "U", "R")], divide(-7, 2, ""), divide(-7, 2, "R")
    ([3, 3, 4, 4], -4, -4)
    """
    if rounding == "U":
        return -((-dividend) // divisor)
    if rounding == "R":
        q, r = divmod(abs(dividend), abs(divisor))
        if 2 * r >= abs(divisor):
            q += 1
        return q if (dividend < 0) == (divisor < 0) else -q
    return dividend // divisor


def apply_op(lhs: int, op: str, rhs: int, rounding: str = "") -> int:
    if op == "+":
        return checked(lhs + rhs)
    if op == "-":
        return checked(lhs - rhs)
    if op == "*":
        return checked(lhs * rhs)
    if rhs == 0:
        raise InputError("division by zero", source="<command>")
    return divide(lhs, rhs, rounding)


class Expr(Protocol):
    def eval(self) -> int: ...


class Num:
    """A literal number.  The expression nodes are plain slots classes, treated as immutable, not
    dataclasses: ``dataclasses`` imports ``inspect``, about 8 ms of every ``ikusa roll`` (issue #12)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"Num({self.text!r})"

    def eval(self) -> int:
        return literal(self.text)


class Neg:
    __slots__ = ("body",)

    def __init__(self, body: Expr) -> None:
        self.body = body

    def __repr__(self) -> str:
        return f"Neg({self.body!r})"

    def eval(self) -> int:
        return -self.body.eval()


class Chain:
    """``first op1 x1 op2 x2 …`` evaluated left to right; each step is
    ``(op, operand, rounding)``."""

    __slots__ = ("first", "rest")

    def __init__(self, first: Expr, rest: tuple[tuple[str, Expr, str], ...]) -> None:
        self.first = first
        self.rest = rest

    def __repr__(self) -> str:
        return f"Chain({self.first!r}, {self.rest!r})"

    def eval(self) -> int:
        value = self.first.eval()
        for op, node, rounding in self.rest:
            value = apply_op(value, op, node.eval(), rounding)
        return value


class _Arith(InfixGrammar[Expr]):
    def chain(self, first: Expr, rest: list[tuple[str, Expr, str]]) -> Expr:
        return Chain(first, tuple(rest))

    def negate(self, signs: int, node: Expr) -> Expr:
        return Neg(node) if signs % 2 else node

    def number(self, text: str) -> Expr:
        return Num(text)


_ARITH = _Arith()
#: the rules of :mod:`ikusa.dice.bcdice.infix` over plain numbers
parse_add = _ARITH.add
parse_mul = _ARITH.mul
parse_term = _ARITH.term
