"""Chat palettes stored per table and unit (issue #9 §6: "a chat palette per character").

As in ユドナリウム and ココフォリア the palette belongs to the character, not to a browser:
it is kept in the ``palettes`` table (migration ``0002``), one row per table and unit, so it
follows the player to another device.  Who may write a unit's palette: its owner (the
player who controls it) and the GM; the route checks that against the caller's view.

A palette is hostile input (a player types it, everyone's page may show what it sends):

* at most :data:`MAX_CHARS` characters and :data:`MAX_LINES` lines, each line at most
  :data:`MAX_LINE` characters (a chat line's limit): longer ones are refused with the
  line named, never cut silently;
* control characters other than newline and tab are refused (PostgreSQL cannot store NUL);
* it is only ever rendered through Jinja2's autoescape (a ``<script>`` line is a button
  whose label is that text), and a button sends its line as JSON (``tojson``).
"""

from __future__ import annotations

import datetime as dt
import unicodedata

from sqlalchemy import DateTime, ForeignKey, String, Text, UniqueConstraint, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, Session, mapped_column

from ikusa.server.db import Base
from ikusa.server.errors import Unprocessable

#: the longest palette (characters), its most lines and the longest line (= a chat line)
MAX_CHARS = 4000
MAX_LINES = 40
MAX_LINE = 400


class PaletteRow(Base):
    """One unit's chat palette at one table."""

    __tablename__ = "palettes"
    __table_args__ = (UniqueConstraint("table_id", "unit", name="uq_palettes_table_unit"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    unit: Mapped[str] = mapped_column(String(120))
    text: Mapped[str] = mapped_column(Text, default="")
    author: Mapped[str] = mapped_column(String(120), default="")
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), server_default=func.now(),
                                                    onupdate=func.now())


def clean_palette(text: str) -> str:
    """The palette as stored: newlines normalised, trailing blanks trimmed; ``Unprocessable``
    (naming the line) for what is too long or holds control characters."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if len(text) > MAX_CHARS:
        raise Unprocessable(f"palette: at most {MAX_CHARS} characters ({len(text)} given)")
    lines = [ln.rstrip() for ln in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    if len(lines) > MAX_LINES:
        raise Unprocessable(f"palette: at most {MAX_LINES} lines ({len(lines)} given)")
    for i, ln in enumerate(lines, 1):
        if len(ln) > MAX_LINE:
            raise Unprocessable(f"palette line {i}: at most {MAX_LINE} characters")
        bad = next((c for c in ln if c != "\t" and unicodedata.category(c) in ("Cc", "Cs")), None)
        if bad is not None:
            raise Unprocessable(f"palette line {i}: control character U+{ord(bad):04X} is not allowed")
    return "\n".join(lines)


class PaletteStore:
    """Read and write the palettes of tables on one database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def texts(self, table_id: str) -> dict[str, str]:
        """Unit id → palette text of every unit of ``table_id`` that has one."""
        with Session(self.engine) as s:
            rows = s.execute(select(PaletteRow.unit, PaletteRow.text).where(PaletteRow.table_id == table_id)).all()
        return {str(u): str(t) for u, t in rows}

    def put(self, table_id: str, unit: str, text: str, author: str) -> str:
        """Store ``unit``'s palette (checked by :func:`clean_palette`); the stored text.
        An empty palette removes the row (the system's default palette is shown again)."""
        clean = clean_palette(text)
        with Session(self.engine) as s, s.begin():
            row = s.scalar(select(PaletteRow).where(PaletteRow.table_id == table_id, PaletteRow.unit == unit))
            if not clean:
                if row is not None:
                    s.delete(row)
                return ""
            if row is None:
                s.add(PaletteRow(table_id=table_id, unit=unit[:120], text=clean, author=author[:120]))
            else:
                row.text = clean
                row.author = author[:120]
        return clean
