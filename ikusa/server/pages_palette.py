"""Chat palettes: one command per line per character, ``{var}`` filled from the unit.

As in ユドナリウム and ココフォリア: a line ``//var=value`` defines a variable, every other
line is a button that sends that command.  ``{name}`` and every number the viewer's view
holds for the unit (``{vigor}`` or ``{活力}``, ``{hp}``/``{HP}``, ``{dp}``/``{DP}`` …) are
filled in when the line is sent, so the button always rolls with the current values.
Palettes are kept per browser in a cookie (HttpOnly, this table's path only).
"""

from __future__ import annotations

import json
import re
from typing import Any

from fastapi import Request

from ikusa.server.pages_render import render

PALETTE_COOKIE = "ikusa_palette_"
MAX_LINES = 40

ALIASES = {"活力": "vigor", "戦力": "wounds", "運命": "fate_left", "HP": "hp", "DP": "dp", "グレイズ": "graze",
           "霊力": "reiryoku", "名前": "name"}

DEFAULTS = {
    "maai": "2D10+0>=10 {name}の判定\nS2D10 {name}のシークレット判定\n1D10\n1D100",
    "sengensyou": "SGS {name}\nDP3+0>=10 {name}の判定\n1D6",
    "fantasy": "2D6+0>=10 {name}の判定\n1D6\n2D6",
}

_VAR = re.compile(r"\{([^{}\s]{1,30})\}")


def variables(text: str, unit: dict[str, Any]) -> dict[str, str]:
    """The palette's variables: the unit's scalar fields (and their Japanese names), then ``//var=value``."""
    out: dict[str, str] = {}
    for k, v in unit.items():
        if isinstance(v, str | int) and not isinstance(v, bool):
            out[k] = str(v)
    for ja, key in ALIASES.items():
        if key in out:
            out[ja] = out[key]
    for line in text.splitlines():
        if line.startswith("//") and "=" in line:
            k, _, v = line[2:].partition("=")
            out[k.strip()] = v.strip()
    return out


def fill(line: str, values: dict[str, str]) -> str:
    """``{var}`` replaced (twice, so a variable may use another); unknown ones stay as typed."""
    for _ in range(2):
        line = _VAR.sub(lambda m: values.get(m.group(1), m.group(0)), line)
    return line


def fill_line(line: str, unit: dict[str, Any], text: str = "") -> str:
    return fill(line, variables(text, unit))


def read_palettes(request: Request, table_id: str) -> dict[str, str]:
    raw = request.cookies.get(PALETTE_COOKIE + table_id, "")
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def palette_html(v: dict[str, Any], palettes: dict[str, str]) -> str:
    """The palettes of the units this viewer may speak as (a player's own; every unit for the GM)."""
    role = v["role"]["role"]
    if role == "spectator":
        return ""
    units = [u for u in v["units"] if u.get("mine")] if role == "player" else list(v["units"])
    blocks = []
    for u in units:
        uid = str(u.get("id", ""))
        text = palettes.get(uid) or DEFAULTS.get(str(v.get("system", "")), "1D6")
        values = variables(text, u)
        lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("//")][:MAX_LINES]
        blocks.append({"u": u, "text": text, "lines": [{"raw": ln, "shown": fill(ln, values)} for ln in lines]})
    return render("fragments/palette.html", v=v, blocks=blocks, open_first=role == "player")
