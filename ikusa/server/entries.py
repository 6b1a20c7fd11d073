"""What each write of the table service appends: the entries of a decision, dice, a ruling and
the AI's chain, checked against the kept state (each applied to it as it is made; a refusal
raises a :class:`~ikusa.server.errors.ServiceError` and the write drops the state).

``Row`` is ``(seq, kind, author, payload)``: one entry as the store keeps it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ikusa.engine.errors import InputError
from ikusa.engine.rulings import parse_ruling, ruling_to_json
from ikusa.engine.runner import policy_for
from ikusa.server.errors import Forbidden, Unprocessable
from ikusa.server.projection import Principal, may_answer, owns
from ikusa.server.table import TableState

#: AI decisions made in one request at most (an all-AI battle still ends: it continues next request)
MAX_AI_CHAIN = 500

Row = tuple[int, str, str, dict[str, Any]]
Build = Callable[[TableState, list[Row]], None]


def push(st: TableState, rows: list[Row], kind: str, author: str, payload: dict[str, Any]) -> None:
    """Apply one entry to ``st`` (raises if refused) and add it to ``rows``."""
    seq = st.version + 1
    st.append(seq, kind, author, payload)
    rows.append((seq, kind, author, payload))


def seed_of(st: TableState, salt: str) -> int:
    """The seed of the server's dice for ``salt`` at this version (the same on every replay)."""
    return random.Random(f"{st.seed}:{st.version}:{salt}").randrange(2**62)


def act_build(principal: Principal, action: str | None, dice: list[int] | None, roll: bool,
              ruling: dict[str, Any] | None) -> Build:
    """The build of :meth:`TableService.act`: exactly one of ``action``, ``dice``, ``roll``, ``ruling``."""
    given = sum(x is not None for x in (action, dice, ruling)) + (1 if roll else 0)
    if given != 1:
        raise Unprocessable("give exactly one of action, dice, roll or ruling")

    def build(st: TableState, rows: list[Row]) -> None:
        if ruling is not None:
            ruling_entry(st, rows, principal, ruling)
        elif action is not None:
            decide(st, rows, principal, action)
        else:
            dice_entry(st, rows, principal, dice, roll)

    return build


def decide(st: TableState, rows: list[Row], principal: Principal, action: str) -> None:
    req = st.request
    if req is not None:
        raise Unprocessable(f"dice are awaited first: {req.count}d{req.sides} for {req.purpose}")
    d = st.decision()
    if d is None:
        raise Unprocessable("ENGINE: the combat is over; no decision is pending")
    if not owns(st, principal, d.actor):
        raise Forbidden(f"this decision is for {st.names.get(d.actor, d.actor)}, not yours")
    push(st, rows, "decision", principal.who, {"actor": d.actor, "action": action})


def dice_entry(st: TableState, rows: list[Row], principal: Principal, dice: list[int] | None, roll: bool) -> None:
    req = st.request
    if req is None:
        raise Unprocessable("no roll is awaited")
    if not may_answer(st, principal):
        raise Forbidden(f"this roll is {st.names.get(req.roller, req.roller)}'s, not yours")
    if roll:
        push(st, rows, "roll", principal.who, {"by": principal.who})
        return
    assert dice is not None
    if req.sum_only and req.count > 1 and len(dice) == 1:  # a pool where only the sum counts
        push(st, rows, "sum", principal.who, {"total": dice[0], "by": principal.who})
        return
    if len(dice) != req.count:
        raise Unprocessable(f"dice: need exactly {req.count} value(s) for {req.notation} ({req.purpose})")
    push(st, rows, "dice", principal.who, {"values": list(dice), "by": principal.who})


def ruling_entry(st: TableState, rows: list[Row], principal: Principal, ruling: dict[str, Any]) -> None:
    if not principal.is_gm:
        raise Forbidden("only the GM may do this")
    if not isinstance(ruling, dict) or not isinstance(ruling.get("op"), str):
        raise Unprocessable("ruling.op: a ruling needs an op")
    op = ruling["op"]
    if op in ("reveal", "hide"):
        unit = ruling.get("unit")
        if unit not in st.names:
            raise Unprocessable(f"ruling.unit: unknown unit {unit!r}")
        clean: dict[str, Any] = {"op": op, "unit": unit, "reason": str(ruling.get("reason", ""))[:500]}
    else:
        try:
            clean = ruling_to_json(parse_ruling(ruling))
        except InputError as exc:
            raise Unprocessable(str(exc)) from None
    push(st, rows, "ruling", principal.who, {"ruling": clean})


def ai_chain(st: TableState) -> list[Row]:
    """Let AI-controlled units decide until a person must (each decision its own entry)."""
    rows: list[Row] = []
    for _ in range(MAX_AI_CHAIN):
        d = st.decision()
        if d is None:
            break
        ctl = st.control_of(d.actor)
        if not ctl.is_ai:
            break
        policy = policy_for(st.setup.loaded.module, ctl.who)
        action = policy.choose(st.combat.state, d, random.Random(seed_of(st, "ai")))
        push(st, rows, "decision", ctl.controller, {"actor": d.actor, "action": action})
    return rows
