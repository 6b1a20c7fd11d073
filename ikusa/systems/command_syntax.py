"""Command-line syntax shared by the three systems' dice-bot commands (BCDice conventions).

* The command is the first whitespace-separated word; the rest is a comment (BCDice).
* Text is NFKC-normalised (full-width ``２Ｄ１０＋３＞＝１１`` reads as ``2D10+3>=11``) and
  upper-cased, so commands are case-insensitive.
* A leading ``S`` marks a secret roll (``S2D10+3>=11``); a system tries the word as written
  first, so ``SGS`` is 千幻抄's command and ``SSGS`` its secret form.
* Modifiers and targets are integer arithmetic as BCDice's command parser reads them:
  ``+ - * /`` and parentheses, ``/`` rounding down (BCDice's default round type).

>>> split_command("2d10+3>=11 横斬り")
('2D10+3>=11', '横斬り')
>>> eval_int("+3+2-1"), eval_int("10/3"), eval_int("-(2+3)*2")
(4, 3, -10)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING

from ikusa.engine.errors import InputError

if TYPE_CHECKING:  # annotations only: ``ikusa odds`` loads no dice results nor sources (issue #12)
    from ikusa.dice.result import RollResult
    from ikusa.dice.source import DiceSource

#: a system's own command evaluator: (command, dice) -> result or None
Evaluator = Callable[[str, "DiceSource"], "RollResult | None"]

#: characters an arithmetic modifier/target may contain
ARITH = r"[-+*/()0-9]"

#: BCDice's comparison operators, longest first (``=`` is read as ``==``)
CMP_OPS = (">=", "<=", "<>", "!=", "==", ">", "<", "=")


def split_command(text: str) -> tuple[str, str]:
    """(command word upper-cased, comment) of one line of bot input."""
    norm = unicodedata.normalize("NFKC", text).strip()
    if not norm:
        return "", ""
    parts = norm.split(None, 1)
    word = parts[0].upper()
    comment = parts[1].strip() if len(parts) > 1 else ""
    return word, comment


def format_modifier(value: int) -> str:
    """BCDice's ``Format.modifier``: ``+3``, ``-2``, and nothing for 0."""
    if value == 0:
        return ""
    return f"{value:+d}"


def normalize_cmp(op: str) -> str:
    """BCDice spellings → Python-like operator: ``=``→``==``, ``<>``→``!=``."""
    return {"=": "==", "<>": "!="}.get(op, op)


def compare(value: int, op: str, target: int) -> bool:
    """``value op target`` for a BCDice comparison operator."""
    op = normalize_cmp(op)
    if op == ">=":
        return value >= target
    if op == ">":
        return value > target
    if op == "<=":
        return value <= target
    if op == "<":
        return value < target
    if op == "==":
        return value == target
    if op == "!=":
        return value != target
    raise InputError(f"unknown comparison {op!r}", field="command")


class _Arith:
    """Recursive-descent evaluator: expr := term (('+'|'-') term)*; term := unary
    (('*'|'/') unary)*; unary := ('+'|'-') unary | number | '(' expr ')'."""

    #: parentheses nested deeper than this are refused (the recursion would overflow)
    MAX_DEPTH = 50

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.depth = 0

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def take(self) -> str:
        ch = self.peek()
        self.pos += 1
        return ch

    def expr(self) -> int:
        value = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            rhs = self.term()
            value = value + rhs if op == "+" else value - rhs
        return value

    def term(self) -> int:
        value = self.unary()
        while self.peek() in ("*", "/"):
            op = self.take()
            rhs = self.unary()
            if op == "*":
                value *= rhs
            else:
                if rhs == 0:
                    raise InputError(f"division by zero in {self.text!r}", field="command")
                value = value // rhs  # BCDice's default round type: floor
        return value

    def unary(self) -> int:
        ch = self.peek()
        if ch in ("+", "-"):
            sign = 1
            while self.peek() in ("+", "-"):  # a loop, not recursion: "------1" is fine
                if self.take() == "-":
                    sign = -sign
            return sign * self.unary()
        if ch == "(":
            self.take()
            self.depth += 1
            if self.depth > self.MAX_DEPTH:
                raise InputError(f"parentheses nested deeper than {self.MAX_DEPTH}", field="command")
            value = self.expr()
            self.depth -= 1
            if self.take() != ")":
                raise InputError(f"unbalanced parentheses in {self.text!r}", field="command")
            return value
        m = re.match(r"[0-9]+", self.text[self.pos :])
        if not m:
            raise InputError(f"expected a number at {self.text[self.pos:]!r} in {self.text!r}", field="command")
        if m.end() > 9:
            raise InputError(f"number too large: {m.group()[:12]}{'…' if m.end() > 12 else ''} "
                             "(at most 9 digits)", field="command")
        self.pos += m.end()
        return int(m.group())


def eval_int(text: str) -> int:
    """Evaluate integer arithmetic (empty text is 0).  Raises :class:`InputError`."""
    if not text:
        return 0
    parser = _Arith(text)
    value = parser.expr()
    if parser.pos != len(text):
        raise InputError(f"cannot read {text!r} as arithmetic", field="command")
    return value


def strip_secret(word: str, matches: re.Pattern[str]) -> tuple[str, bool, re.Match[str] | None]:
    """Match ``word`` as written; else, if it starts with ``S``, without that secret marker.
    Returns (the word matched, secret?, match or None)."""
    m = matches.match(word)
    if m:
        return word, False, m
    if word.startswith("S"):
        m = matches.match(word[1:])
        if m:
            return word[1:], True, m
    return word, False, None


def common_fallback(command: str, dice: DiceSource, own: Evaluator) -> RollResult | None:
    """The common BCDice commands (:func:`ikusa.dice.bcdice.roll_command`) for a system,
    with the system's own evaluator ``own`` for repeats, so ``x3 2D10+3>=11`` repeats the
    maai check, not a plain sum."""
    from ikusa.dice import bcdice  # imported when used: the odds never need the dice bot (issue #12)

    return bcdice.roll_command(command, dice, evaluate=own)
