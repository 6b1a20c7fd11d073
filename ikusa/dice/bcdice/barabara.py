"""Individual dice ``xBy`` (BCDice ``CommonCommand::BarabaraDice``): roll, list every die,
optionally count the dice that meet a comparison.

Grammar::

    command   : [S] notations [CMP add]
    notations : term B term (+ term B term)*

Output: ``(5B6>=4) ＞ 3,4,5,1,6 ＞ 成功数3`` (``成功数`` only with a comparison; several
notations are listed together: ``(2B6+1B10) ＞ 3,4,9``).  DiceBot sets no
success/failure flag for a success count (as BCDice); ``extra["success_count"]`` has it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ikusa.dice.bcdice import arith
from ikusa.dice.bcdice.fmt import SEP, cmp_text, compare
from ikusa.dice.bcdice.lexer import ParseFail, Token, Tokens
from ikusa.dice.bcdice.tray import DiceTray
from ikusa.dice.result import RollResult


@dataclass(frozen=True, slots=True)
class Command:
    secret: bool
    notations: tuple[tuple[arith.Expr, arith.Expr], ...]
    op: str | None = None
    target: arith.Expr | None = None

    def eval(self, tray: DiceTray) -> RollResult:
        dice = [(times.eval(), sides.eval()) for times, sides in self.notations]
        target = self.target.eval() if self.target is not None else None
        values: list[int] = []
        for times, sides in dice:
            values.extend(tray.roll(sides, times, f"{times}B{sides}"))
        expr = "+".join(f"{t}B{s}" for t, s in dice) + cmp_text(self.op) + ("" if target is None else str(target))
        steps = [f"({expr})", ",".join(map(str, values))]
        extra: dict[str, object] = {"command": "barabara", "values": values}
        if self.op is not None and target is not None:
            count = sum(compare(v, self.op, target) for v in values)
            steps.append(f"成功数{count}")
            extra["success_count"] = count
        return RollResult(text=SEP.join(steps), secret=self.secret, dice=list(tray.drawn), extra=extra)


def parse_notations(t: Tokens, letter: str) -> tuple[tuple[arith.Expr, arith.Expr], ...]:
    """``term L term (+ term L term)*``; a ``+`` not followed by another notation is left
    for the caller (the modifier of ``xUy``)."""
    out = [_notation(t, letter)]
    while t.peek().kind == "+":
        save = (t.pos, t.depth)
        t.pos += 1
        try:
            out.append(_notation(t, letter))
        except ParseFail:
            t.pos, t.depth = save
            break
    return tuple(out)


def _notation(t: Tokens, letter: str) -> tuple[arith.Expr, arith.Expr]:
    times = arith.parse_term(t)
    t.expect(letter)
    sides = arith.parse_term(t)
    return times, sides


def parse_target(t: Tokens) -> tuple[str | None, arith.Expr | None]:
    """``[CMP add]``; an operator that names none is not a command."""
    op = t.comparison()
    return (None, None) if op is None else (op, arith.parse_add(t))


def parse(toks: list[Token], command: str) -> Command:
    t = Tokens(toks)
    secret = t.accept("S") is not None
    notations = parse_notations(t, "B")
    op, target = parse_target(t)
    t.expect_end()
    return Command(secret, notations, op, target)
