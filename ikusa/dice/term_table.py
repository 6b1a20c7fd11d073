"""The odds tables for the terminal, printed without importing rich when rich would print
them plainly (issue #12, target 5: ``ikusa odds`` as a cold process ≤ 100 ms; rich's
import and layout cost more than the odds themselves).

:class:`Text`, :class:`Table` and :class:`Group` take the few arguments of rich's classes
that the ``odds`` modules use.  :func:`print_renderable` writes them as the same bytes
``rich.console.Console(highlight=False, emoji=False).print`` writes when rich prints no
styles (stdout not a terminal, as rich decides) and nothing has to wrap: the heavy-headed
box, cells padded by one space, every column as wide as its widest cell, the title
left-justified over the table's width.  Anything else — a terminal (colours), a line wider
than the console, markup-like text (``[``), characters whose width is not plain — goes to
rich itself through ``__rich__``, which builds the same rich objects.  So rich's output is
the reference: ``tests/dice/test_term_table.py`` compares the two byte for byte.
"""

from __future__ import annotations

import builtins
import os
import sys
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from rich.console import RenderableType

Justify = Literal["left", "right"]


class Text:
    """``rich.text.Text(text, style=...)`` / ``Text.assemble(...)``: styled text."""

    __slots__ = ("parts", "style")

    def __init__(self, text: str = "", style: str = "") -> None:
        #: the assembled parts (one part for ``Text(text)``) and the style of the whole
        self.parts: tuple[str | tuple[str, str], ...] = (text,)
        self.style = style

    @classmethod
    def assemble(cls, *parts: str | tuple[str, str]) -> Text:
        out = cls()
        out.parts = parts
        return out

    @property
    def plain(self) -> str:
        return "".join(p if isinstance(p, str) else p[0] for p in self.parts)

    def __rich__(self) -> RenderableType:
        from rich.text import Text as RichText

        if len(self.parts) == 1 and isinstance(self.parts[0], str):
            return RichText(self.parts[0], style=self.style)
        return RichText.assemble(*self.parts, style=self.style)


Cell = str | Text


class Table:
    """``rich.table.Table(title=..., title_justify=...)`` with ``add_column`` / ``add_row``."""

    __slots__ = ("columns", "rows", "title", "title_justify")

    def __init__(self, title: str = "", title_justify: Justify = "left") -> None:
        self.title = title
        self.title_justify: Justify = title_justify
        self.columns: list[tuple[str, Justify]] = []
        self.rows: list[Sequence[Cell]] = []

    def add_column(self, header: str = "", justify: Justify = "left") -> None:
        self.columns.append((header, justify))

    def add_row(self, *cells: Cell) -> None:
        self.rows.append(cells)

    def __rich__(self) -> RenderableType:
        from rich.table import Table as RichTable

        table = RichTable(title=self.title or None, title_justify=self.title_justify)
        for header, justify in self.columns:
            table.add_column(header, justify=justify)
        for row in self.rows:
            table.add_row(*(c if isinstance(c, str) else c.__rich__() for c in row))
        return table


class Group:
    """``rich.console.Group(*renderables)``: one after another."""

    __slots__ = ("parts",)

    def __init__(self, *parts: Text | Table) -> None:
        self.parts = parts

    def __rich__(self) -> RenderableType:
        from rich.console import Group as RichGroup

        return RichGroup(*(p.__rich__() for p in self.parts))


Renderable = Text | Table | Group


def cell_width(text: str) -> int | None:
    """Terminal cells of ``text`` as rich counts them, or ``None`` when a character is not
    one rich and this module surely agree on (controls, combining marks, emoji, …)."""
    if text.isascii():
        return len(text) if text.isprintable() else None
    n = 0
    for ch in text:
        if ch.isascii():
            if not ch.isprintable():
                return None
            n += 1
            continue
        eaw = unicodedata.east_asian_width(ch)
        if eaw in ("W", "F"):
            n += 2
        elif ord(ch) >= 0x1F000 or unicodedata.category(ch) in ("Mn", "Me", "Mc", "Cf", "Cc", "Co", "Cn", "Zl", "Zp"):
            return None
        else:
            n += 1
    return n


def _markup_free(text: str) -> bool:
    """rich reads ``[`` in a plain string as markup (emoji codes are off here)."""
    return "[" not in text


def _width(text: str) -> int | None:
    """:func:`cell_width`, or ``None`` for text ending in whitespace (rich's justification
    and wrapping trim it; only rich knows where)."""
    return None if text[-1:].isspace() else cell_width(text)


def _pad(text: str, width: int, inner: int, justify: Justify) -> str:
    space = " " * (inner - width)
    return f" {text}{space} " if justify == "left" else f" {space}{text} "


def _table_lines(table: Table, max_width: int) -> list[str] | None:
    if not table.columns or not table.rows or table.title_justify != "left":
        return None
    ncols = len(table.columns)
    cells: list[list[tuple[str, int]]] = []
    for row in [[header for header, _j in table.columns], *table.rows]:
        if len(row) > ncols:
            return None
        line: list[tuple[str, int]] = []
        for i in range(ncols):
            c = row[i] if i < len(row) else ""
            if isinstance(c, str):
                if not _markup_free(c):
                    return None
                text = c
            else:
                text = c.plain
            w = _width(text)
            if w is None:
                return None
            line.append((text, w))
        cells.append(line)
    widths = [max(line[i][1] for line in cells) + 2 for i in range(ncols)]
    table_width = sum(widths) + ncols + 1
    if table_width > max_width:
        return None  # rich would shrink and wrap the columns
    out: list[str] = []
    if table.title:
        tw = _width(table.title)
        if tw is None or tw > table_width or not _markup_free(table.title):
            return None
        out.append(table.title + " " * (table_width - tw))
    justify = [j for _h, j in table.columns]

    def row_line(line: list[tuple[str, int]], edge: str) -> str:
        return edge + edge.join(_pad(t, w, widths[i] - 2, justify[i]) for i, (t, w) in enumerate(line)) + edge

    out.append("┏" + "┳".join("━" * w for w in widths) + "┓")
    out.append(row_line(cells[0], "┃"))
    out.append("┡" + "╇".join("━" * w for w in widths) + "┩")
    out.extend(row_line(line, "│") for line in cells[1:])
    out.append("└" + "┴".join("─" * w for w in widths) + "┘")
    return out


def plain_lines(renderable: Renderable, width: int) -> list[str] | None:
    """The lines rich prints for ``renderable`` without styles at console ``width``, or
    ``None`` when only rich can tell (something wraps, or is not plain text)."""
    if isinstance(renderable, Group):
        out: list[str] = []
        for part in renderable.parts:
            lines = plain_lines(part, width)
            if lines is None:
                return None
            out += lines
        return out
    if isinstance(renderable, Table):
        return _table_lines(renderable, width)
    text = renderable.plain
    w = _width(text)
    if w is None or w > width or "\n" in text:
        return None
    return [text]


def _rich_is_terminal(stream: object) -> bool:
    """Whether rich's Console would treat ``stream`` as a terminal (then it prints styles)."""
    env = os.environ
    compatible = env.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        return compatible == "1"
    force = env.get("FORCE_COLOR")
    if force is not None:
        return force != ""
    isatty = getattr(stream, "isatty", None)
    try:
        return False if isatty is None else bool(isatty())
    except ValueError:
        return False


def _rich_width() -> int:
    """The console width rich's Console uses (``COLUMNS``, else a terminal on fd 0/1/2, else 80)."""
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        return int(columns)
    width = 0
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd).columns
        except (AttributeError, ValueError, OSError):
            continue
        break
    return width or 80


def _plain_possible(stream: object) -> bool:
    if sys.platform == "win32" or hasattr(builtins, "get_ipython"):  # rich's Windows and Jupyter paths
        return False
    stdin_module = getattr(sys.stdin, "__module__", "") or ""
    if stdin_module.startswith("idlelib") or _rich_is_terminal(stream):
        return False
    encoding = (getattr(stream, "encoding", "utf-8") or "utf-8").lower()
    return encoding.startswith("utf")


def print_renderable(renderable: Renderable) -> None:
    """Print to stdout as ``Console(highlight=False, emoji=False).print(renderable)`` does."""
    stream = sys.stdout
    lines = plain_lines(renderable, _rich_width()) if _plain_possible(stream) else None
    if lines is None:
        from rich.console import Console

        Console(highlight=False, emoji=False).print(renderable)
        return
    stream.write("".join(line + "\n" for line in lines))
    stream.flush()
