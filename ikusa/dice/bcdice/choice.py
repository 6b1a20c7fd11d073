"""``choice`` (BCDice ``CommonCommand::Choice``): pick one or more of the listed items.

Forms, chosen by the character after ``choice`` (case-insensitive, optional ``S`` before
it, optional count after it):

* ``choice[a,b,c]`` and ``choice(a,b,c)`` split on commas and end at the first ``]``/``)``
  after the last comma (text after it is a comment);
* ``choice a b c`` splits the rest of the input on whitespace;
* ``choiceN[…]`` (any form) picks N items without repeats, ``choice2[a,b,c] ＞ c, a``
  (``, `` between picks of the bracket forms, a space in the space form);
* a single item ``A-F``, ``c-g`` or ``3-10`` (one letter or numbers, in order) is the range
  of items ``A,B,C,D,E,F``.

Items are stripped and empty items dropped.  Each pick rolls one die with as many sides as
items are left (value k picks item k, as BCDice's ``roll_index``).  Not a command, as in
BCDice: no item, a single item that is not a range (``choice[a]``, ``choice(a b)``), a range
backwards (``choice[F-A]``), fewer items than picks, or a count of 0.  More than 100 items
answer ``項目数は100以下としてください`` (nothing rolled).

Like BCDice the whole input is scanned (not only the first word), and scanning for the
next comma may run past the closing bracket: ``choice[a,b] x,y`` is not a command.
Whitespace is bcdice-js's (:data:`ikusa.dice.bcdice.lexer.WS`).  One bcdice-js quirk is not
copied: its StringScanner loses one character of the next item per extra whitespace character
(``choice a  bcd`` picks from ``a`` and ``bc`` there); ikusa reads ``a`` and ``bcd``, as BCDice in
Ruby does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ikusa.dice.bcdice.fmt import SEP
from ikusa.dice.bcdice.lexer import WS, WS_CHARS
from ikusa.dice.bcdice.tray import DiceTray
from ikusa.dice.result import RollResult

MAX_ITEMS = 100
TOO_MANY = f"項目数は{MAX_ITEMS}以下としてください"

_HEAD = re.compile(rf"{WS}*(S)?choice([0-9]*)(\(|\[|{WS}+)", re.IGNORECASE)
_SPACES = re.compile(WS + "+")
_STRIP = WS_CHARS + "\0"
_NUM_RANGE = re.compile(r"([0-9]+)-([0-9]+)")
_CHAR_RANGE = re.compile(r"([a-z])-([a-z])|([A-Z])-([A-Z])")
_CLOSE = {"[": "]", "(": ")"}
#: numbers longer than this are compared as text, never converted
_INT_DIGITS = 4000


@dataclass(frozen=True, slots=True)
class Choice:
    secret: bool
    #: ``"["``, ``"("`` or ``" "``
    form: str
    takes: int
    #: the items, or ``None`` for a range of more than :data:`MAX_ITEMS` items
    items: tuple[str, ...] | None

    def expr(self) -> str:
        assert self.items is not None
        count = "" if self.takes == 1 else str(self.takes)
        if self.form == " ":
            return f"choice{count} " + " ".join(self.items)
        return f"choice{count}{self.form}{','.join(self.items)}{_CLOSE[self.form]}"


def _split(form: str, rest: str) -> list[str] | None:
    """BCDice's ``scan_until(delimiter)`` loop, then the last item up to the terminator."""
    if form == " ":
        return _SPACES.split(rest)
    items: list[str] = []
    pos = 0
    while (comma := rest.find(",", pos)) >= 0:
        items.append(rest[pos:comma])
        pos = comma + 1
    end = rest.find(_CLOSE[form], pos)
    if end < 0:
        return None
    items.append(rest[pos:end])
    return items


def _range(item: str) -> tuple[str, ...] | int | None:
    """The items a single ``A-F``/``3-10`` item stands for, or only their number when that
    is over :data:`MAX_ITEMS`; ``None`` when it is no range (then it is not a command)."""
    m = _NUM_RANGE.fullmatch(item)
    if m:
        first, last = (g.lstrip("0") or "0" for g in m.groups())
        if (len(first), first) > (len(last), last):
            return None
        if len(last) > _INT_DIGITS:  # beyond int(): over MAX_ITEMS unless it is one number
            return (first,) if first == last else 10**_INT_DIGITS
        lo, hi = int(first), int(last)
        return tuple(str(i) for i in range(lo, hi + 1)) if hi - lo < MAX_ITEMS else hi - lo + 1
    m = _CHAR_RANGE.fullmatch(item)
    if m:
        a, b = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        return tuple(chr(c) for c in range(ord(a), ord(b) + 1)) if a <= b else None
    return None


def parse(command: str) -> Choice | None:
    """The choice command in ``command``, or ``None`` if it is none."""
    m = _HEAD.match(command)
    if m is None:
        return None
    digits = m.group(2).lstrip("0")
    if m.group(2) and not digits:
        return None  # choice0
    takes = int(digits) if len(digits) <= _INT_DIGITS and digits else (10**_INT_DIGITS if digits else 1)
    form = m.group(3) if m.group(3) in _CLOSE else " "
    raw = _split(form, command[m.end() :])
    if raw is None:
        return None
    listed = tuple(i for i in (r.strip(_STRIP) for r in raw) if i)
    items: tuple[str, ...] | int = listed
    if len(listed) == 1:
        expanded = _range(listed[0])
        if expanded is None:
            return None
        items = expanded
    size = items if isinstance(items, int) else len(items)
    if size == 0 or size < takes:
        return None
    return Choice(m.group(1) is not None, form, takes, items if isinstance(items, tuple) else None)


def roll(command: str, tray: DiceTray) -> RollResult | None:
    choice = parse(command)
    if choice is None:
        return None
    if choice.items is None or len(choice.items) > MAX_ITEMS:
        return RollResult(text=TOO_MANY, extra={"command": "choice"})
    left = list(choice.items)
    chosen: list[str] = []
    for _ in range(choice.takes):
        chosen.append(left.pop(tray.roll_once(len(left), "choice") - 1))
    joiner = " " if choice.form == " " else ", "
    return RollResult(
        text=f"({choice.expr()}){SEP}{joiner.join(chosen)}",
        secret=choice.secret,
        dice=list(tray.drawn),
        extra={"command": "choice", "chosen": chosen},
    )
