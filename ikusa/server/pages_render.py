"""Rendering the table's pages and live fragments from a role's view.

Every fragment is a pure function of the view the projection (``ikusa.server.projection``)
made for one role: a template never sees the state, so nothing the projection left out can
reach a page.  Jinja2 autoescapes everything (unit names, chat, prompts): HTML or script in
them is shown as text.

The fragments of the table page, each an SSE event of the same name:
``banner`` (「あなたの手番」), ``turn`` (the aria-live line), ``board``, ``pending``,
``log``, ``chat`` and, for the GM, ``gm`` (undo/redo, control, reveal).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from ikusa.server.pages_board import board_context, clock_line, winner_name

TEMPLATES = Path(__file__).with_name("templates")
STATIC = Path(__file__).with_name("static")

#: decision options shown before 「ほかの選択肢」
OPTION_LIMIT = 12
#: log lines rendered on a page (the export has them all)
LOG_LIMIT = 400

SYSTEM_LABELS = {"maai": "間合（maai）", "sengensyou": "千幻抄（sengensyou）", "fantasy": "ファンタジー（fantasy）"}
COST_LABELS = {"maai": "活力", "sengensyou": "DP", "fantasy": "アクション"}
KIND_LABELS = {
    "breath": "一呼吸", "reaction": "防御（反応）", "fate": "運命介入", "lull": "小休止", "survival": "生死判定",
    "initiative": "イニシアティブ", "action": "行動", "gm_table": "GM 判断", "defence": "防御", "turn": "手番",
}
RESOURCES = {
    "maai": [("wounds", "戦力"), ("vigor", "活力"), ("fate", "運命介入")],
    "sengensyou": [("hp", "HP"), ("dp", "DP"), ("graze", "グレイズ"), ("reiryoku", "霊力")],
    "fantasy": [("hp", "HP")],
}
ROW_LABELS = {"front": "前列", "back": "後列", "前": "前", "後": "後"}


def pct(x: float | None) -> str:
    """An option's exact odds as a percentage with one decimal (``0.64`` → ``64.0%``)."""
    return "" if x is None else f"{x * 100:.1f}%"


def who_label(who: str | None) -> str:
    """An entry's author in words: ``gm`` → GM, ``player:太郎`` → 太郎, ``ai:greedy`` → AI (greedy)."""
    if not who:
        return ""
    if who == "gm":
        return "GM"
    if who == "server":
        return "自動"
    if who.startswith("player:"):
        return who[len("player:"):]
    if who.startswith("ai:"):
        return f"AI ({who[3:]})"
    return who


def role_label(role: dict[str, Any]) -> str:
    r = role.get("role")
    if r == "gm":
        return "GM"
    if r == "player":
        return f"プレイヤー: {role.get('name', '')}"
    return "見学"


def link_label(link: dict[str, Any]) -> str:
    r = link.get("role")
    state = "" if link.get("active") else "（無効）"
    if r == "player":
        return f"プレイヤー {link.get('name', '')}{state}"
    return ("GM" if r == "gm" else "見学") + state


def make_env() -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(default=True),
                      trim_blocks=True, lstrip_blocks=True)
    env.globals.update(pct=pct, who_label=who_label, link_label=link_label,
                       kind_label=lambda k: KIND_LABELS.get(k, k),
                       row_label=lambda r: ROW_LABELS.get(r, r or "—"),
                       static=lambda p: f"/static/{p}")
    return env


ENV = make_env()


def render(template: str, **ctx: Any) -> str:
    return ENV.get_template(template).render(**ctx)


def _my_turn(v: dict[str, Any]) -> tuple[bool, str]:
    """Whether this page's person must answer now: a player whose unit acts, rolls or reacts;
    the GM when the unit is the GM's own (not a player's)."""
    p = v.get("pending")
    if not p or not p.get("may_answer"):
        return False, ""
    role = v["role"]["role"]
    unit = p.get("roller") if p.get("kind") == "dice" else p.get("actor")
    if role == "gm":
        ctl = next((u.get("controller") for u in v["units"] if u.get("id") == unit), "gm")
        if ctl != "gm":
            return False, ""
    if p.get("kind") == "dice":
        return True, f"{p.get('roller_name', '')}: {p.get('purpose', '')}"
    return True, f"{p.get('actor_name', '')} の{KIND_LABELS.get(p.get('kind', ''), p.get('kind', ''))}"


def base_context(v: dict[str, Any]) -> dict[str, Any]:
    system = v.get("system", "")
    mine, what = _my_turn(v)
    p = v.get("pending")
    if p and p.get("kind") == "dice" and p.get("roller"):
        roller: dict[str, Any] = next((u for u in v["units"] if u.get("id") == p["roller"]), {})
        p = {**p, "mode": roller.get("dice", "ask")}
        v = {**v, "pending": p}
    return {
        "v": v, "system": system, "my_turn": mine, "my_turn_what": what,
        "winner": winner_name(v), "clock": clock_line(v), "cost_label": COST_LABELS.get(system, ""),
        "option_limit": OPTION_LIMIT, "board_template": system if system in COST_LABELS else "maai",
        "b": board_context(v), "log_items": sorted(v.get("log", []), key=lambda i: int(i.get("seq", 0)))[-LOG_LIMIT:],
        "me_who": _who(v["role"]),
    }


def _who(role: dict[str, Any]) -> str:
    return f"player:{role.get('name', '')}" if role.get("role") == "player" else str(role.get("role", ""))


FRAGMENTS = ("banner", "board", "pending", "log", "chat")


def fragments(v: dict[str, Any]) -> dict[str, str]:
    """Every live fragment of the table page for this view (name → HTML).  ``turn``, which
    carries the version, comes last: a page showing a version has every fragment of it."""
    ctx = base_context(v)
    out = {name: render(f"fragments/{name}.html", **ctx) for name in FRAGMENTS}
    if v["role"]["role"] == "gm":
        out["gm"] = render("fragments/gm.html", **ctx)
        # the units of the ruling forms' selects: sent only when the units change (add_unit, reveal)
        out["unit_options"] = render("fragments/unit_options.html", v=v, blank=False)
        out["unit_options_blank"] = render("fragments/unit_options.html", v=v, blank=True)
    out["turn"] = render("fragments/turn.html", **ctx)
    return out


def page_context(v: dict[str, Any]) -> dict[str, Any]:
    """What the full table page needs beside its fragments."""
    system = v.get("system", "")
    mine = [u for u in v["units"] if u.get("mine")] if v["role"]["role"] == "player" else []
    speakers = mine if v["role"]["role"] == "player" else v["units"]
    from ikusa.server.pages_rulings import form_context

    return {
        "v": v, "frags": fragments(v), "role_label": role_label(v["role"]),
        "system_label": SYSTEM_LABELS.get(system, system), "speakers": speakers,
        "resources": RESOURCES.get(system, []), **form_context(v),
    }
