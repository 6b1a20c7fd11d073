"""``choice`` (BCDice ``CommonCommand::Choice``): pick one of the listed items.

Three forms, chosen by the character after ``choice`` (case-insensitive, optional ``S``):
``choice[a,b,c]`` and ``choice(a,b,c)`` split on commas and end at the first ``]``/``)``
(text after it is a comment); ``choice a b c`` splits the rest of the input on
whitespace.  Items are stripped, empty items dropped.  One die with as many sides as items picks
the item (value k picks item k), as BCDice's ``roll_index``.  Output
``(choice[a,b,c]) ＞ b``.  With no item at all there is nothing to choose: not a command.

Like BCDice the whole input is scanned (not only the first word), and scanning for the
next comma may run past the closing bracket: ``choice[a,b] x,y`` is not a command.
"""

from __future__ import annotations

import re

from ikusa.dice.bcdice.fmt import SEP
from ikusa.dice.bcdice.tray import DiceTray
from ikusa.dice.result import RollResult

_WS = "[ \t\n\v\f\r]"
_HEAD = re.compile(rf"{_WS}*(S)?choice(\(|\[|{_WS}+)", re.IGNORECASE | re.ASCII)
_STRIP = " \t\n\v\f\r\0"


def parse(command: str) -> tuple[bool, str, list[str]] | None:
    """``(secret, form, items)`` with form ``"["``, ``"("`` or ``" "``; ``None`` if not
    a choice command."""
    m = _HEAD.match(command)
    if m is None:
        return None
    form = m.group(2) if m.group(2) in ("[", "(") else " "
    rest = command[m.end() :]
    items: list[str] = []
    if form == " ":
        # Ruby: scan_until(/\s+/) while it can, then the rest (which has no whitespace left)
        items = re.split(_WS + "+", rest)
    else:
        close = "]" if form == "[" else ")"
        pos = 0
        while True:
            comma = rest.find(",", pos)
            if comma < 0:
                break
            items.append(rest[pos:comma])
            pos = comma + 1
        end = rest.find(close, pos)
        if end < 0:
            return None
        items.append(rest[pos:end])
    items = [i.strip(_STRIP) for i in items]
    items = [i for i in items if i]
    if not items:
        return None
    return m.group(1) is not None, form, items


def roll(command: str, tray: DiceTray) -> RollResult | None:
    parsed = parse(command)
    if parsed is None:
        return None
    secret, form, items = parsed
    index = tray.roll_once(len(items), "choice") - 1
    if form == " ":
        expr = "choice " + " ".join(items)
    elif form == "[":
        expr = f"choice[{','.join(items)}]"
    else:
        expr = f"choice({','.join(items)})"
    return RollResult(
        text=f"({expr}){SEP}{items[index]}",
        secret=secret,
        dice=list(tray.drawn),
        extra={"command": "choice", "index": index, "chosen": items[index]},
    )
