"""Reroll dice ``xRy`` (BCDice ``CommonCommand::RerollDice``, 個数振り足し).

Roll the dice; for every die meeting the reroll condition roll one more die of the same
kind, queued after the groups already waiting (breadth first), until no die qualifies.
Count the dice meeting the success comparison.  Grammar::

    command   : [S] notations [ '[' [CMP] add ']' ] [CMP add] [@ [CMP] add]
    notations : term R term (+ term R term)*

The reroll threshold comes from the brackets or ``@`` (not both), else the success
target.  The reroll operator is the bracket's/``@``'s own, else the success operator,
else ``>=``; it is printed inside the brackets only when it differs from the success
operator: ``(3R6[4]>=4)``, ``(2R6[>=5])``, ``(2R6[>3]>=5)``.  BCDice's validity rule per
die kind: ``<=t`` needs t < sides, ``<t`` t <= sides, ``>=t`` t > 1, ``>t`` t >= 1,
``<>t`` t in 1..sides; without any threshold (or an invalid one) the answer is
``CMD ＞ 条件が間違っています。…`` and nothing is rolled.

Output ``(3R6[4]>=4) ＞ 5,2,6 + 4,1 + 3 ＞ 成功数3`` (groups joined by `` + ``;
``成功数0`` without a success comparison).  No success/failure flags (as BCDice).
At most :data:`REROLL_LIMIT` groups are rolled (BCDice's loop limit) and every drawn die
counts towards the 10,000-dice budget of a command, so ``1R1[=1]`` is a
:class:`DiceError`, never a hang (BCDice raises ``TooManyRandsError``).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from ikusa.dice.bcdice import arith
from ikusa.dice.bcdice.barabara import parse_notations, parse_target
from ikusa.dice.bcdice.fmt import SEP, cmp_text, compare
from ikusa.dice.bcdice.lexer import Token, Tokens, first_word
from ikusa.dice.bcdice.tray import DiceTray
from ikusa.dice.result import RollResult

#: BCDice's ``REROLL_LIMIT``: groups rolled at most
REROLL_LIMIT = 10_000

INVALID = "条件が間違っています。2R6>=5 あるいは 2R6[5] のように振り足し目標値を指定してください。"


def valid_condition(op: str, threshold: int | None, sides: int) -> bool:
    """BCDice's ``RerollCondition#valid?``: the condition cannot reroll every face."""
    if threshold is None:
        return False
    if op == "<=":
        return threshold < sides
    if op == "<":
        return threshold <= sides
    if op == ">=":
        return threshold > 1
    if op == ">":
        return threshold >= 1
    if op == "!=":
        return 1 <= threshold <= sides
    return True


@dataclass(frozen=True, slots=True)
class Command:
    source: str
    secret: bool
    notations: tuple[tuple[arith.Expr, arith.Expr], ...]
    op: str | None
    target: arith.Expr | None
    reroll_op: str | None
    reroll_threshold: arith.Expr | None

    def eval(self, tray: DiceTray) -> RollResult:
        op = self.op
        reroll_op = self.reroll_op or op or ">="
        target = self.target.eval() if self.target is not None else None
        threshold = self.reroll_threshold.eval() if self.reroll_threshold is not None else target
        dice = [(times.eval(), sides.eval()) for times, sides in self.notations]
        if not all(valid_condition(reroll_op, threshold, sides) for _, sides in dice):
            return RollResult(text=f"{self.source}{SEP}{INVALID}", secret=self.secret, extra={"command": "reroll"})
        assert threshold is not None
        queue = deque(dice)
        groups: list[list[int]] = []
        while queue and len(groups) < REROLL_LIMIT:
            times, sides = queue.popleft()
            values = tray.roll(sides, times, f"{times}R{sides}")
            groups.append(values)
            again = sum(compare(v, reroll_op, threshold) for v in values)
            if again > 0:
                queue.append((again, sides))
        values = [v for g in groups for v in g]
        count = sum(compare(v, op, target) for v in values) if op is not None and target is not None else 0
        shown_reroll_op = "" if reroll_op == op else cmp_text(reroll_op)
        expr = (
            "+".join(f"{t}R{s}" for t, s in dice)
            + f"[{shown_reroll_op}{threshold}]"
            + cmp_text(op)
            + ("" if target is None else str(target))
        )
        return RollResult(
            text=SEP.join([f"({expr})", " + ".join(",".join(map(str, g)) for g in groups), f"成功数{count}"]),
            secret=self.secret,
            dice=list(tray.drawn),
            extra={"command": "reroll", "success_count": count},
        )


def _threshold(t: Tokens) -> tuple[str | None, arith.Expr]:
    op = t.comparison()
    return op, arith.parse_add(t)


def parse(toks: list[Token], command: str) -> Command:
    t = Tokens(toks)
    secret = t.accept("S") is not None
    notations = parse_notations(t, "R")
    reroll_op: str | None = None
    reroll_threshold: arith.Expr | None = None
    if t.accept("["):
        reroll_op, reroll_threshold = _threshold(t)
        t.expect("]")
    op, target = parse_target(t)
    if reroll_threshold is None and t.accept("@"):
        reroll_op, reroll_threshold = _threshold(t)
    t.expect_end()
    return Command(first_word(command), secret, notations, op, target, reroll_op, reroll_threshold)
