"""The infix grammar that BCDice's ``xDy``, ``C(…)`` and the ``xUy``/``xRy`` operands share::

    add   : add (+|-) mul | mul
    mul   : mul * unary | mul / unary [F|U|C|R] | unary
    unary : + unary | - unary | operand           (operand is a term unless a command says)
    term  : ( add ) | NUMBER

:class:`InfixGrammar` parses it once; each command says what nodes it builds (its own node
classes print and evaluate the way its BCDice parser does).  Chains of ``+ -`` and ``* /``
are kept flat (left to right) and signs are counted, so a long expression never recurses
deeply.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from ikusa.dice.bcdice.lexer import ParseFail, Tokens

#: rounding suffix after ``/``: "" (game default = floor), "F", "U" (also C), "R"
ROUNDINGS = {"F": "F", "U": "U", "C": "U", "R": "R"}

N = TypeVar("N")

#: one step of a chain: ``(operator, operand, rounding suffix of a division)``
Step = tuple[str, N, str]


class InfixGrammar(Generic[N]):
    """A recursive-descent parser over :class:`Tokens`; subclasses build the nodes."""

    def chain(self, first: N, rest: list[Step[N]]) -> N:
        raise NotImplementedError

    def negate(self, signs: int, node: N) -> N:
        """``signs`` minus signs (at least one) before ``node``."""
        raise NotImplementedError

    def paren(self, inner: N) -> N:
        return inner

    def number(self, text: str) -> N:
        raise NotImplementedError

    def add_step(self, op: str, node: N) -> Step[N]:
        """A ``+``/``-`` step as the command records it (sum dice folds ``a+-b`` into ``a-b``)."""
        return (op, node, "")

    def operand(self, t: Tokens) -> N:
        return self.term(t)

    def add(self, t: Tokens) -> N:
        first = self.mul(t)
        rest: list[Step[N]] = []
        while t.peek().kind in ("+", "-"):
            op = t.peek().kind
            t.pos += 1
            rest.append(self.add_step(op, self.mul(t)))
        return self.chain(first, rest) if rest else first

    def mul(self, t: Tokens) -> N:
        first = self.unary(t)
        rest: list[Step[N]] = []
        while t.peek().kind in ("*", "/"):
            op = t.peek().kind
            t.pos += 1
            node = self.unary(t)
            rounding = ""
            if op == "/" and t.peek().kind in ROUNDINGS:
                rounding = ROUNDINGS[t.peek().kind]
                t.pos += 1
            rest.append((op, node, rounding))
        return self.chain(first, rest) if rest else first

    def unary(self, t: Tokens) -> N:
        negations = 0
        while t.peek().kind in ("+", "-"):
            negations += t.peek().kind == "-"
            t.pos += 1
        node = self.operand(t)
        return self.negate(negations, node) if negations else node

    def term(self, t: Tokens) -> N:
        if t.accept("("):
            t.enter()
            inner = self.add(t)
            t.expect(")")
            t.leave()
            return self.paren(inner)
        tok = t.peek()
        if tok.kind == "NUM":
            t.pos += 1
            return self.number(tok.text)
        raise ParseFail(f"expected a number, got {tok.text!r}")
