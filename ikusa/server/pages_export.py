"""The log as a self-contained, coloured HTML page (no scripts, no external files).

Rendered from the GM's view like every page, so it holds what the GM saw: the narrated
events with their rule ids, GM rulings and notes, the typed dice with who typed them, and
the dice chat (secret rolls included, marked).  Colours: events by kind (attack, damage,
ruling, dice), chat by speaker; each line also says in words what it is.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ikusa.server.pages_render import SYSTEM_LABELS, render


def _colour(name: str) -> str:
    """A stable readable colour per speaker (hue from a hash; dark enough on white)."""
    hue = int(hashlib.sha256(name.encode("utf-8")).hexdigest()[:4], 16) % 360
    return f"hsl({hue}, 55%, 32%)"


def export_html(v: dict[str, Any]) -> str:
    items: list[dict[str, Any]] = []
    for item in v.get("log", []):
        items.append({"seq": item["seq"], "type": "log", **item})
    for c in v.get("chat", []):
        items.append({"seq": c["seq"], "type": "chat", "colour": _colour(str(c.get("name", ""))), **c})
    items.sort(key=lambda x: (x["seq"], 0 if x["type"] == "log" else 1))
    return render("export.html", v=v, items=items, system_label=SYSTEM_LABELS.get(v.get("system", ""), ""))
