"""Upper-limit (exploding) dice ``xUy[t]`` (BCDice ``CommonCommand::UpperDice``, 上方無限).

Each die is rolled again while its latest value is at least the threshold ``t``; the die
counts the sum of its rolls.  Grammar::

    command   : [S] notations [ '[' add ']' ] [(+|-) mul ((+|-) mul)*] [CMP add] [@ add]
    notations : term U term (+ term U term)*

The threshold is in brackets or after ``@`` (not both: that is not a command, as in
BCDice's current grammar).  DiceBot has no default threshold, so without one (or with one of at
most 1) the answer is ``(EXPR) ＞ 無限ロールの条件がまちがっています`` and no die is rolled.
A ``+``/``-`` modifier (a sum of terms: ``-1+2`` is 1) is added to every die.

Output: ``(4U6[6]+1) ＞ 5,2,11[6,5]+1 ＞ 12/21(最大/合計)`` (max of die+modifier / sum of
dice plus the modifier once) or, with a comparison, ``＞ 成功数N`` counting dice whose
sum+modifier meets it.  No success/failure flags (as BCDice).  Every drawn die counts
towards the 10,000-dice budget of a command, so a long explosion is a :class:`DiceError`,
never a hang.
"""

from __future__ import annotations

from dataclasses import dataclass

from ikusa.dice.bcdice import arith
from ikusa.dice.bcdice.barabara import parse_notations, parse_target
from ikusa.dice.bcdice.fmt import SEP, cmp_text, compare, modifier_text
from ikusa.dice.bcdice.lexer import Token, Tokens
from ikusa.dice.bcdice.tray import DiceTray
from ikusa.dice.result import RollResult

INVALID = "無限ロールの条件がまちがっています"


@dataclass(frozen=True, slots=True)
class Command:
    secret: bool
    notations: tuple[tuple[arith.Expr, arith.Expr], ...]
    threshold: arith.Expr | None
    modifier: arith.Expr | None
    op: str | None
    target: arith.Expr | None

    def eval(self, tray: DiceTray) -> RollResult:
        dice = [(times.eval(), sides.eval()) for times, sides in self.notations]
        threshold = self.threshold.eval() if self.threshold is not None else 0
        modifier = self.modifier.eval() if self.modifier is not None else 0
        target = self.target.eval() if self.target is not None else None
        expr = (
            "+".join(f"{t}U{s}" for t, s in dice)
            + f"[{threshold}]"
            + modifier_text(modifier)
            + cmp_text(self.op)
            + ("" if target is None else str(target))
        )
        head = f"({expr})"
        if threshold <= 1:
            return RollResult(text=f"{head}{SEP}{INVALID}", secret=self.secret, extra={"command": "upper"})
        rolls: list[list[int]] = []
        for times, sides in dice:
            for _ in range(times):
                chain = [tray.roll_once(sides, f"{times}U{sides}[{threshold}]")]
                while chain[-1] >= threshold:
                    chain.append(tray.roll_once(sides, f"{times}U{sides}[{threshold}]"))
                rolls.append(chain)
        sums = [sum(c) for c in rolls]
        shown = ",".join(
            str(s) if len(c) == 1 else f"{s}[{','.join(map(str, c))}]" for s, c in zip(sums, rolls, strict=True)
        )
        extra: dict[str, object] = {"command": "upper", "sums": sums}
        if self.op is not None and target is not None:
            count = sum(compare(s + modifier, self.op, target) for s in sums)
            verdict = f"成功数{count}"
            extra["success_count"] = count
        else:
            top = str(max(s + modifier for s in sums)) if sums else ""
            verdict = f"{top}/{sum(sums) + modifier}(最大/合計)"
        return RollResult(
            text=SEP.join([head, shown + modifier_text(modifier), verdict]),
            secret=self.secret,
            dice=list(tray.drawn),
            extra=extra,
        )


def parse(toks: list[Token], command: str) -> Command:
    t = Tokens(toks)
    secret = t.accept("S") is not None
    notations = parse_notations(t, "U")
    threshold: arith.Expr | None = None
    if t.accept("["):
        threshold = arith.parse_add(t)
        t.expect("]")
    modifier = _modifier(t)
    op, target = parse_target(t)
    if threshold is None and t.accept("@"):
        threshold = arith.parse_add(t)
    t.expect_end()
    return Command(secret, notations, threshold, modifier, op, target)


def _modifier(t: Tokens) -> arith.Expr | None:
    """``modifier: (+|-) mul ((+|-) mul)*`` — a sum of terms, ``-1+2`` is 1."""
    if t.peek().kind not in ("+", "-"):
        return None
    negative = t.peek().kind == "-"
    t.pos += 1
    first = arith.parse_mul(t)
    rest: list[tuple[str, arith.Expr, str]] = []
    while t.peek().kind in ("+", "-"):
        sign = t.peek().kind
        t.pos += 1
        rest.append((sign, arith.parse_mul(t), ""))
    return arith.Chain(arith.Neg(first) if negative else first, tuple(rest))
