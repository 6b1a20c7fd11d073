"""The fantasy tracker view (issue #8 §5): formation, HP, and conditions and effects with
the rounds left."""

from __future__ import annotations

from typing import Any

from ikusa.engine.board import effect_labels, make_board

COLUMNS = [("name", "名前"), ("side", "陣営"), ("formation", "隊列"), ("hp", "HP"), ("conditions", "状態"),
           ("effects", "効果")]


def _place(row: str, front: str) -> str:
    if row == "back":
        return "後衛"
    return "前衛" if front == "fore" else "後ろの前衛"


def board(state: Any) -> dict[str, Any]:
    """The board of a :class:`~ikusa.systems.fantasy.state.FantasyState` as plain data."""
    rows = []
    for f in state.fighters.values():
        marks = []
        if f.id == state.current:
            marks.append("acting")
        if f.out:
            marks.append("out")
        conds = []
        for c in state.conds_of(f):
            d = state.table.get(c.id)
            name = d.name if d is not None else c.id
            conds.append(name + (f"(残り{c.rounds}R)" if c.rounds is not None else ""))
        if f.down:
            conds.append("戦闘不能")
        rows.append({
            "id": f.id, "name": f.name, "side": f.side, "formation": f"{f.unit} {_place(f.row, f.front)}",
            "hp": f.hp, "max_hp": f.spec.hp, "conditions": " ".join(conds),
            "effects": " ".join(effect_labels(state, f.id)), "marks": marks,
        })
    notes = []
    if state.order:
        notes.append("イニシアティブ順: " + " → ".join(state.fighters[i].name for i in state.order
                                                     if i in state.fighters))
    if state.winner is not None:
        notes.append(f"勝者: {state.winner}")
    title = f"第{state.round}ラウンド" if state.started else "戦闘開始前"
    return make_board(title, COLUMNS, rows, notes)
