"""The board of each system, shaped for its template from a role's view.

Only what the view holds is used: a number the projection left out (an NPC's 活力 for a
player, say) is shown as 「?」, never looked up elsewhere.

* maai: the count timeline (S-R33…S-R35): units by remaining 活力, highest first; units on
  the same 活力 are marked 「同値」; the acting unit 「手番」 and the next one 「次」.
  When the view's ``board`` carries the engine's own ``order`` / ``next`` (the core's
  ``board(state)``), those are used instead of sorting here.
* sengensyou: one table per side, front row first (G-R rows), with HP, DP, graze, 霊力.
* fantasy: each side's formation, front and back ranks, with HP and conditions.
"""

from __future__ import annotations

from collections import Counter
from typing import Any


def _acting(v: dict[str, Any]) -> str | None:
    p = v.get("pending")
    if not p:
        return None
    unit = p.get("roller") if p.get("kind") == "dice" else p.get("actor")
    return unit if isinstance(unit, str) else None


def _out(u: dict[str, Any]) -> bool:
    return bool(u.get("incapacitated") or u.get("down") or u.get("status") in ("dead", "fled", "死亡", "逃走"))


def tracker_rows(v: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The core's tracker board rows (``ikusa/systems/<id>/board.py``, cut per role by the
    projection) by unit id."""
    trk = v.get("tracker") or {}
    return {str(r.get("id")): r for r in trk.get("rows", []) if isinstance(r, dict)}


def _with_tracker(u: dict[str, Any], t: dict[str, Any]) -> dict[str, Any]:
    """A unit with the tracker's labels: stance and reservation names, effects with the time
    left, conditions, the formation."""
    out = dict(u)
    for key, name in (("stance", "stance_name"), ("reservations", "reservation_names"), ("effects", "effects_label"),
                      ("conditions", "conditions_label"), ("formation", "formation")):
        val = t.get(key)
        if isinstance(val, str) and val:
            out[name] = val
    return out


def maai_rows(v: dict[str, Any]) -> list[dict[str, Any]]:
    trk = tracker_rows(v)
    units: list[dict[str, Any]] = [_with_tracker(u, trk.get(str(u.get("id")), {})) for u in v.get("units", [])]
    board = dict(v.get("board") or {})
    current = _acting(v)
    if trk:
        board["order"] = list(trk)
        nxt_ids = [uid for uid, r in trk.items() if "next" in (r.get("marks") or [])]
        if nxt_ids:
            board["next"] = nxt_ids[0]
    order = board.get("order")
    if isinstance(order, list) and all(isinstance(x, str) for x in order):
        rank = {uid: i for i, uid in enumerate(order)}
        units.sort(key=lambda u: rank.get(u.get("id", ""), len(rank)))
    else:
        def key(u: dict[str, Any]) -> tuple[int, int, int]:
            vig = u.get("vigor")
            known = isinstance(vig, int)
            return (1 if _out(u) else 0, 0 if known else 1, -(vig if isinstance(vig, int) else 0))
        units.sort(key=key)
    able = [u for u in units if not _out(u) and isinstance(u.get("vigor"), int)]
    counts = Counter(u["vigor"] for u in able)
    nxt = board.get("next")
    unknown = any(isinstance(u.get("vigor"), int) is False and not _out(u) for u in units)
    if not isinstance(nxt, str) and not unknown and v.get("pending"):  # no guess without every 活力
        nxt = next((u["id"] for u in able if u.get("id") != current and u["vigor"] > 0), None)
    rows = []
    for i, u in enumerate(units):
        out = _out(u)
        vig = u.get("vigor")
        marks = trk.get(str(u.get("id")), {}).get("marks")
        tie = ("tie" in marks) if isinstance(marks, list) and trk else (
            not out and isinstance(vig, int) and counts[vig] > 1)
        rows.append({
            "u": u, "out": out, "rank": None if out or not isinstance(vig, int) else i + 1,
            "tie": tie and isinstance(vig, int),
            "current": u.get("id") == current, "next": u.get("id") == nxt and u.get("id") != current,
        })
    return rows


def _sides(v: dict[str, Any]) -> list[str]:
    seen: list[str] = []
    for u in v.get("units", []):
        s = str(u.get("side", ""))
        if s not in seen:
            seen.append(s)
    return seen


_ROW_ORDER = {"front": 0, "前": 0, "back": 1, "後": 1}


def side_rows(v: dict[str, Any]) -> list[dict[str, Any]]:
    current = _acting(v)
    trk = tracker_rows(v)
    out = []
    for side in _sides(v):
        members = [_with_tracker(u, trk.get(str(u.get("id")), {})) for u in v["units"]
                   if str(u.get("side", "")) == side]
        members.sort(key=lambda u: (_ROW_ORDER.get(str(u.get("row", "")), 2)))
        rows: list[dict[str, Any]] = [{"u": u, "out": _out(u), "current": u.get("id") == current} for u in members]
        ranks: list[dict[str, Any]] = []
        for r, u in zip(rows, members, strict=True):
            name = str(u.get("formation") or u.get("row", "") or "")
            if not ranks or ranks[-1]["name"] != name:
                ranks.append({"name": name, "rows": []})
            ranks[-1]["rows"].append(r)
        out.append({"name": side, "rows": rows, "ranks": ranks})
    return out


def board_context(v: dict[str, Any]) -> dict[str, Any]:
    system = v.get("system")
    if system == "maai":
        return {"rows": maai_rows(v)}
    return {"sides": side_rows(v)}


def clock_line(v: dict[str, Any]) -> str:
    """The system's clock: 第N間合, ターンN, ラウンドN."""
    board = v.get("board") or {}
    system = v.get("system")
    if system == "maai" and board.get("maai") is not None:
        return f"第{board['maai']}間合 "
    if system == "sengensyou" and board.get("turn") is not None:
        return f"ターン{board['turn']} "
    if system == "fantasy" and board.get("round") is not None:
        return f"ラウンド{board['round']} "
    return ""


def winner_name(v: dict[str, Any]) -> str:
    w = (v.get("board") or {}).get("winner")
    return "" if w is None else str(w)
