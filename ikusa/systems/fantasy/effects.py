"""Effects with durations in fantasy (issue #8 §3): modifier keys, the round clock, and the
GM's one-off modifiers and overruled results on a check.

Modifier keys (ids or Japanese names) and the check tags they touch (resolution.KIND_LABELS):

* ``check`` (判定): every check; ``attack`` (命中): ``attack.*``; ``evasion`` (回避): ``evade.*``;
* ``st`` (抵抗): every ST; ``fort`` (頑健), ``will`` (精神), ``intuition`` (直感): one ST;
* ``magic`` (魔法): 魔法強度; ``skill`` (技能): 隠密行動/潜伏/危険感知; ``initiative`` (イニシアティブ).

An effect may also hold a ``condition`` (麻痺, 伏せ … by id or name; data/conditions.yaml),
which then applies exactly as the condition does while the effect lasts.  Clocks: ``round``
(N rounds, counted down at the end of each round like the conditions' durations, F-H12)
and ``permanent``.  Modifiers show in a check's breakdown as ``+1(祝福 GM)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mypy_extensions import mypyc_attr

from ikusa.engine.effects import EffectBook, EffectSpec
from ikusa.systems.fantasy.resolution import Applied, Check, expand
from ikusa.systems.gm_support import ruling_event

#: accepted key → canonical key
MODIFIER_KEYS: dict[str, str] = {
    "check": "check", "判定": "check",
    "attack": "attack", "命中": "attack",
    "evasion": "evasion", "回避": "evasion",
    "st": "st", "抵抗": "st",
    "fort": "fort", "頑健": "fort",
    "will": "will", "精神": "will",
    "intuition": "intuition", "直感": "intuition",
    "magic": "magic", "魔法": "magic", "魔法強度": "magic",
    "skill": "skill", "技能": "skill",
    "initiative": "initiative", "イニシアティブ": "initiative",
}
#: canonical key → the check-tag prefix it applies to ("" = every check)
KEY_TAGS: dict[str, str] = {
    "check": "", "attack": "attack", "evasion": "evade", "st": "st", "fort": "st.fort", "will": "st.will",
    "intuition": "st.intuition", "magic": "magic", "skill": "skill", "initiative": "initiative",
}
CLOCKS = ("round", "permanent")
#: outcomes an ``override`` may force on the next check
OUTCOMES: dict[str, str] = {"成功": "success", "自動成功": "success", "success": "success",
                            "失敗": "failure", "自動失敗": "failure", "failure": "failure"}


@mypyc_attr(allow_interpreted_subclasses=True)  # copied via cls.__new__ (deepcopy, pickle): see setup.py
@dataclass(slots=True)
class FantasyFx:
    """The GM's lasting and one-off changes to one fantasy state."""

    book: EffectBook = field(default_factory=EffectBook)
    homebrew: dict[str, EffectSpec] = field(default_factory=dict)
    #: fighter id → one-off modifiers on its next check: (value, reason)
    next_mod: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    #: fighter id ("" = whoever rolls next) → (success|failure, reason)
    override: dict[str, tuple[str, str]] = field(default_factory=dict)

    def mods(self, fid: str, tags: tuple[str, ...]) -> list[Applied]:
        """The effects' and one-off modifiers of a check with ``tags``, as breakdown parts."""
        out: list[Applied] = []
        if self.book.active:
            have = expand(tags)
            for e in self.book.on(fid):
                for k, v in e.spec.modifiers.items():
                    t = KEY_TAGS[k]
                    if not t or t in have:
                        out.append(Applied(v, e.spec.name, "GM"))
        for v, reason in self.next_mod.get(fid, ()):
            out.append(Applied(v, "GM修正", "GM", reason))
        return out

    def conditions(self, fid: str) -> list[str]:
        return [e.spec.condition for e in self.book.on(fid) if e.spec.condition]


def gm_roll(st: Any, f: Any, c: Check) -> Check:
    """After one check of ``f`` is rolled: its one-off modifiers are used up, and an
    ``override`` forces 自動成功/自動失敗 (with a ruling event naming the GM's reason)."""
    fx: FantasyFx = st.fx
    if not fx.next_mod and not fx.override:  # nothing one-off pending (every check of a plain battle)
        return c
    fx.next_mod.pop(f.id, None)
    ov = fx.override.pop(f.id, None) or fx.override.pop("", None)
    if ov is None or c.blocked is not None:
        if ov is not None:  # a forbidden check is not rolled: the override waits for a real one
            fx.override[f.id] = ov
        return c
    ok = ov[0] == "success"
    st.gm_events.append(ruling_event(f"{f.name} {c.label} {c.text()} → {'成功' if ok else '失敗'}に変更", ov[1],
                                     "override", unit=f.id, outcome=ov[0]))
    return c.forced(ok)


def tick_round(st: Any) -> list[Any]:
    """End of a round (F-H12): N-round effects count down; the expired ones end with an event."""
    from ikusa.engine.events import Event

    out = []
    for e in st.fx.book.tick("round"):
        f = st.fighters.get(e.target)
        name = f.name if f is not None else e.target
        out.append(Event("effect_end", "F-H12,GM", f"{name} の効果「{e.spec.name}」が終了 (期間終了)",
                         {"id": e.target, "effect": e.spec.name}))
    return out


def condition_names(table: Any) -> dict[str, str]:
    """Every id, Japanese name and alias of the condition table → its id."""
    return {n: d.id for d in table.values() for n in d.names()}


def encounter_effects(enc: Any, source: str) -> tuple[dict[str, EffectSpec], list[tuple[str, EffectSpec]]]:
    """``homebrew: effects:`` and ``effects:`` validated with fantasy's keys and conditions."""
    from ikusa.engine.errors import InputError
    from ikusa.systems.gm_support import homebrew_effects, start_effects

    conds = condition_names(enc.condition_table())
    try:
        book = homebrew_effects(enc.homebrew.effects, MODIFIER_KEYS, CLOCKS, conds)
        return book, start_effects(list(enc.effects), book, [c.id for c in enc.characters], MODIFIER_KEYS,
                                   CLOCKS, conds)
    except InputError as exc:
        raise InputError(exc.message, source=source, field=exc.field) from None
