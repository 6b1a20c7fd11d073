"""A pending roll as explicit state (the chance node of OpenSpiel), and the dice source the
core hands to a state so the rules modules stay pure (issue #8 §1).

When a state asks for dice that a person must roll (the roller's dice mode is ``manual``
or ``ask``) and none were typed yet, :class:`TableDice` raises :class:`NeedDice` carrying a
:class:`DiceRequest`.  The core (:class:`~ikusa.engine.combat.Combat`) then rebuilds the
state by replay (the refused part changes nothing), keeps the action and the dice drawn so
far as a *partial entry*, and re-applies the action from the start once the dice arrive:
every earlier die is served again in order, so the rules code never sees the pause.

Every die carries who entered it (:class:`Die` ``by``): ``"auto"`` when the software drew it,
otherwise the person who typed it (``"GM"``, ``"player:alice"``, a unit id …);
``"sum"`` marks dice spread from a typed sum (a sengensyou pool, where only the sum counts).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ikusa.dice.source import DiceSource, _check_request
from ikusa.engine.control import GM, DiceMode
from ikusa.engine.errors import DiceError, IkusaError

AUTO = "auto"
SUM = "sum"


@dataclass(slots=True, frozen=True)
class Die:
    """One die of an entry: its ``value``, its ``sides`` and who entered it (``by``)."""

    value: int
    sides: int
    by: str = AUTO

    def to_json(self) -> list[Any]:
        return [self.value, self.sides] if self.by == AUTO else [self.value, self.sides, self.by]


@dataclass(slots=True, frozen=True)
class DiceRequest:
    """A roll the combat waits for: ``roller`` (a unit id or ``"GM"``) rolls ``count`` dice
    of ``sides`` faces for ``purpose`` (``"源三郎 受け流し 防御"``).  ``mode`` is the
    roller's dice mode (``manual`` or ``ask``: with ``ask`` the interface offers to let the
    software roll); ``sum_only`` says only the sum matters (a pool: typing the sum is
    enough); ``earlier`` are the rolls of the same action already made, as
    ``(purpose, values)``, so an interface can show each result before asking the next."""

    roller: str
    sides: int
    count: int
    purpose: str
    mode: DiceMode = "manual"
    sum_only: bool = False
    earlier: tuple[tuple[str, tuple[int, ...]], ...] = ()

    @property
    def notation(self) -> str:
        return f"{self.count}D{self.sides}"

    def to_json(self) -> dict[str, Any]:
        return {"roller": self.roller, "sides": self.sides, "count": self.count, "purpose": self.purpose,
                "mode": self.mode, "sum_only": self.sum_only,
                "earlier": [[p, list(v)] for p, v in self.earlier]}

    def check(self, values: list[int]) -> None:
        """Typed values that do not fit the request are a :class:`DiceError` (nothing recorded)."""
        if len(values) != self.count:
            raise DiceError(f"{self.purpose}: need exactly {self.count} value(s) for {self.notation}, "
                            f"got {len(values)}")
        bad = [v for v in values if not 1 <= v <= self.sides]
        if bad:
            raise DiceError(f"{self.purpose}: values must be 1..{self.sides} for a d{self.sides}; got {bad}")

    def spread_sum(self, total: int) -> list[int]:
        """Faces that add up to ``total`` (as even as possible), for a sum-only pool."""
        lo, hi = self.count, self.count * self.sides
        if not lo <= total <= hi:
            raise DiceError(f"{self.purpose}: the sum of {self.notation} must be {lo}..{hi}, not {total}")
        base, extra = divmod(total, self.count)
        return [base + 1] * extra + [base] * (self.count - extra)


class NeedDice(IkusaError):
    """Raised by :class:`TableDice` when a person must roll; the core catches it."""

    def __init__(self, request: DiceRequest) -> None:
        self.request = request
        super().__init__(f"waiting for {request.roller}'s {request.notation} ({request.purpose})")


@dataclass(slots=True)
class RollTrace:
    """One roll call as served: purpose, roller and the values handed out."""

    purpose: str
    roller: str
    values: tuple[int, ...]


@dataclass(slots=True)
class TableDice:
    """The dice source of a table: first the ``prefill`` dice (typed so far, or kept from an
    undone entry), then per roller either the ``auto`` source or a :class:`NeedDice`.

    ``mode_of(roller)`` gives a roller's dice mode; ``default_roller`` stands in when a
    state does not say who rolls (the deciding unit).  ``strict`` (a replay) serves the
    recorded values whatever their recorded sides (the caller compares the sides after);
    otherwise a prefill die of other sides than requested drops the rest of the prefill
    and fresh dice are drawn (a reused undone entry whose action now rolls differently)."""

    prefill: list[Die]
    auto: DiceSource | None
    mode_of: Callable[[str], DiceMode]
    default_roller: str = GM
    #: a roller as the request names it (a unit id for a unit's name); identity when None
    resolve: Callable[[str], str] | None = None
    sum_only: bool = False
    strict: bool = False
    #: park the action until a person's dice arrive (a continuation); ``None``: raise NeedDice
    wait: Callable[[DiceRequest], list[Die]] | None = None
    drawn: list[Die] = field(default_factory=list)
    trace: list[RollTrace] = field(default_factory=list)
    dropped: list[Die] = field(default_factory=list)
    _pos: int = 0

    @property
    def unused(self) -> list[Die]:
        return self.prefill[self._pos:]

    def _serve(self, out: list[int], count: int, sides: int) -> None:
        """Serve ``out`` from the prefill, up to ``count`` dice of ``sides`` faces."""
        while len(out) < count and self._pos < len(self.prefill):
            d = self.prefill[self._pos]
            if self.strict:  # a replay: the recorded values in order (sides compared by the caller)
                if not 1 <= d.value <= sides:
                    raise DiceError(f"recorded die #{self._pos + 1} is {d.value}, outside 1..{sides} of a d{sides}")
                d = Die(d.value, sides, d.by)
            elif d.sides != sides:  # reused dice of an undone entry that now rolls otherwise
                self.dropped.extend(self.prefill[self._pos:])
                del self.prefill[self._pos:]
                break
            self._pos += 1
            self.drawn.append(d)
            out.append(d.value)

    def roll(self, sides: int, count: int = 1, purpose: str = "", roller: str = "") -> list[int]:
        _check_request(sides, count)
        who = roller or self.default_roller
        if self.resolve is not None:
            who = self.resolve(who)
        out: list[int] = []
        while True:
            self._serve(out, count, sides)
            need = count - len(out)
            if not need:
                break
            mode = self.mode_of(who)
            if mode == "auto" and self.auto is not None:
                values = self.auto.roll(sides, need, purpose, who)
                self.drawn.extend(Die(v, sides, AUTO) for v in values)
                out.extend(values)
                break
            if self.auto is None and mode == "auto":
                raise DiceError(f"recorded dice ran out: needed {need}d{sides}"
                                f"{' for ' + purpose if purpose else ''} after {self._pos} dice")
            earlier = tuple((t.purpose, t.values) for t in self.trace)
            if out:  # part of this roll came from the prefill: ask for the rest only
                earlier = (*earlier, (purpose + " (既出)", tuple(out)))
            request = DiceRequest(who, sides, need, purpose, mode, self.sum_only and need > 1, earlier)
            if self.wait is None:
                raise NeedDice(request)
            self.prefill.extend(self.wait(request))  # parked until the dice arrive (continuation.py)
        self.trace.append(RollTrace(purpose, who, tuple(out)))
        return out
