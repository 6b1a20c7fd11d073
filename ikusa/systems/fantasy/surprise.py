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
        parts = " / ".join(f"{m.name} {c.text()}" for m, c in zip(members, checks, strict=True))
        how = " (自動失敗がいる: 集団は見つかる F-R02,F-G04)" if fumbled[unit] else \
            " (全員自動成功: 自動成功でなければ見つからない F-G04)" if perfect[unit] else ""
        events.append(Event("stealth", "F-R01,F-R02",
                            f"{skill_name} ユニット{unit}: {parts} → 最も低い達成値 {value} で判定{how}",
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
        seen = "、".join(f"{u}({v}){'発見' if ok else '見逃し'}" for (u, v), ok in
                        zip(unit_values.items(), found.values(), strict=True))
        verdict = "不意打ちを受ける" if f.surprised else "気付いた"
        events.append(Event("detect", "F-R01,F-R03,F-G02",
                            f"{f.name} {c.text()} vs {seen} → {verdict}",
                            {"id": f.id, "total": c.total, "found": found, "surprised": f.surprised}))
    return events


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
