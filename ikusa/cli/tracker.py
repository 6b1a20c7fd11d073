"""The standing tracker view of ``ikusa play`` (issue #8 §5): the system's ``board(state)``
(plain data, shared with the web table) drawn as a table, then the last events.

Every key, label and name is escaped: text from files is never read as rich markup or
emoji codes (``attack:bow:g1`` stays ``attack:bow:g1``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ikusa.engine.control import ControlTable

_MARKS = {"acting": "▶", "next": "次", "tie": "同"}


def board_function(system: str) -> Callable[[Any], dict[str, Any]] | None:
    """``ikusa.systems.<system>.board.board``, or ``None`` for a system without one."""
    try:
        mod = importlib.import_module(f"ikusa.systems.{system}.board")
    except ImportError:
        return None
    fn = getattr(mod, "board", None)
    return fn if callable(fn) else None


def board_table(data: dict[str, Any], control: ControlTable | None = None) -> Table:
    """A rich table of a board; a ``操作`` column says who decides / rolls for each unit."""
    table = Table(title=escape(str(data.get("title", ""))), title_justify="left", box=None,
                  pad_edge=False, header_style="bold", show_edge=False)
    table.add_column("")
    cols = [(k, label) for k, label in data.get("columns", [])]
    for _k, label in cols:
        table.add_column(escape(str(label)))
    if control is not None:
        table.add_column("操作", style="dim")
    for row in data.get("rows", []):
        marks = row.get("marks", [])
        flag = "".join(_MARKS[m] for m in marks if m in _MARKS)
        cells = [flag]
        for k, _label in cols:
            v = row.get(k, "")
            if k == "wounds" and "max_wounds" in row:
                v = f"{v}/{row['max_wounds']}"
            elif k == "hp" and "max_hp" in row:
                v = f"{v}/{row['max_hp']}"
            elif k == "dp" and "dp_max" in row:
                v = f"{v}/{row['dp_max']}"
            cells.append(escape(str(v)))
        if control is not None and "id" in row:
            cells.append(escape(control.of(str(row["id"])).label()))
        style = "dim" if "out" in marks else "bold" if "acting" in marks else None
        table.add_row(*cells, style=style)
    return table


def show_board(console: Console, system: str, state: Any, control: ControlTable | None = None) -> bool:
    """Print the board of ``state`` (``False`` when the system has none)."""
    fn = board_function(system)
    if fn is None:
        return False
    data = fn(state)
    console.print(board_table(data, control))
    notes = data.get("notes", [])
    if notes:
        console.print("  " + escape(" · ".join(str(n) for n in notes)))
    return True
