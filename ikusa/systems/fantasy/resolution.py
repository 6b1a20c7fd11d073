"""Check resolution of the host model (F-H01…F-H04): 達成値 = 2D6 + 判定値 + modifiers,
each modifier shown with the condition or rule that applied it.

* success against a TN when 達成値 ≥ TN (F-G05);
* 自動失敗 when every base die shows 1, 自動成功 when every die shows its maximum (F-G04);
* a check a condition forbids (麻痺/睡眠 → 避ける直感ST, F-R10/F-R11) is not rolled and fails.

Pure: dice come from the :class:`~ikusa.dice.source.DiceSource` given.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from mypy_extensions import mypyc_attr

from ikusa.dice.odds import sum_counts
from ikusa.dice.source import DiceSource, RandomSource
from ikusa.systems.fantasy.conditions import Cond, ConditionDef
from ikusa.systems.fantasy.options import FantasyOptions

#: Japanese labels of check kinds, for narration
KIND_LABELS: dict[str, str] = {
    "attack.melee": "近接命中",
    "attack.ranged": "射撃命中",
    "attack.thrown": "投擲命中",
    "evade.melee": "回避(近接)",
    "evade.ranged": "回避(射撃)",
    "st.fort": "頑健ST",
    "st.will": "精神ST",
    "st.intuition.avoid": "直感ST(回避)",
    "st.intuition.perceive": "直感ST(知覚)",
    "magic.single": "魔法強度",
    "magic.area": "魔法強度",
    "skill.stealth": "隠密行動",
    "skill.hide": "潜伏",
    "skill.danger_sense": "危険感知",
    "initiative": "イニシアティブ",
}


@mypyc_attr(allow_interpreted_subclasses=True)  # copied via cls.__new__ (deepcopy, pickle): see setup.py
@dataclass(slots=True, frozen=True)
class Applied:
    """One modifier that applied: its value, the condition/situation and the rule."""

    value: int
    source: str
    rule: str
    note: str = ""

    def text(self) -> str:
        return f"{self.value:+d}({self.source} {self.rule})"

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "source": self.source, "rule": self.rule, "note": self.note}


def expand(tags: Iterable[str]) -> frozenset[str]:
    """Every dotted prefix of every tag: ``evade.ranged.engaged`` → evade, evade.ranged, …"""
    if isinstance(tags, tuple):
        return _expand_tuple(tags)
    return _expand(tags)


@lru_cache(maxsize=512)
def _expand_tuple(tags: tuple[str, ...]) -> frozenset[str]:
    """:func:`expand` of a tuple of check tags (a pure function of a few fixed strings)."""
    return _expand(tags)


def _expand(tags: Iterable[str]) -> frozenset[str]:
    out: set[str] = set()
    for t in tags:
        parts = t.split(".")
        for i in range(1, len(parts) + 1):
            out.add(".".join(parts[:i]))
    return frozenset(out)


def condition_modifiers(tags: Iterable[str], conds: Iterable[tuple[Cond, ConditionDef]]) -> list[Applied]:
    """The modifiers the applying conditions give a check with ``tags`` (F-G11: additive
    across conditions; each modifier line of a condition counts once)."""
    have = expand(tags)
    out: list[Applied] = []
    for _c, d in conds:
        for m in d.modifiers:
            if any(t in have for t in m.applies_to):
                out.append(Applied(m.value, d.name, d.rule, m.note))
    return out


def blocked_by(tags: Iterable[str], conds: Iterable[tuple[Cond, ConditionDef]]) -> ConditionDef | None:
    """The condition that forbids this check (F-R10/F-R11/F-G06), if any."""
    have = expand(tags)
    for _c, d in conds:
        if any(t in have for t in d.blocked_checks):
            return d
    return None


@mypyc_attr(allow_interpreted_subclasses=True)  # copied via cls.__new__ (deepcopy, pickle): see setup.py
class Check:
    """A rolled (or refused) check with every number that went into it.  A value: its fields
    never change (a plain slots class with its 達成値 worked out once, issue #12; it was a
    frozen dataclass, with the same constructor, ``==`` and repr)."""

    __slots__ = ("auto_fail", "auto_success", "base", "blocked", "dice", "dice_label", "kind", "mods", "total",
                 "who")

    def __init__(self, kind: str, who: str, dice: tuple[int, ...], base: int, mods: tuple[Applied, ...] = (),
                 auto_fail: bool = False, auto_success: bool = False, blocked: str | None = None,
                 dice_label: str = "2D6") -> None:
        self.kind = kind
        self.who = who
        self.dice = dice
        self.base = base
        self.mods = mods
        self.auto_fail = auto_fail
        self.auto_success = auto_success
        self.blocked = blocked
        self.dice_label = dice_label
        #: 達成値: dice + value + modifiers
        self.total: int = sum(dice) + base + (sum([m.value for m in mods]) if mods else 0)

    def _fields(self) -> tuple[object, ...]:
        return (self.kind, self.who, self.dice, self.base, self.mods, self.auto_fail, self.auto_success,
                self.blocked, self.dice_label)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Check:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"Check(kind={self.kind!r}, who={self.who!r}, dice={self.dice!r}, base={self.base!r}, "
                f"mods={self.mods!r}, auto_fail={self.auto_fail!r}, auto_success={self.auto_success!r}, "
                f"blocked={self.blocked!r}, dice_label={self.dice_label!r})")

    def forced(self, success: bool) -> Check:
        """This check with its result forced (a GM override: 自動成功 or 自動失敗)."""
        return Check(self.kind, self.who, self.dice, self.base, self.mods, not success, success, self.blocked,
                     self.dice_label)

    @property
    def label(self) -> str:
        return KIND_LABELS.get(self.kind, self.kind)

    def text(self) -> str:
        """``2D6[3,4]+5 −2(水場 F-R16)=10`` (with 自動失敗/自動成功 or 不可 marked)."""
        if self.blocked is not None:
            return f"{self.label} 不可({self.blocked})→自動失敗"
        dice = ",".join(str(d) for d in self.dice)
        mods = "".join(m.text() for m in self.mods)
        tail = " 自動失敗" if self.auto_fail else " 自動成功" if self.auto_success else ""
        return f"{self.label} {self.dice_label}[{dice}]{self.base:+d}{mods}={self.total}{tail}"

    def succeeds_against(self, tn: int, opts: FantasyOptions) -> bool:
        """F-G05: success when 達成値 ≥ TN (or > TN if ``success_at_tn`` is off); F-G04 first."""
        if self.blocked is not None or self.auto_fail:
            return False
        if self.auto_success:
            return True
        return self.total >= tn if opts.success_at_tn else self.total > tn

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "who": self.who, "dice": list(self.dice), "base": self.base,
            "mods": [m.to_json() for m in self.mods] if self.mods else [], "total": self.total,
            "auto_fail": self.auto_fail, "auto_success": self.auto_success, "blocked": self.blocked,
        }


def roll_check(dice: DiceSource, opts: FantasyOptions, kind: str, who: str, base: int,
               mods: Iterable[Applied], purpose: str = "") -> Check:
    """Roll the base dice (F-H02: 2D6) for one check and mark 自動失敗/自動成功 (F-G04)."""
    n, sides = opts.dice_count, opts.die_sides
    if n == 2 and type(dice) is RandomSource:  # a seeded source ignores the purpose: the same two draws
        values: tuple[int, ...] = dice.pair(sides)
    else:
        values = tuple(dice.roll(sides, n, purpose or f"{who} {KIND_LABELS.get(kind, kind)}", roller=who))
    # every die 1 / every die its maximum (F-G04)
    fail = opts.auto_failure == "all_ones" and values.count(1) == len(values)
    success = opts.auto_success == "all_max" and values.count(sides) == len(values) and not fail
    return Check(kind, who, values, base, tuple(mods), fail, success, None, _dice_label(n, sides))


@lru_cache(maxsize=64)
def _dice_label(n: int, sides: int) -> str:
    """``2D`` (F-H02: "1D" is a d6), ``2D10`` for other dice."""
    return f"{n}D{sides}" if sides != 6 else f"{n}D"


def refused_check(kind: str, who: str, base: int, cond: ConditionDef) -> Check:
    """A check a condition forbids: not rolled, it fails (F-R10, F-R11)."""
    return Check(kind, who, (), base, (), False, False, f"{cond.name} {cond.rule}")


def thrown_falloff(distance_m: int, per_step: int, step_m: int = 5) -> int:
    """F-R17/F-G14: −``per_step`` damage per full ``step_m`` of distance (F-T17: 12 m 刺 → −2)."""
    return -(distance_m // step_m) * per_step


def damage_text(rolled: list[int], bonus: int, extra: list[Applied]) -> str:
    dice = ",".join(str(v) for v in rolled)
    mods = "".join(m.text() for m in extra)
    total = max(0, sum(rolled) + bonus + sum(m.value for m in extra))
    return f"{len(rolled)}D[{dice}]{bonus:+d}{mods}={total}"


@mypyc_attr(allow_interpreted_subclasses=True)  # copied via cls.__new__ (deepcopy, pickle): see setup.py
@dataclass(slots=True)
class Damage:
    rolled: list[int]
    bonus: int
    extra: list[Applied] = field(default_factory=list)

    @property
    def total(self) -> int:
        """F-G14: damage floored at 0."""
        return max(0, sum(self.rolled) + self.bonus + sum(m.value for m in self.extra))

    def text(self) -> str:
        return damage_text(self.rolled, self.bonus, self.extra)


# -- exact odds (for option hints and AI; icepool-free, the host dice are tiny) -----------------

@cache
def _split(n: int, sides: int, auto_fail: bool, auto_success: bool) -> tuple[float, float, dict[int, float]]:
    """(P(自動失敗), P(自動成功), distribution of the other sums) of ``n`` d``sides`` (F-G04)."""
    counts = dict(sum_counts(n, sides))
    total = sides**n
    p_fail = 1 / total if auto_fail else 0.0
    p_succ = 1 / total if auto_success and sides > 1 else 0.0
    if auto_fail:
        counts[n] -= 1
    if p_succ:
        counts[n * sides] -= 1
    return p_fail, p_succ, {s: c / total for s, c in counts.items() if c}


def _split_for(opts: FantasyOptions) -> tuple[float, float, dict[int, float]]:
    return _split(opts.dice_count, opts.die_sides, opts.auto_failure == "all_ones", opts.auto_success == "all_max")


def auto_fail_probability(opts: FantasyOptions) -> float:
    return _split_for(opts)[0]


def success_probability(base: int, tn: int, opts: FantasyOptions) -> float:
    """Exact P(dice + base succeeds against ``tn``) with F-G04 and F-G05."""
    return _success_probability(tn - base, opts.dice_count, opts.die_sides, opts.auto_failure == "all_ones",
                                opts.auto_success == "all_max", opts.success_at_tn)


@lru_cache(maxsize=1024)
def _success_probability(need: int, n: int, sides: int, auto_fail: bool, auto_success: bool, at_tn: bool) -> float:
    """:func:`success_probability` as a pure function of plain numbers (a few for a whole battle)."""
    _pf, ps, dist = _split(n, sides, auto_fail, auto_success)
    return ps + sum(p for s, p in dist.items() if (s >= need if at_tn else s > need))


def hit_probability(margin: int, opts: FantasyOptions) -> float:
    """Exact P(hit) of an attack against an evasion roll, ``margin`` = attack − evasion
    values after modifiers, following :func:`ikusa.systems.fantasy.actions.hit_roll`."""
    return _hit_probability(margin, opts.dice_count, opts.die_sides, opts.auto_failure == "all_ones",
                            opts.auto_success == "all_max", opts.evasion_tie)


@lru_cache(maxsize=4096)
def _hit_probability(margin: int, n: int, sides: int, auto_fail: bool, auto_success: bool, tie: str) -> float:
    """:func:`hit_probability` as a pure function of plain numbers (the same ones for a whole battle)."""
    pf, ps, dist = _split(n, sides, auto_fail, auto_success)
    out = ps * (1 - ps)  # attacker 自動成功 hits unless evasion 自動成功
    for a, pa in dist.items():
        ev_normal_hit = pf  # evasion 自動失敗 → hit
        for e, pe in dist.items():
            if (e < a + margin) if tie == "defender" else (e <= a + margin):
                ev_normal_hit += pe
        out += pa * ev_normal_hit
    return out
