"""The standing tracker view as plain data (issue #8 §5), shared by every system's
``board(state)`` (``ikusa/systems/<id>/board.py``) and every interface (terminal, web).

A board is a JSON-ready mapping::

    {"title": "第2間合 · カウント進行",
     "columns": [["name", "名前"], ["vigor", "活力"], …],     # key, Japanese label
     "rows": [{"id": "oni", "name": "鬼", "vigor": 7, …, "marks": ["next"]}, …],
     "notes": ["次: 源三郎"]}

``marks`` flag a row: ``acting`` (deciding now), ``next`` (acts next), ``tie`` (shares its
count with another unit), ``out`` (out of the fight).
"""

from __future__ import annotations

from typing import Any

from ikusa.engine.effects import EffectBook


def make_board(title: str, columns: list[tuple[str, str]], rows: list[dict[str, Any]],
               notes: list[str] | None = None) -> dict[str, Any]:
    return {"title": title, "columns": [[k, label] for k, label in columns], "rows": rows,
            "notes": list(notes or [])}


def effect_labels(state: Any, unit_id: str) -> list[str]:
    """The active effects on a unit as ``名前(残り2間合)`` (when the state keeps an
    :class:`EffectBook` as ``effects``)."""
    book = getattr(state, "effects", None)
    if not isinstance(book, EffectBook):
        return []
    out = []
    for e in book.on(unit_id):
        mods = " ".join(f"{k}{v:+d}" for k, v in e.spec.modifiers.items())
        bits = [b for b in (mods, e.spec.condition or "", e.left_label()) if b]
        out.append(f"{e.spec.name}({', '.join(bits)})")
    return out
