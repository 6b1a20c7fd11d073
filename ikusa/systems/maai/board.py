"""The maai tracker view (issue #8 §5): units in count order (remaining 活力, S-R35) with
ties marked and who is next, 戦力, 無防備, stance, reservations and fate left."""

from __future__ import annotations

from typing import Any

from ikusa.engine.board import effect_labels, make_board
from ikusa.systems.maai.count import count_key, next_to_act

COLUMNS = [("name", "名前"), ("side", "陣営"), ("count", "活力"), ("wounds", "戦力"), ("defenceless", "無防備"),
           ("stance", "態勢"), ("reservations", "予約"), ("fate", "運命"), ("zone", "区域"), ("status", "状態"),
           ("effects", "効果")]

_PHASES = {"count": "カウント進行", "lull": "小康", "survival": "生死判定", "over": "終了"}


def board(state: Any) -> dict[str, Any]:
    """The board of a :class:`~ikusa.systems.maai.state.MaaiState` as plain data."""
    units = list(state.units)
    order = sorted(range(len(units)), key=lambda i: count_key(units[i], i))
    actor = state.actor
    others = [u for u in units if u is not actor]
    nxt = next_to_act(others) if state.phase == "count" else None
    counts: dict[int, int] = {}
    for u in units:
        if not u.incapacitated:
            counts[u.count_value()] = counts.get(u.count_value(), 0) + 1
    rows = []
    for i in order:
        u = units[i]
        marks = []
        if actor is u:
            marks.append("acting")
        if nxt is u:
            marks.append("next")
        if not u.incapacitated and counts.get(u.count_value(), 0) > 1 and u.vigor > 0:
            marks.append("tie")
        if u.incapacitated:
            marks.append("out")
        status = u.status or ("戦闘不能" if u.incapacitated else "待機" if u.passed else "")
        rows.append({
            "id": u.id, "name": u.name, "side": u.side, "count": u.count_value(), "vigor": u.vigor,
            "max_vigor": u.max_vigor, "wounds": u.wounds, "max_wounds": u.max_wounds,
            "defenceless": "無防備" if u.defenceless else "", "stance": u.stance.name if u.stance else "",
            "reservations": " ".join(r.name for r in u.reservations), "fate": u.fate_left, "zone": u.zone,
            "status": status, "effects": " ".join(effect_labels(state, u.id)), "marks": marks,
        })
    title = f"第{state.maai}間合 · {_PHASES.get(state.phase, state.phase)}"
    notes = []
    if actor is not None and state.phase == "count":
        notes.append(f"手番: {actor.name}")
    if nxt is not None:
        notes.append(f"次: {nxt.name}")
    if state.winner is not None:
        notes.append(f"勝者: {state.winner}")
    return make_board(title, COLUMNS, rows, notes)
