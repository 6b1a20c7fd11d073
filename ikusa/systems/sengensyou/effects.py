"""Effects with durations in 千幻抄 (issue #8 §3): modifier keys, the turn clock, and the GM's
one-off modifiers and overruled 達成値 on a dice-pool check (G-R01).

Modifier keys (ids or Japanese names) and the checks they touch (``st.check``'s purposes):

* ``hit`` (命中): ショット, 近接命中, スペル and その他 checks; ``evasion`` (回避): 回避;
  ``guard`` (ガード); ``resist`` (抵抗); ``move`` (移動): 移動, 接近判定, 逃走, 追跡;
  ``check`` (判定): every check above;
* ``dp_recovery`` (DP回復): added to the DP回復数 at each turn start (G-G03/G-R06; the
  result is never below 0).

An effect may hold a status condition (sengensyou/status.py, data/conditions.yaml):
``no_dp_recovery`` (DP回復停止), ``immobile`` (移動不能), ``confined`` (閉じ込め) and
``blinded`` (視界遮断) stop the holder's DP recovery while they last (G-G03), the last three
allow a recovery check when an ally fires a 弾幕 (G-G08), the first two forbid 移動/逃走;
``free_check`` (DP不要判定) makes the holder's next check cost no DP (G-R02).  Clocks: ``turn``
(N turns, counted down as each turn ends) and ``permanent``.  Modifiers show in the check's
line as ``9+1(祝福)+3D6[4,2,6]=22``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from mypy_extensions import mypyc_attr

from ikusa.engine.effects import EffectBook, EffectSpec
from ikusa.systems.gm_support import ruling_event
from ikusa.systems.sengensyou.checks_flow import PoolRoll

MODIFIER_KEYS: dict[str, str] = {
    "hit": "hit", "命中": "hit", "attack": "hit",
    "evasion": "evasion", "回避": "evasion",
    "guard": "guard", "ガード": "guard",
    "resist": "resist", "抵抗": "resist",
    "move": "move", "移動": "move",
    "check": "check", "判定": "check",
    "dp_recovery": "dp_recovery", "DP回復": "dp_recovery", "DP回復数": "dp_recovery",
}
CLOCKS = ("turn", "permanent")


def conditions() -> dict[str, str]:
    """Every accepted condition name → its id (sengensyou/status.py, data/conditions.yaml)."""
    from ikusa.systems.sengensyou.status import condition_aliases

    return condition_aliases()


#: the purpose word of st.check → the effect key it reads (anything else is a 命中 check)
PURPOSE_KEYS: dict[str, str] = {"回避": "evasion", "ガード": "guard", "抵抗": "resist", "移動": "move",
                                "接近判定": "move", "逃走": "move", "追跡": "move"}
#: take_action's hooks: the GM ends the acting character's turn / its options are rebuilt
GM_END = "gm:end_turn"
GM_REFRESH = "gm:refresh"


@mypyc_attr(allow_interpreted_subclasses=True)  # copied via cls.__new__ (deepcopy, pickle): see setup.py
@dataclass(slots=True)
class SengensyouFx:
    """The GM's lasting and one-off changes to one 千幻抄 state."""

    book: EffectBook = field(default_factory=EffectBook)
    homebrew: dict[str, EffectSpec] = field(default_factory=dict)
    next_mod: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    #: fighter id ("" = whoever rolls next) → (the 達成値 to use, reason)
    override: dict[str, tuple[int, str]] = field(default_factory=dict)
    #: fighters whose next action is skipped (skip_turn)
    skip: set[str] = field(default_factory=set)

    def copy(self) -> SengensyouFx:
        """An independent copy (effect specs shared: they are never changed)."""
        book = EffectBook([replace(e) for e in self.book.active], self.book._next)
        return SengensyouFx(book, dict(self.homebrew), {k: list(v) for k, v in self.next_mod.items()},
                            dict(self.override), set(self.skip))

    @property
    def busy(self) -> bool:
        return bool(self.book.active or self.next_mod or self.override)

    def parts(self, fid: str, key: str) -> list[tuple[int, str]]:
        out = list(self.book.modifier(fid, key)[1])
        if key != "dp_recovery":
            out.extend(self.book.modifier(fid, "check")[1])
        return out


def kind_of(purpose: str, name: str) -> str:
    word = purpose[len(name) + 1:] if purpose.startswith(name + " ") else purpose
    return PURPOSE_KEYS.get(word, "hit")


def gm_pool(st: Any, f: Any, base: int, n: int, purpose: str) -> PoolRoll:
    """``st.check`` with the GM's parts: effects and one-off modifiers on 判定値 (shown in the
    line), and an overruled 達成値 (the dice are still rolled and recorded)."""
    from ikusa.systems.sengensyou.checks_flow import pool
    from ikusa.systems.sengensyou.status import refund_free_check

    fx: SengensyouFx = st.fx
    refund_free_check(st, f, n, purpose)  # G-R02: the GM let this check be made without DP
    mods = fx.parts(f.id, kind_of(purpose, f.name))
    one_off = fx.next_mod.pop(f.id, None)
    if one_off:
        mods.extend((v, "GM修正") for v, _ in one_off)
    add = sum(v for v, _ in mods)
    roll = pool(base + add, n, st.dice, purpose, fixed=st.uses_fixed_dice(f), rounding=st.opt.fixed_roll_rounding)
    if mods:
        roll = roll._replace(mods=tuple(mods))
    ov = fx.override.pop(f.id, None) or fx.override.pop("", None)
    if ov is not None:
        st.emit("ruling", "GM", ruling_event(f"{f.name} {purpose}: 達成値 {roll.total}→{ov[0]}", ov[1],
                                             "override").text, op="override", who=f.id, total=ov[0],
                was=roll.total, reason=ov[1])
        roll = roll._replace(total=ov[0])
    return roll


def recovery_parts(st: Any, f: Any) -> tuple[int, str, bool]:
    """The DP回復 effects of ``f``: (added amount, breakdown text, stopped by a condition)."""
    fx: SengensyouFx = st.fx
    from ikusa.systems.sengensyou.status import stops_recovery

    why = stops_recovery(st, f.id)
    parts = fx.book.modifier(f.id, "dp_recovery")[1]
    text = "".join(f" {v:+d}({n})" for v, n in parts)
    if why is not None and why.id != "no_dp_recovery":
        text += f" [{why.name}: {why.rule}]"
    return sum(v for v, _ in parts), text, why is not None


def tick_turn(st: Any) -> None:
    """End of a turn: N-turn effects count down; expired ones end with an event."""
    for e in st.fx.book.tick("turn"):
        g = st.fighters.get(e.target)
        st.emit("effect_end", "GM", f"{g.name if g is not None else e.target} の効果「{e.spec.name}」が終了 "
                f"({e.spec.duration.label()})", who=e.target, effect=e.spec.name)


def encounter_effects(homebrew: Any, start: list[dict[str, Any]], ids: list[str],
                      source: str) -> tuple[dict[str, EffectSpec], list[tuple[str, EffectSpec]]]:
    from ikusa.engine.errors import InputError
    from ikusa.systems.gm_support import homebrew_effects, start_effects

    try:
        book = homebrew_effects(homebrew, MODIFIER_KEYS, CLOCKS, conditions())
        return book, start_effects(start, book, ids, MODIFIER_KEYS, CLOCKS, conditions())
    except InputError as exc:
        raise InputError(exc.message, source=source, field=exc.field) from None
