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

from ikusa.dice.bcdice.arith import ROUNDINGS, checked, divide, literal
from ikusa.dice.bcdice.fmt import SEP
from ikusa.dice.bcdice.lexer import ParseFail, Token, Tokens
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
            if op == "+":
                value = checked(value + rhs)
            elif op == "-":
                value = checked(value - rhs)
            elif op == "*":
                value = checked(value * rhs)
            elif rhs == 0:
                raise _ZeroDivision
            else:
                value = divide(value, rhs, rounding)
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


def _add(t: Tokens) -> Node:
    first = _mul(t)
    rest: list[tuple[str, Node, str]] = []
    while t.peek().kind in ("+", "-"):
        op = t.peek().kind
        t.pos += 1
        rest.append((op, _mul(t), ""))
    return Chain(first, tuple(rest)) if rest else first


def _mul(t: Tokens) -> Node:
    first = _unary(t)
    rest: list[tuple[str, Node, str]] = []
    while t.peek().kind in ("*", "/"):
        op = t.peek().kind
        t.pos += 1
        node = _unary(t)
        rounding = ""
        if op == "/" and t.peek().kind in ROUNDINGS:
            rounding = ROUNDINGS[t.peek().kind]
            t.pos += 1
        rest.append((op, node, rounding))
    return Chain(first, tuple(rest)) if rest else first


def _unary(t: Tokens) -> Node:
    """``+ unary`` is the unary itself, ``- unary`` a negation (iterative over the signs)."""
    negations = 0
    while t.peek().kind in ("+", "-"):
        negations += t.peek().kind == "-"
        t.pos += 1
    node = _term(t)
    return Negative(negations, node) if negations else node


def _term(t: Tokens) -> Node:
    if t.accept("("):
        t.enter()
        inner = _add(t)
        t.expect(")")
        t.leave()
        return Paren(inner)
    tok = t.peek()
    if tok.kind == "NUM":
        t.pos += 1
        return Number(literal(tok.text))
    raise ParseFail(f"expected a number, got {tok.text!r}")


def parse(toks: list[Token], command: str) -> Command:
    t = Tokens(toks)
    secret = t.accept("S") is not None
    t.expect("C")
    expr = _add(t)
    t.expect_end()
    return Command(secret, expr)
