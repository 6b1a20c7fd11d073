"""Original tables (BCDice ``UserDefinedDiceTable``, オリジナル表): a table written as text.

The text is a title line, a dice line and ``n:text`` rows (blank lines ignored, trailing
spaces cut)::

    飲み物表
    1D6
    1:水
    …
    6:選ばれし者の知的飲料

The dice line is ``xDy`` (rows ``x``…``x*y``, every one present), ``D66``/``D66N`` (36 rows
11…66), ``D66A``/``D66S`` (21 rows, tens ≤ ones) or ``D66D`` (21 rows, tens ≥ ones).  The
answer is ``飲み物表(6) ＞ 選ばれし者の知的飲料``; a literal ``\\n`` in a row is a line break.
The dice are rolled first (as BCDice does), then the table is checked: a table that is not
valid gives ``None``.  BCDice's randomizer limits apply (:mod:`.limits`).

>>> from ikusa.dice.source import ScriptedSource
>>> roll_table("飲み物表\\n1D2\\n1:水\\n2:コーラ", ScriptedSource([2])).text
'飲み物表(2) ＞ コーラ'
"""

from __future__ import annotations

import re

from ikusa.dice.bcdice.fmt import SEP
from ikusa.dice.bcdice.tray import DiceTray
from ikusa.dice.result import RollResult
from ikusa.dice.source import DiceSource

#: Ruby's ``\\R``: any line break
_LINES = re.compile(r"\r\n|[\n\v\f\r\x85\u2028\u2029]")
_ROW = re.compile(r"[0-9]+:")
_XDY = re.compile(r"([0-9]+)D([0-9]+)")
_RSTRIP = " \t\n\v\f\r\0"
#: at most this many digits in the dice line (more is no table)
_MAX_DIGITS = 6


def _valid(kind: str, keys: list[int]) -> bool:
    """Whether the sorted row numbers ``keys`` are exactly the results of ``kind``."""
    m = _XDY.fullmatch(kind)
    if m:
        times, sides = int(m.group(1)), int(m.group(2))
        return bool(keys) and len(keys) == times * sides - times + 1 and keys[0] == times \
            and keys[-1] == times * sides
    if kind in ("D66", "D66N"):
        return keys == [t * 10 + o for t in range(1, 7) for o in range(1, 7)]
    if kind in ("D66A", "D66S"):
        return keys == [t * 10 + o for t in range(1, 7) for o in range(t, 7)]
    if kind == "D66D":
        return keys == sorted(t * 10 + o for o in range(1, 7) for t in range(o, 7))
    return False


def _roll_index(kind: str, tray: DiceTray) -> int | None:
    m = _XDY.fullmatch(kind)
    if m:
        if len(m.group(1)) > _MAX_DIGITS or len(m.group(2)) > _MAX_DIGITS:
            return None
        return sum(tray.roll(int(m.group(2)), int(m.group(1)), kind))
    if kind in ("D66", "D66N", "D66A", "D66S", "D66D"):
        tens, ones = tray.roll_once(6, kind), tray.roll_once(6, kind)
        if kind in ("D66A", "D66S"):
            tens, ones = min(tens, ones), max(tens, ones)
        elif kind == "D66D":
            tens, ones = max(tens, ones), min(tens, ones)
        return tens * 10 + ones
    return None


def roll_table(text: str, dice: DiceSource) -> RollResult | None:
    """Roll the original table ``text``; ``None`` when it is not a valid table."""
    lines = [line.rstrip(_RSTRIP) for line in _LINES.split(text)]
    lines = [line for line in lines if line]
    if len(lines) < 2:
        return None
    name, kind, rows = lines[0], lines[1].upper(), lines[2:]
    tray = DiceTray(dice)
    index = _roll_index(kind, tray)
    if index is None or not all(_ROW.match(r) for r in rows):
        return None
    if not _valid(kind, sorted({int(r[: r.index(":")]) for r in rows})):
        return None
    key = f"{index}:"
    row = next((r for r in rows if r.startswith(key)), None)
    if row is None:
        return None
    chosen = row[len(key) :].replace("\\n", "\n").strip(_RSTRIP)
    return RollResult(text=f"{name}({index}){SEP}{chosen}", dice=list(tray.drawn),
                      extra={"command": "original_table", "index": index})
