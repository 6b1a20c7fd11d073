"""``D66`` (BCDice ``CommonCommand::D66Dice``): two d6 read as tens and ones.

``D66`` uses DiceBot's default order (no swap: 6 then 1 is 61); ``D66A``/``D66S`` sort
ascending (16), ``D66D`` descending (61), ``D66N`` never swaps.  Output ``(D66A) ＞ 16``.
"""

from __future__ import annotations

import re

from ikusa.dice.bcdice.fmt import SEP
from ikusa.dice.bcdice.lexer import first_word
from ikusa.dice.bcdice.tray import DiceTray
from ikusa.dice.result import RollResult

_D66 = re.compile(r"(S)?D66([ANSD])?", re.IGNORECASE | re.ASCII)


def roll(command: str, tray: DiceTray) -> RollResult | None:
    m = _D66.fullmatch(first_word(command))
    if m is None:
        return None
    suffix = (m.group(2) or "").upper()
    tens, ones = tray.roll(6, 2, "D66")
    if suffix in ("A", "S"):
        tens, ones = min(tens, ones), max(tens, ones)
    elif suffix == "D":
        tens, ones = max(tens, ones), min(tens, ones)
    value = tens * 10 + ones
    return RollResult(
        text=f"(D66{suffix}){SEP}{value}",
        secret=m.group(1) is not None,
        dice=list(tray.drawn),
        extra={"command": "d66", "total": value},
    )
