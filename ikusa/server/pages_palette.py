"""Chat palettes on the table page: one command per line per character, ``{var}`` filled.

As in ユドナリウム and ココフォリア: a line ``//var=value`` defines a variable, every other
line is a button that sends that command.  ``{name}`` and every number the viewer's view
holds for the unit (``{vigor}`` or ``{活力}``, ``{hp}``/``{HP}``, ``{dp}``/``{DP}`` …) are
filled in from the unit *as this viewer may see it* (the projection's view, never the
state), so a button always rolls with the current values.  The palettes themselves are
stored per table and unit (:mod:`ikusa.server.palettes`); the buttons are a live fragment
(``palette``) of the page's stream, the editor is not (a refresh must not eat what is
being typed).
"""

from __future__ import annotations

import re
from typing import Any

from ikusa.server.pages_render import render
from ikusa.server.palettes import MAX_LINES

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
    """One palette line as sent: filled from ``unit`` (the viewer's view) and the palette's
    own ``//var=value`` lines (``text``)."""
    return fill(line, variables(text, unit))


def speakable(v: dict[str, Any]) -> list[dict[str, Any]]:
    """The units this viewer may speak as and edit the palette of: a player's own, every
    unit (that the GM sees) for the GM, none for a spectator."""
    role = v["role"]["role"]
    if role == "gm":
        return list(v["units"])
    if role == "player":
        return [u for u in v["units"] if u.get("mine")]
    return []


def text_of(v: dict[str, Any], texts: dict[str, str], uid: str) -> str:
    """A unit's palette: the stored one, else the system's default."""
    return texts.get(uid) or DEFAULTS.get(str(v.get("system", "")), "1D6")


def _blocks(v: dict[str, Any], texts: dict[str, str]) -> list[dict[str, Any]]:
    blocks = []
    for u in speakable(v):
        uid = str(u.get("id", ""))
        text = text_of(v, texts, uid)
        values = variables(text, u)
        lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("//")][:MAX_LINES]
        blocks.append({"u": u, "text": text, "stored": uid in texts,
                       "lines": [{"raw": ln, "shown": fill(ln, values)} for ln in lines]})
    return blocks


def palette_html(v: dict[str, Any], texts: dict[str, str]) -> str:
    """The palette buttons of every unit this viewer may speak as (the live ``palette`` fragment)."""
    if not speakable(v):
        return ""
    return render("fragments/palette.html", v=v, blocks=_blocks(v, texts), open_first=v["role"]["role"] == "player")


def editor_html(v: dict[str, Any], texts: dict[str, str], error: str = "", unit: str = "", draft: str = "") -> str:
    """The palette editor (one form per unit); ``error`` is shown at ``unit``'s text box,
    which keeps what was typed (``draft``)."""
    if not speakable(v):
        return ""
    return render("fragments/palette_editor.html", v=v, blocks=_blocks(v, texts), error=error, error_unit=unit,
                  draft=draft)
