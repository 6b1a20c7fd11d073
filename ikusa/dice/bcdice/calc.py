"""``C(式)`` calculation (BCDice ``CommonCommand::Calc``): integer arithmetic, no dice.

Grammar (BCDice's ``calc/parser.y``)::

    command : [S] C add
    add     : add (+|-) mul | mul
    mul     : mul * unary | mul / unary [U|C|R|F] | unary
    unary   : + unary | - unary | term
    term    : ( add ) | NUMBER

The answer echoes the expression as BCDice prints it (``c(1+2) ＞ 3``; ``C1+4*3/2`` is
``c(1+4*3/2) ＞ 7``; a unary ``+`` is dropped, ``/U`` is shown ``/C``).  Division rounds
down unless ``U``/``C`` (up), ``R`` (half away from zero) or ``F`` (down) follows it; by
zero it answers ``c(1/0) ＞ ゼロ除算が発生したため計算できませんでした``.  There is no ``^``:
BCDice 3.16.1 has no power operator, so ``C(2^3)`` is not a command.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ikusa.dice.bcdice.arith import apply_op, literal
from ikusa.dice.bcdice.fmt import SEP
from ikusa.dice.bcdice.infix import InfixGrammar
from ikusa.dice.bcdice.lexer import Token, Tokens
from ikusa.dice.bcdice.tray import DiceTray
from ikusa.dice.result import RollResult

ZERO_DIVISION = "ゼロ除算が発生したため計算できませんでした"

#: how BCDice prints a rounding suffix (``U`` and ``C`` are both ``DivideWithCeil``)
_SHOWN = {"": "", "F": "F", "U": "C", "R": "R"}


class _ZeroDivision(Exception):
    pass


class Node(Protocol):
    def eval(self) -> int: ...
    def output(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Number:
    value: int

    def eval(self) -> int:
        return self.value

    def output(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Negative:
    """``count`` minus signs before ``body`` (one node, so ``-----1`` never recurses)."""

    count: int
    body: Node

    def eval(self) -> int:
        value = self.body.eval()
        return -value if self.count % 2 else value

    def output(self) -> str:
        return "-" * self.count + self.body.output()


@dataclass(frozen=True, slots=True)
class Paren:
    inner: Node

    def eval(self) -> int:
        return self.inner.eval()

    def output(self) -> str:
        return f"({self.inner.output()})"


@dataclass(frozen=True, slots=True)
class Chain:
    """``first op x op y …`` left to right (flat, so a long chain never recurses);
    each step is ``(op, node, rounding)``."""

    first: Node
    rest: tuple[tuple[str, Node, str], ...]

    def eval(self) -> int:
        value = self.first.eval()
        for op, node, rounding in self.rest:
            rhs = node.eval()
            if op == "/" and rhs == 0:
                raise _ZeroDivision
            value = apply_op(value, op, rhs, rounding)
        return value

    def output(self) -> str:
        return self.first.output() + "".join(f"{op}{n.output()}{_SHOWN[r]}" for op, n, r in self.rest)


@dataclass(frozen=True, slots=True)
class Command:
    secret: bool
    expr: Node

    def eval(self, tray: DiceTray) -> RollResult:
        value: int | str
        try:
            value = self.expr.eval()
        except _ZeroDivision:
            value = ZERO_DIVISION
        shown = self.expr.output() if isinstance(self.expr, Paren) else f"({self.expr.output()})"
        extra: dict[str, object] = {"command": "calc", "total": value if isinstance(value, int) else None}
        return RollResult(text=f"c{shown}{SEP}{value}", secret=self.secret, extra=extra)


class _Calc(InfixGrammar[Node]):
    def chain(self, first: Node, rest: list[tuple[str, Node, str]]) -> Node:
        return Chain(first, tuple(rest))

    def negate(self, signs: int, node: Node) -> Node:
        return Negative(signs, node)

    def paren(self, inner: Node) -> Node:
        return Paren(inner)

    def number(self, text: str) -> Node:
        return Number(literal(text))


_GRAMMAR = _Calc()


def parse(toks: list[Token], command: str) -> Command:
    t = Tokens(toks)
    secret = t.accept("S") is not None
    t.expect("C")
    expr = _GRAMMAR.add(t)
    t.expect_end()
    return Command(secret, expr)
