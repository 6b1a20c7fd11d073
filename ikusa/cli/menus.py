"""Option menus for the terminal (issue #8 §5): short lists grouped by target with cost and
odds, the full list on request, amounts typed as amounts, typos named as unknown options,
fate offered only where it improves the outcome.

Numbers always refer to the full list (option 7 is option 7 in the short and the full
menu alike), except in an *amount* decision (every option is ``prefix:N``, such as
sengensyou's DP declaration ``declare:22``): there ``22`` is the amount 22, never option 22;
``#3`` picks option 3 anywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ikusa.engine.protocol import Decision, Option

#: a short menu shows at most this many options of one target, and this many in all
PER_GROUP = 4
SHORT_LIMIT = 14
#: decisions with at most this many options are always shown in full
FULL_BELOW = 10


@dataclass(slots=True, frozen=True)
class Choice:
    """The outcome of reading a typed answer: a ``key`` to push, a ``needle`` to filter
    the menu with, or an ``error`` to show (nothing applied)."""

    key: str | None = None
    needle: str | None = None
    error: str | None = None


def amounts(decision: Decision) -> dict[int, Option] | None:
    """``{N: option}`` when every option is ``prefix:N`` with one prefix (an amount to type)."""
    prefix: str | None = None
    out: dict[int, Option] = {}
    for o in decision.options:
        head, sep, tail = o.key.rpartition(":")
        if not sep or not tail.isdecimal() or (prefix is not None and head != prefix):
            return None
        prefix = head
        out[int(tail)] = o
    return out if len(out) > 1 else None


def hidden_fate(decision: Decision, show_all: bool = False) -> set[str]:
    """Fate interventions that do not improve the outcome (``data.better`` False): left out
    of the menu unless ``show_all`` (they stay legal when typed by key)."""
    if show_all:
        return set()
    return {o.key for o in decision.options
            if o.data.get("kind") == "fate" and o.data.get("better") is False and o.key != "nofate"}


def only_declining_fate(decision: Decision, show_all: bool = False) -> bool:
    """A fate question where no intervention improves the outcome: the answer is ``nofate``."""
    if decision.kind != "fate" or decision.option("nofate") is None:
        return False
    hidden = hidden_fate(decision, show_all)
    return all(o.key == "nofate" or o.key in hidden for o in decision.options)


def target_of(o: Option) -> str:
    t = o.data.get("target")
    if isinstance(t, str) and t:
        return t
    _, sep, tail = o.key.partition(">")
    if sep:
        return tail.split("+")[0]
    return ""


def grouped(decision: Decision, names: Mapping[str, str], hidden: set[str],
            needle: str = "") -> list[tuple[str, list[tuple[int, Option]]]]:
    """Options (numbered 1.. in the full list) grouped by target, in first-seen order;
    untargeted ones last under ``""``."""
    groups: dict[str, list[tuple[int, Option]]] = {"": []}
    low = needle.lower()
    for i, o in enumerate(decision.options, 1):
        if o.key in hidden:
            continue
        if needle and low not in o.key.lower() and needle not in o.label:
            continue
        groups.setdefault(target_of(o), []).append((i, o))
    untargeted = groups.pop("")
    out = [("→ " + names.get(t, t), rows) for t, rows in groups.items() if rows]
    if untargeted:
        out.append(("", untargeted))
    return out


def short(groups: list[tuple[str, list[tuple[int, Option]]]], total: int) -> tuple[
        list[tuple[str, list[tuple[int, Option]]]], int]:
    """The short menu: a few options per target; returns it and how many were left out."""
    if total <= FULL_BELOW:
        return groups, 0
    out = []
    shown = 0
    for label, rows in groups:
        take = rows[:PER_GROUP] if label else rows[:SHORT_LIMIT]
        take = take[:max(0, SHORT_LIMIT - shown)] or rows[:1]
        out.append((label, take))
        shown += len(take)
    left = sum(len(r) for _, r in groups) - shown
    return out, left


def read_choice(text: str, decision: Decision) -> Choice:
    """What a typed answer means for ``decision`` (no side effects)."""
    raw = text.strip()  # no NFKC: '²' must not become 2 (full-width '３' is decimal already)
    if not raw:
        return Choice()
    if decision.option(raw) is not None:
        return Choice(key=raw)
    n = len(decision.options)
    if raw.startswith(("#", "＃")) and raw[1:].isdecimal():
        i = int(raw[1:])
        if 1 <= i <= n:
            return Choice(key=decision.options[i - 1].key)
        return Choice(error=f"choose #1..#{n}")
    if raw.isdecimal():
        amt = amounts(decision)
        if amt is not None:
            if int(raw) in amt:
                return Choice(key=amt[int(raw)].key)
            lo, hi = min(amt), max(amt)
            return Choice(error=f"{raw} is not an amount you can choose here ({lo}..{hi}); #N picks option N")
        i = int(raw)
        if 1 <= i <= n:
            return Choice(key=decision.options[i - 1].key)
        return Choice(error=f"choose 1..{n}")
    low = raw.lower()
    if any(low in o.key.lower() or raw in o.label for o in decision.options):
        return Choice(needle=raw)
    if ":" in raw or ">" in raw:
        return Choice(key=raw)  # shaped like a key: the system says which rule it breaks
    return Choice(error=f"unknown option {raw!r}: type its number or key, part of a key or label to "
                        "filter, 'all' for the full list, 'help' for commands")
