"""``C(式)`` calculation (BCDice ``CommonCommand::Calc``): integer arithmetic, no dice.

Grammar ``[S] C add`` with BCDice's ``+ - * /`` (``/U /C /R /F`` rounding) and ``^``
(power, right associative).  Output ``計算結果 ＞ 7``.  Division by zero, a negative
exponent or a result beyond the number limit is an :class:`InputError`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ikusa.dice.bcdice import arith
from ikusa.dice.bcdice.fmt import SEP
from ikusa.dice.bcdice.lexer import Token, Tokens
from ikusa.dice.bcdice.tray import DiceTray
from ikusa.dice.result import RollResult


@dataclass(frozen=True, slots=True)
class Command:
    secret: bool
    expr: arith.Expr

    def eval(self, tray: DiceTray) -> RollResult:
        value = self.expr.eval()
        return RollResult(text=f"計算結果{SEP}{value}", secret=self.secret, extra={"command": "calc", "total": value})


def parse(toks: list[Token], command: str) -> Command:
    t = Tokens(toks)
    t.power = True
    secret = t.accept("S") is not None
    t.expect("C")
    expr = arith.parse_add(t)
    t.expect_end()
    return Command(secret, expr)
