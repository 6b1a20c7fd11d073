"""Tally dice ``xTYy`` / ``xTZy`` (BCDice ``CommonCommand::TallyDice``, 個数カウント).

Roll ``x`` dice of ``y`` sides and count how many show each face:
``(5TY6) ＞ 1,3,3,6,1 ＞ [1]×2, [3]×2, [6]×1``; ``TZ`` also lists faces rolled zero times.
A count or sides of 0 or less is not a command; sides over 20 answer BCDice's
``面数は1以上、20以下としてください`` without rolling.  Grammar ``[S] term T (Y|Z) term``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ikusa.dice.bcdice import arith
from ikusa.dice.bcdice.fmt import SEP
from ikusa.dice.bcdice.lexer import ParseFail, Token, Tokens
from ikusa.dice.bcdice.tray import DiceTray
from ikusa.dice.result import RollResult

MAX_TALLY_SIDES = 20


@dataclass(frozen=True, slots=True)
class Command:
    secret: bool
    times: arith.Expr
    sides: arith.Expr
    show_zeros: bool

    def eval(self, tray: DiceTray) -> RollResult | None:
        times, sides = self.times.eval(), self.sides.eval()
        if times <= 0 or sides <= 0:
            return None
        head = f"({times}T{'Z' if self.show_zeros else 'Y'}{sides})"
        if sides > MAX_TALLY_SIDES:
            return RollResult(
                text=f"{head}{SEP}面数は1以上、{MAX_TALLY_SIDES}以下としてください",
                secret=self.secret,
                extra={"command": "tally"},
            )
        values = tray.roll(sides, times, f"{times}T{sides}")
        counts = {face: values.count(face) for face in range(1, sides + 1)}
        shown = ", ".join(f"[{f}]×{n}" for f, n in counts.items() if n or self.show_zeros)
        return RollResult(
            text=SEP.join([head, ",".join(map(str, values)), shown]),
            secret=self.secret,
            dice=list(tray.drawn),
            extra={"command": "tally", "counts": {str(f): n for f, n in counts.items()}},
        )


def parse(toks: list[Token], command: str) -> Command:
    t = Tokens(toks)
    secret = t.accept("S") is not None
    times = arith.parse_term(t)
    t.expect("T")
    if t.accept("Y"):
        show_zeros = False
    elif t.accept("Z"):
        show_zeros = True
    else:
        raise ParseFail("expected Y or Z")
    sides = arith.parse_term(t)
    t.expect_end()
    return Command(secret, times, sides, show_zeros)
