"""Reading typed physical dice at a dice prompt (issue #8 §5).

* all of a roll's dice on one line: ``3 5 6 1`` or ``3,5,6,1``;
* ``0`` is a d10's 10 (as printed on real d10s);
* a pool where only the sum matters (``DiceRequest.sum_only``): ``=17``, or the sum alone;
* anything else is an error saying what is wanted; it never cancels the action.

>>> read_dice("3 5 0", DiceRequest("a", 10, 3, "x"))
Typed(values=[3, 5, 10], total=None)
>>> read_dice("=17", DiceRequest("a", 6, 4, "x", sum_only=True))
Typed(values=None, total=17)
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from ikusa.engine.dice_request import DiceRequest
from ikusa.engine.errors import DiceError


@dataclass(slots=True, frozen=True)
class Typed:
    """What was typed: each die's value, or only the ``total`` of a sum-only pool."""

    values: list[int] | None
    total: int | None


def _number(tok: str) -> int:
    tok = unicodedata.normalize("NFKC", tok)  # full-width ３ from a Japanese IME
    if not tok.isascii() or not tok.isdecimal():
        raise DiceError(f"{tok!r} is not a die value (type whole numbers such as 3 5, or 'roll')")
    return int(tok)


def read_dice(text: str, req: DiceRequest) -> Typed:
    """Parse one line of typed dice for ``req`` (values checked against the request)."""
    raw = unicodedata.normalize("NFKC", text).strip()
    if raw.startswith("="):
        if not req.sum_only and req.count > 1:
            raise DiceError(f"the faces matter for {req.purpose}: type each of the {req.count} dice")
        total = _number(raw[1:].strip())
        req.spread_sum(total)  # range check
        return Typed(None, total)
    toks = [t for t in raw.replace(",", " ").replace("、", " ").split() if t]
    if not toks:
        raise DiceError("type the dice (e.g. " + " ".join(["4"] * req.count) + "), or 'roll'")
    values = [_number(t) for t in toks]
    if req.sides == 10:
        values = [10 if v == 0 else v for v in values]
    if req.sum_only and req.count > 1 and len(values) == 1:
        req.spread_sum(values[0])
        return Typed(None, values[0])
    req.check(values)
    return Typed(values, None)


def dice_hint(req: DiceRequest) -> str:
    """The one-line help of a dice prompt."""
    parts = [f"{req.count}個の値 1..{req.sides} を1行で (例: {' '.join(['4'] * req.count)})"]
    if req.sides == 10:
        parts.append("0 = 10")
    if req.sum_only and req.count > 1:
        parts.append(f"合計だけでも可 (=17 / {req.count}..{req.count * req.sides})")
    parts.append("roll = ソフトが振る")
    parts.append("undo = この行動を取り消す")
    parts.append("!コマンド = GM裁定")
    return " · ".join(parts)
