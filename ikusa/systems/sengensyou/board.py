"""The 千幻抄 tracker view (issue #8 §5): row, HP, DP, graze and 霊力 of every character."""

from __future__ import annotations

from typing import Any

from ikusa.engine.board import effect_labels, make_board

COLUMNS = [("name", "名前"), ("side", "陣営"), ("row", "列"), ("hp", "HP"), ("dp", "DP"), ("graze", "グレイズ"),
           ("reiryoku", "霊力"), ("status", "状態"), ("effects", "効果")]

_ROWS = {"front": "前列", "back": "後列"}


def board(state: Any) -> dict[str, Any]:
    """The board of a :class:`~ikusa.systems.sengensyou.state.SengensyouState` as plain data."""
    pending = state.pending()
    acting = pending.actor if pending is not None else None
    rows = []
    for f in state.fighters.values():
        marks = []
        if f.id == acting:
            marks.append("acting")
        if not f.active:
            marks.append("out")
        status = ("気絶" if f.down and not f.spared else "手加減" if f.down else "逃走" if f.escaped
                  else "未到着" if not f.in_battle else "")
        rows.append({
            "id": f.id, "name": f.name, "side": f.side, "row": _ROWS.get(f.row, f.row),
            "hp": f.hp, "dp": f.dp, "dp_max": f.dp_max, "graze": f.graze, "reiryoku": f.reiryoku,
            "status": status, "effects": " ".join(effect_labels(state, f.id)), "marks": marks,
        })
    notes = []
    if state.order:
        names = [state.fighters[i].name for i in state.order if i in state.fighters]
        notes.append("手番順: " + " → ".join(names))
    if state.winner is not None:
        notes.append(f"勝者: {state.winner}")
    return make_board(f"第{state.turn}ターン", COLUMNS, rows, notes)
