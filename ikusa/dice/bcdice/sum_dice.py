"""Sum dice ``xDy`` (BCDice ``CommonCommand::AddDice``): arithmetic over dice rolls with an
optional comparison.

Grammar (BCDice's ``add_dice/parser.y``)::

    command : [S] add [CMP (add | ?)]          lhs must roll dice, rhs must not
    add     : add (+|-) mul | mul               a + -b is shown as a-b
    mul     : mul * unary | mul / unary [F|U|C|R] | unary
    unary   : + unary | - unary | dice          - -x is x
    dice    : term D term [filter] | term D [filter] | D term [filter] | term
    filter  : (KH|KL|DH|DL) [term] | MAX | MIN
    term    : ( add ) | NUMBER

``2D`` rolls DiceBot's implicit d6 and is shown as ``2D6``; ``D6`` is ``1D6``; ``D66``
is not a sum dice (it is :mod:`ikusa.dice.bcdice.d66`) but ``1D66`` rolls d66 values
(two d6, tens then ones, unsorted for DiceBot).  ``x/0`` is 1 (BCDice's rule).

Output: ``(EXPR) ＞ STEPS ＞ TOTAL [＞ 成功|失敗]``; the STEPS part is left out when the
left side is a single ``xDy`` that drew at most one die: ``(1D6) ＞ 3``.  The plain
DiceBot only says 成功/失敗 (``success``/``failure`` flags); it never sets critical or
fumble for sum dice (those come from game systems' ``result_2d6`` etc.).  A ``?`` target
prints no verdict and sets no flag.
"""

from __future__ import annotations

from typing import Protocol

from ikusa.dice.bcdice.arith import apply_op, literal
from ikusa.dice.bcdice.fmt import SEP, cmp_text, compare
from ikusa.dice.bcdice.infix import InfixGrammar
from ikusa.dice.bcdice.lexer import ParseFail, Token, Tokens
from ikusa.dice.bcdice.tray import DiceTray
from ikusa.dice.result import RollResult
from ikusa.engine.errors import InputError

#: DiceBot's ``sides_implicit_d``
IMPLICIT_SIDES = 6


# The nodes below are plain slots classes, not dataclasses: ``dataclasses`` imports ``inspect``,
# about 8 ms of every ``ikusa roll`` start-up (issue #12, target 6).


class Ctx:
    """One evaluation: the dice tray and BCDice's ``rand_results`` count (one per xDy die; a d66
    value counts once)."""

    __slots__ = ("rand_count", "tray")

    def __init__(self, tray: DiceTray, rand_count: int = 0) -> None:
        self.tray = tray
        self.rand_count = rand_count


class Node(Protocol):
    def eval(self, ctx: Ctx) -> int: ...
    def expr(self) -> str: ...
    def output(self) -> str: ...
    def include_dice(self) -> bool: ...


class Number:
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def value(self) -> int:
        return literal(self.text)

    def eval(self, ctx: Ctx) -> int:
        return self.value()

    def expr(self) -> str:
        return str(self.value())

    def output(self) -> str:
        return self.expr()

    def include_dice(self) -> bool:
        return False


class Paren:
    __slots__ = ("inner",)

    def __init__(self, inner: Node) -> None:
        self.inner = inner

    def eval(self, ctx: Ctx) -> int:
        return self.inner.eval(ctx)

    def expr(self) -> str:
        return f"({self.inner.expr()})"

    def output(self) -> str:
        return f"({self.inner.output()})"

    def include_dice(self) -> bool:
        return self.inner.include_dice()


class Negate:
    __slots__ = ("body",)

    def __init__(self, body: Node) -> None:
        self.body = body

    def eval(self, ctx: Ctx) -> int:
        return -self.body.eval(ctx)

    def expr(self) -> str:
        return f"-{self.body.expr()}"

    def output(self) -> str:
        return f"-{self.body.output()}"

    def include_dice(self) -> bool:
        return self.body.include_dice()


class Chain:
    """``first op x op y …`` left to right; steps are ``(op, node, rounding)`` where
    rounding is the suffix of a division (``""``, ``F``, ``U``, ``R``)."""

    __slots__ = ("first", "rest")

    def __init__(self, first: Node, rest: list[tuple[str, Node, str]]) -> None:
        self.first = first
        self.rest = rest

    def eval(self, ctx: Ctx) -> int:
        value = self.first.eval(ctx)
        for op, node, rounding in self.rest:
            rhs = node.eval(ctx)
            value = 1 if op == "/" and rhs == 0 else apply_op(value, op, rhs, rounding)
        return value

    def expr(self) -> str:
        return self.first.expr() + "".join(f"{op}{n.expr()}{r}" for op, n, r in self.rest)

    def output(self) -> str:
        return self.first.output() + "".join(f"{op}{n.output()}{r}" for op, n, r in self.rest)

    def include_dice(self) -> bool:
        return self.first.include_dice() or any(n.include_dice() for _, n, _ in self.rest)


def roll_values(ctx: Ctx, times: int, sides: int) -> list[int]:
    """BCDice's AddDice randomizer: ``times`` dice of ``sides`` (d66 for 66), with
    BCDice's limits (:mod:`ikusa.dice.bcdice.limits`): more than 200 dice roll nothing,
    a die of more than 10,000 sides shows 0."""
    if sides == 66:
        values = []
        for _ in range(max(times, 0)):
            tens, ones = ctx.tray.roll(6, 2, "D66")
            values.append(tens * 10 + ones)
    else:
        values = ctx.tray.roll(sides, times, f"{times}D{sides}")
    ctx.rand_count += len(values)
    return values


class DiceRoll:
    """``xDy``; ``sides`` ``None`` is DiceBot's implicit d6 (``2D``).  Shown with the
    evaluated count and sides: ``(1+1)D(2*3)`` is ``2D6``."""

    __slots__ = ("_shown", "_text", "sides", "times")

    def __init__(self, times: Node, sides: Node | None) -> None:
        self.times = times
        self.sides = sides
        self._text = ""
        self._shown = ""

    def eval(self, ctx: Ctx) -> int:
        times = self.times.eval(ctx)
        sides = IMPLICIT_SIDES if self.sides is None else self.sides.eval(ctx)
        self._shown = f"{times}D{sides}"
        values = roll_values(ctx, times, sides)
        total = sum(values)
        self._text = f"{total}[{','.join(map(str, values))}]"
        return total

    def expr(self) -> str:
        return self._shown

    def output(self) -> str:
        return self._text

    def include_dice(self) -> bool:
        return True


class FilterRoll:
    """``xDyKHn`` / ``KL`` / ``DH`` / ``DL``: roll, sort, keep or drop, sum."""

    __slots__ = ("_shown", "_text", "abbr", "n", "sides", "times")

    def __init__(self, times: Node, sides: Node | None, n: Node, abbr: str) -> None:
        self.times = times
        self.sides = sides
        self.n = n
        self.abbr = abbr
        self._text = ""
        self._shown = ""

    def eval(self, ctx: Ctx) -> int:
        times = self.times.eval(ctx)
        sides = IMPLICIT_SIDES if self.sides is None else self.sides.eval(ctx)
        n = self.n.eval(ctx)
        self._shown = f"{times}D{sides}{self.abbr}{n}"
        if n < 0:
            raise InputError(f"cannot keep or drop a negative number of dice ({n})", source="<command>")
        values = sorted(roll_values(ctx, times, sides))
        high_first = values[::-1]
        kept = {
            "KH": high_first[:n],
            "KL": values[:n],
            "DH": high_first[n:],
            "DL": values[n:],
        }[self.abbr]
        total = sum(kept)
        self._text = f"{total}[{','.join(map(str, values))}]"
        return total

    def expr(self) -> str:
        return self._shown

    def output(self) -> str:
        return self._text

    def include_dice(self) -> bool:
        return True


class _Undecided:
    """The ``?`` target: shown, never compared."""


UNDECIDED = _Undecided()


class Command:
    __slots__ = ("lhs", "op", "rhs", "secret")

    def __init__(self, secret: bool, lhs: Node, op: str | None = None, rhs: Node | _Undecided | None = None) -> None:
        self.secret = secret
        self.lhs = lhs
        self.op = op
        self.rhs = rhs

    def eval(self, tray: DiceTray) -> RollResult:
        ctx = Ctx(tray)
        total = self.lhs.eval(ctx)
        steps: list[str] = []
        if not (ctx.rand_count <= 1 and isinstance(self.lhs, DiceRoll)):
            steps.append(self.lhs.output())
        steps.append(str(total))
        rhs_text = ""
        success = failure = False
        if self.op is not None and self.rhs is not None:
            if isinstance(self.rhs, _Undecided):
                rhs_text = "?"
            else:
                target = self.rhs.eval(ctx)
                rhs_text = str(target)
                success = compare(total, self.op, target)
                failure = not success
                steps.append("成功" if success else "失敗")
        expr = self.lhs.expr() + cmp_text(self.op) + rhs_text
        return RollResult(
            text=SEP.join([f"({expr})", *steps]),
            success=success,
            failure=failure,
            secret=self.secret,
            dice=list(tray.drawn),
            extra={"command": "sum_dice", "total": total},
        )


def parse(toks: list[Token], command: str) -> Command:
    """Parse a sum-dice command or raise :class:`ParseFail`."""
    t = Tokens(toks)
    secret = t.accept("S") is not None
    lhs = _GRAMMAR.add(t)
    rhs: Node | _Undecided | None = None
    op = t.comparison()
    if op is not None:
        if t.accept("?"):
            rhs = UNDECIDED
        else:
            rhs = _GRAMMAR.add(t)
            if rhs.include_dice():
                raise ParseFail("the target may not roll dice")
    t.expect_end()
    if not lhs.include_dice():
        raise ParseFail("no dice")
    return Command(secret, lhs, op, rhs)


class _SumDice(InfixGrammar[Node]):
    def chain(self, first: Node, rest: list[tuple[str, Node, str]]) -> Node:
        return Chain(first, rest)

    def negate(self, signs: int, node: Node) -> Node:
        return Negate(node) if signs % 2 else node

    def paren(self, inner: Node) -> Node:
        return Paren(inner)

    def number(self, text: str) -> Node:
        return Number(text)

    def add_step(self, op: str, node: Node) -> tuple[str, Node, str]:
        if isinstance(node, Negate):  # BCDice's expand_negate: a+-b is a-b, a--b is a+b
            return ("-" if op == "+" else "+", node.body, "")
        return (op, node, "")

    def operand(self, t: Tokens) -> Node:
        return _dice(t)


_GRAMMAR = _SumDice()
_term = _GRAMMAR.term


def _no_dice(node: Node) -> Node:
    if node.include_dice():
        raise ParseFail("dice count/sides may not roll dice")
    return node


def _filter(t: Tokens) -> tuple[str, Node] | None:
    for a, b in (("K", "H"), ("K", "L"), ("D", "H"), ("D", "L")):
        if t.is_kinds(a, b):
            t.pos += 2
            n: Node = Number("1")
            if t.peek().kind in ("NUM", "("):
                n = _no_dice(_term(t))
            return a + b, n
    if t.is_kinds("M", "A", "X"):
        t.pos += 3
        return "KH", Number("1")
    if t.is_kinds("M", "I", "N"):
        t.pos += 3
        return "KL", Number("1")
    return None


def _roll(times: Node, sides: Node | None, filt: tuple[str, Node] | None) -> Node:
    if filt is None:
        return DiceRoll(times, sides)
    return FilterRoll(times, sides, filt[1], filt[0])


def _dice(t: Tokens) -> Node:
    if t.accept("D"):  # D term [filter]: one die
        sides = _no_dice(_term(t))
        if isinstance(sides, Number) and sides.text.lstrip("0") == "66":
            raise ParseFail("D66 is the d66 command")
        return _roll(Number("1"), sides, _filter(t))
    term = _term(t)
    if not t.accept("D"):
        return term
    times = _no_dice(term)
    filt = _filter(t)
    if filt is not None:  # 2DKH1: implicit sides with a filter
        return _roll(times, None, filt)
    if t.peek().kind in ("NUM", "("):
        sides = _no_dice(_term(t))
        return _roll(times, sides, _filter(t))
    return DiceRoll(times, None)
