"""Surprise (不意打ち, 002 不意打ちはどのように発生するのか / 不意打ちの戦闘処理).

* F-R01: ambush = 潜伏 seen through by 危険感知; stealth approach = 隠密行動 found by 直感ST;
* F-R02: a group is judged on its lowest 達成値; a solo stealther is its own unit;
* F-R03: only the characters who failed to notice are surprised;
* F-G02: the observer notices on detection ≥ stealth (ties favour the observer).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ikusa.dice.source import DiceSource
from ikusa.engine.events import Event
from ikusa.systems.fantasy.character import Fighter
from ikusa.systems.fantasy.options import FantasyOptions
from ikusa.systems.fantasy.resolution import Applied, Check, roll_check

CheckMods = Callable[[Fighter, tuple[str, ...]], list[Applied]]


def group_value(values: Sequence[int]) -> int:
    """F-R02/F-T01: a group is found on its lowest 達成値."""
    return min(values)


def notices(observer: Check, group: int, opts: FantasyOptions, fumbled: bool = False,
            perfect: bool = False) -> bool:
    """F-G02: the observer notices when its 達成値 ≥ the group's (tie → observer unless
    ``surprise_tie = "hider"``); 自動失敗/自動成功 decide first (F-G04), the observer's before the
    group's: a group with a member's 自動失敗 (``fumbled``) is noticed, a group whose every
    member rolled 自動成功 (``perfect``) is not."""
    if observer.auto_fail or observer.blocked is not None:
        return False
    if observer.auto_success or fumbled:
        return True
    if perfect:
        return False
    return observer.total >= group if opts.surprise_tie == "observer" else observer.total > group


def resolve(mode: str, hiders: set[str], fighters: Sequence[Fighter], opts: FantasyOptions,
            dice: DiceSource, mods: CheckMods) -> list[Event]:
    """Roll the hiding units' stealth and every observer's detection; mark the surprised."""
    events: list[Event] = []
    skill, skill_name = ("hide", "潜伏") if mode == "ambush" else ("stealth", "隠密行動")
    units: dict[str, list[Fighter]] = {}
    for f in fighters:
        if f.side in hiders:
            units.setdefault(f.unit, []).append(f)
    unit_values: dict[str, int] = {}
    fumbled: dict[str, bool] = {}
    perfect: dict[str, bool] = {}
    for unit, members in units.items():
        checks = []
        for m in members:
            tags = (f"skill.{skill}",)
            c = roll_check(dice, opts, tags[0], m.name, getattr(m.spec.values, skill), mods(m, tags))
            checks.append(c)
        value = group_value([c.total for c in checks])
        unit_values[unit] = value
        fumbled[unit] = any(c.auto_fail for c in checks)
        perfect[unit] = all(c.auto_success for c in checks)
        events.append(Event.lazy("stealth", "F-R01,F-R02", _stealth_text,
                                 (skill_name, unit, tuple(m.name for m in members), tuple(checks), value,
                                  fumbled[unit], perfect[unit]),
                                 {"unit": unit, "totals": [c.total for c in checks], "value": value,
                                  "auto_fail": fumbled[unit], "auto_success": perfect[unit]}))
    for f in fighters:
        if f.side in hiders:
            continue
        if mode == "ambush":
            otags: tuple[str, ...] = ("skill.danger_sense",)
            base = f.spec.values.danger_sense
        else:
            otags = ("st.intuition.perceive",)
            base = f.spec.values.intuition
        c = roll_check(dice, opts, otags[0], f.name, base, mods(f, otags))
        found = {u: notices(c, v, opts, fumbled[u], perfect[u]) for u, v in unit_values.items()}
        aware = any(found.values()) if opts.aware_if_any_detected else all(found.values())
        f.surprised = not aware and bool(unit_values)
        seen = tuple((u, v, found[u]) for u, v in unit_values.items())
        events.append(Event.lazy("detect", "F-R01,F-R03,F-G02", _detect_text, (f.name, c, seen, f.surprised),
                                 {"id": f.id, "total": c.total, "found": found, "surprised": f.surprised}))
    return events


def _stealth_text(skill_name: str, unit: str, names: tuple[str, ...], checks: tuple[Check, ...], value: int,
                  fumbled: bool, perfect: bool) -> str:
    """A hiding unit's line (made when first read, issue #12: an AI never reads it; Checks are values)."""
    parts = " / ".join(f"{n} {c.text()}" for n, c in zip(names, checks, strict=True))
    how = " (自動失敗がいる: 集団は見つかる F-R02,F-G04)" if fumbled else \
        " (全員自動成功: 自動成功でなければ見つからない F-G04)" if perfect else ""
    return f"{skill_name} ユニット{unit}: {parts} → 最も低い達成値 {value} で判定{how}"


def _detect_text(name: str, c: Check, seen: tuple[tuple[str, int, bool], ...], surprised: bool) -> str:
    """An observer's line: its check against every hiding unit (made when first read)."""
    units = "、".join(f"{u}({v}){'発見' if ok else '見逃し'}" for u, v, ok in seen)
    return f"{name} {c.text()} vs {units} → {'不意打ちを受ける' if surprised else '気付いた'}"


# -- round-1 formation of the surprised (F-R04: 陣形だけを決定) --------------------------------

PLACE_KEEP = "place:keep"


def place_choices(f: Fighter, two_fronts: bool, has_room: Callable[[tuple[str, str]], bool]
                  ) -> list[tuple[str, str, str, str, bool]]:
    """F-R04: a surprised character's only decision in round 1 is its place in the formation
    (陣形): (key, label, row, front, legal).  Staying put comes first; a front row is offered
    only while it has room (F-R08/F-R09 capacity).  It costs no action and provokes no
    opportunity attack: it is the set-up of the formation, not a move."""
    out: list[tuple[str, str, str, str, bool]] = [
        (PLACE_KEEP, f"陣形: このまま ({_where(f.row, f.front)})", f.row, f.front, True)]
    places = [("front", "fore")] + ([("front", "rear")] if two_fronts else []) + [("back", f.front)]
    for row, front in places:
        if row == f.row and (row == "back" or front == f.front):
            continue
        legal = row == "back" or has_room((f.unit, front))
        key = "place:back" if row == "back" else f"place:front.{front}"
        out.append((key, f"陣形: {_where(row, front)}に立つ", row, front, legal))
    return out


def _where(row: str, front: str) -> str:
    if row == "back":
        return "後衛"
    return "前衛" if front == "fore" else "後ろの前衛"
