"""Effects with durations in maai (issue #8 §3): the modifier keys, the clocks, and what the
flow reads from them.

Modifier keys (ids or the Japanese names):

* ``defense`` (防備): +N is a non-armour 防備 bonus (S-R46), −N a 防備 −N debuff state
  (S-R48: benefits every attacker, floor 2 by S-G42), e.g. 呪い虫寄生 "毎間合 防備 −1" as a
  permanent ``{defense: -1}`` (S-G43 default: constant, not cumulative);
* ``attack`` (命中): the unit's hit rolls (attacks and counters);
* ``defence_roll`` (防御): the unit's defence rolls (受け流し/回避, S-R53);
* ``check`` (判定): every 2d10 check above.

Clocks: ``maai`` (N 間合; ``n: 1`` ends with this 間合, ticking when the next 間合 begins,
S-R34), ``breath`` (until the unit's own next breath begins, S-R35), ``permanent``.

The option caches of the flow (breath, reaction, 防備 memo) are keyed on :attr:`Unit.sig`,
which changes whenever an effect on the unit does (GUIDE: caches assume fixed modifiers).
"""

from __future__ import annotations

from typing import Any, ClassVar

from ikusa.engine.effects import ActiveEffect, EffectBook, EffectSpec
from ikusa.systems.maai.check import OUTCOME_RANK, Check, Outcome
from ikusa.systems.maai.conditions import PER_MAAI_NAMES, builtin

#: accepted modifier key → canonical key
MODIFIER_KEYS: dict[str, str] = {
    "defense": "defense", "defence": "defense", "防備": "defense",
    "attack": "attack", "命中": "attack",
    "defence_roll": "defence_roll", "defense_roll": "defence_roll", "防御": "defence_roll",
    "check": "check", "判定": "check",
}
CLOCKS = ("maai", "breath", "permanent")

def fear_conditions(unit_ids: list[str]) -> dict[str, str]:
    """Effect conditions maai knows: 恐怖>ID / fear>ID (S-G18: no attacks against ID) and 毎間合
    (S-G43: a 防備 −N growing each 間合 with ``debuff.per_round_cumulative``; maai/conditions.py)."""
    return {**{f"{w}>{u}": f"fear>{u}" for u in unit_ids for w in ("恐怖", "fear")}, **PER_MAAI_NAMES}


def without_feared(fx: MaaiFx, uid: str, options: list[Any]) -> list[Any]:
    """S-G18: the breath options of a frightened unit lose its attacks on what it fears."""
    feared = fx.feared(uid)
    if not feared:
        return options
    return [o for o in options if not (o.key.startswith("use:") and o.key.partition(">")[2].partition("+")[0]
                                       in feared)]
#: which effect keys each kind of roll reads
ROLL_KEYS: dict[str, tuple[str, ...]] = {
    "attack": ("attack", "check"),
    "defence": ("defence_roll", "check"),
}

#: the check outcomes an ``override`` ruling may force (S-R08…S-R11)
OUTCOMES: dict[str, Outcome] = {o.value: o for o in Outcome} | {
    "success": Outcome.SUCCESS, "failure": Outcome.FAILURE, "critical": Outcome.CRITICAL,
    "fumble": Outcome.FUMBLE, "tenmei": Outcome.TENMEI, "gouhou": Outcome.GOUHOU,
}


class ForcedCheck(Check):
    """A rolled check whose outcome the GM has overruled (issue #8 §2 ``override``): the dice
    stay as rolled (and recorded); the outcome is the forced one; no fate is offered on it."""

    __slots__ = ("forced",)
    _fields: ClassVar[tuple[str, ...]] = (*Check._fields, "forced")

    def __init__(self, dice: tuple[int, int], modifier: int, target: int,
                 crit_extension: bool = False, fated: tuple[tuple[int, int], ...] = (),
                 forced: Outcome = Outcome.SUCCESS) -> None:
        super().__init__(dice, modifier, target, crit_extension, fated)
        # the rolled total stays; the outcome (and so success) is the forced one
        self.success = forced.succeeded
        self.outcome = forced
        self.rank = OUTCOME_RANK[forced]
        self.forced = forced

    def args(self) -> tuple[Any, ...]:
        return (*super().args(), self.forced)


class MaaiFx:
    """The GM's lasting and one-off changes to one maai state.  A plain class (not a dataclass:
    a compiled dataclass's ``__init__`` is Python-level code, and one is made per battle)."""

    __slots__ = ("book", "extra_resolved", "fear_aura", "fear_faced", "fear_seen_units", "homebrew", "next_mod",
                 "noncorporeal", "noncorporeal_units", "override")

    def __init__(self, homebrew: dict[str, EffectSpec] | None = None) -> None:
        self.book = EffectBook()
        #: homebrew effects by name (the encounter's ``homebrew: effects:``)
        self.homebrew: dict[str, EffectSpec] = {} if homebrew is None else homebrew
        #: unit id → one-off modifiers on its next check, as (value, reason)
        self.next_mod: dict[str, list[tuple[int, str]]] = {}
        #: unit id ("" = whoever rolls next) → forced outcome of the next check or d100 table
        self.override: dict[str, tuple[str, str]] = {}
        #: units added by a ruling: id → resolved catalog data (the encounter has only its own)
        self.extra_resolved: dict[str, Any] = {}
        #: S-G18 fear from data (maai/fear.py): the fear_aura units (None = not looked up yet),
        #: the unit ids they were looked up for, and the (unit, source, 間合) aura checks rolled
        self.fear_aura: tuple[str, ...] | None = None
        self.fear_seen_units: tuple[str, ...] = ()
        self.fear_faced: set[tuple[str, str, int]] = set()
        #: S-G05 非実体 units (maai/noncorporeal.py; None = not looked up yet) and the unit count then
        self.noncorporeal: frozenset[str] | None = None
        self.noncorporeal_units = 0

    def parts(self, uid: str, keys: tuple[str, ...]) -> list[tuple[int, str]]:
        out: list[tuple[int, str]] = []
        for k in keys:
            out.extend(self.book.modifier(uid, k)[1])
        return out

    def total(self, uid: str, keys: tuple[str, ...]) -> int:
        return sum(v for v, _ in self.parts(uid, keys))

    def sig(self, uid: str, origin: str) -> tuple[object, ...]:
        """What the unit's cached option lists must be keyed on: its effects' modifiers and
        conditions."""
        on = self.book.on(uid)
        mods = tuple(sorted((k, v, e.spec.name) for e in on for k, v in e.spec.modifiers.items()))
        conds = tuple(sorted(e.spec.condition for e in on if e.spec.condition))
        return (origin, *mods, *conds) if origin or mods or conds else ()

    def feared(self, uid: str) -> set[str]:
        """The units ``uid`` fears (S-G18): it may not attack them while the effect lasts."""
        return {c.split(">", 1)[1] for c in self.book.conditions(uid) if c.startswith("fear>")}

    def take_override(self, uid: str) -> tuple[str, str] | None:
        return self.override.pop(uid, None) or self.override.pop("", None)


def expired_text(e: ActiveEffect, unit_name: str) -> str:
    return f"{unit_name} の効果「{e.spec.name}」が終了 ({e.spec.duration.label()})"


def gm_check(st: Any, unit: Any, dice: tuple[int, int], modifier: int, target: int, purpose: str,
             crit_extension: bool) -> tuple[int, Check | None]:
    """The GM's part of one 2d10 check (flow_base.check): the unit's one-off modifiers are
    added (and used up), and an ``override`` naming a check outcome forces it.  Returns the
    new modifier and the forced check (``None``: roll on as usual)."""
    fx: MaaiFx = st.fx
    from ikusa.systems.gm_support import ruling_event

    one_off = fx.next_mod.pop(unit.id, None)
    if one_off:
        add = sum(v for v, _ in one_off)
        modifier += add
        why = "・".join(r for _, r in one_off if r)
        st.ev.append(ruling_event(f"{unit.name} {purpose}: GM修正{add:+d} 適用", why, "modifier",
                                  unit=unit.id, value=add))
    ov = fx.override.get(unit.id) or fx.override.get("")
    if ov is not None and ov[0] in OUTCOMES:
        fx.take_override(unit.id)
        forced = ForcedCheck(dice, modifier, target, crit_extension, forced=OUTCOMES[ov[0]])
        st.ev.append(ruling_event(f"{unit.name} {purpose}: 2D10[{dice[0]},{dice[1]}] の結果を"
                                  f"「{forced.forced.value}」に変更", ov[1], "override", unit=unit.id,
                                  outcome=forced.forced.value, dice=list(dice)))
        return modifier, forced
    return modifier, None


def table_override(st: Any, unit: Any, roll: int, table: str) -> int:
    """An ``override`` naming a number replaces the next d100 table roll (S-R11/S-G07)."""
    fx: MaaiFx = st.fx
    ov = fx.override.get(unit.id) or fx.override.get("")
    if ov is None or not ov[0].isdigit():
        return roll
    fx.take_override(unit.id)
    from ikusa.systems.gm_support import ruling_event

    st.ev.append(ruling_event(f"{unit.name} {table} d100={roll} → {int(ov[0])}", ov[1], "override",
                              unit=unit.id, roll=roll, outcome=int(ov[0])))
    return int(ov[0])


def defence_effects(fx: MaaiFx, target: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The target's ``defense`` effects for compute_defence: +N as non-armour bonuses (S-R46),
    −N as 防備 −N debuffs (S-R48; the floor 2 is S-G42's)."""
    if not target.sig:
        return (), ()
    from ikusa.systems.maai.defence import DefenceBonus

    parts = fx.book.modifier(target.id, "defense")[1]
    bonuses = tuple(DefenceBonus(n, v, "other") for v, n in parts if v > 0)
    debuffs = tuple(DefenceBonus(n, -v, "other") for v, n in parts if v < 0)
    return bonuses, debuffs


def effect_notes(fx: MaaiFx, attacker: Any, target: Any) -> list[str]:
    """The attack line's breakdown of effects: ``命中+1(祝福)``, ``防備−1(呪い虫 S-R48)``,
    ``GM修正+2``."""
    out = [f"命中{v:+d}({n})" for v, n in fx.parts(attacker.id, ROLL_KEYS["attack"])]
    out.extend(f"防備{v:+d}({n}{' S-R48' if v < 0 else ''})" for v, n in fx.book.modifier(target.id, "defense")[1])
    one_off = fx.next_mod.get(attacker.id)
    if one_off:
        out.append(f"GM修正{sum(v for v, _ in one_off):+d}")
    return out


def refresh_sig(st: Any, uid: str) -> None:
    """Re-key a unit's cached option lists after its effects changed (GUIDE's cache trap)."""
    u = st.by_id.get(uid)
    if u is not None:
        u.sig = st.fx.sig(uid, u.origin)
        u.urev += 1  # breath_flow's attack lists redo it


def tick_effects(st: Any, clock: str, uid: str | None) -> None:
    """One tick of ``clock`` (``maai`` as a 間合 ends, ``breath`` as ``uid``'s breath begins):
    expired effects go, each with an ``effect_end`` event."""
    expired = st.fx.book.tick(clock, uid)
    for e in expired:
        u = st.by_id.get(e.target)
        refresh_sig(st, e.target)
        st.emit("effect_end", "GM", expired_text(e, u.name if u is not None else e.target),
                unit=e.target, effect=e.spec.name)


def encounter_effects(homebrew: Any, start: list[dict[str, Any]], unit_ids: list[str],
                      source: str, opts: Any = None) -> tuple[dict[str, EffectSpec], list[tuple[str, EffectSpec]]]:
    """An encounter's ``homebrew: effects:`` and ``effects:`` (each ``{unit, effect}`` or
    ``{unit, name}``), validated with maai's keys, over S-G19's named conditions with the
    numbers of ``opts`` (maai/conditions.py); errors name the file and the field."""
    from ikusa.engine.errors import InputError
    from ikusa.systems.gm_support import homebrew_effects, start_effects
    from ikusa.systems.maai.options import or_default

    try:
        book = {**builtin(or_default(opts)), **homebrew_effects(homebrew, MODIFIER_KEYS, CLOCKS,
                                                                fear_conditions(unit_ids))}
        return book, start_effects(start, book, unit_ids, MODIFIER_KEYS, CLOCKS, fear_conditions(unit_ids))
    except InputError as exc:
        raise InputError(exc.message, source=source, field=exc.field) from None
