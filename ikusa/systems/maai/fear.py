"""Fear from data (S-G18, 000:L72 "勇は…恐怖抵抗の軸"): the check ``2d10 + 勇 ≥ fear.tn`` fired by
what the catalog marks as a fear source, not only by a GM ruling (maai/rulings.py).

Two marks, both catalog ``effects:`` keys (docs/maai-catalog.md):

* a feat whose effects name ``fear_aura`` (the shipped [素養] 鬼気 ``kiki``) makes its holder a
  fear source: as each enemy's **first breath of a 間合** begins (``fear.aura_trigger``:
  ``each_maai``, or ``first_maai`` = only in the first 間合 it faces the source), the enemy rolls
  against every able aura source of another side;
* a maneuver whose effects name ``fear`` (the shipped 鬼の咆哮 ``oni.houkou``): its target rolls
  after a hit that leaves it able (at once, inside the attack: no fate question there).

A failure is S-G18's default *(invented)*: an effect ``恐怖(SOURCE)`` on the breath clock holding
the condition ``fear>SOURCE`` — the unit may not declare attack maneuvers against the source
(refused naming S-G18) for ``fear.failure_breaths`` of its own breaths (a check rolled as a
breath begins counts that breath as the first), plus ``fear.defense_penalty`` 防備 −N
(001:L131 names 恐怖 among the 防備 −N states; default 0 = none).  The texts give no trigger:
both marks and their timing are the project's *(invented)* reading, all behind options.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ikusa.engine.effects import Duration, EffectSpec
from ikusa.systems.maai.check import Check
from ikusa.systems.maai.effects import gm_check, refresh_sig

#: catalog effect keys
AURA = "fear_aura"
MANEUVER = "fear"


def fear_spec(src: Any, opts: Any, breaths: int) -> EffectSpec:
    """S-G18's failure effect against ``src`` lasting ``breaths`` breath-clock ticks."""
    mods = {"defense": -opts.fear.defense_penalty} if opts.fear.defense_penalty else {}
    return EffectSpec(name=f"恐怖({src.name})", condition=f"fear>{src.id}", modifiers=mods,
                      duration=Duration(clock="breath", n=breaths),
                      note="S-G18: no attack maneuvers against the source")


def aura_sources(st: Any) -> tuple[str, ...]:
    """Ids of the units holding a ``fear_aura`` feat (cached per state: the units are fixed
    except for GM-added ones, whose feats are read too; the encounter's own units' answer is
    kept per encounter, EncounterCaches)."""
    cached: tuple[str, ...] | None = st.fx.fear_aura
    if cached is not None and len(st.fx.fear_seen_units) == len(st.units):
        return cached
    base = len(st.units) == len(st.caches.units)  # no GM-added unit: the encounter's own answer
    found = st.caches.fear_aura if base else None
    if found is None:
        cat = st.enc.catalog
        out = []
        for u in st.units:
            feats = st.resolved_of(u.id).feats
            if any(AURA in cat.feats[f].effects for f in feats if f in cat.feats):
                out.append(u.id)
        found = tuple(out)
        if base:
            st.caches.fear_aura = found
    st.fx.fear_aura = found
    st.fx.fear_seen_units = tuple(u.id for u in st.units)
    return found


def fear_check(st: Any, u: Any, src: Any, breaths: int, then: Callable[[], None], fate: bool = True) -> None:
    """Roll ``u``'s S-G18 check against ``src`` (``fate``: its fate may be spent, S-R14; a
    check rolled inside an attack is rolled at once, without the question); on a failure the
    fear effect goes on ``u``; then ``then()``."""
    tn = st.opts.fear.tn

    def rolled(c: Any) -> None:
        ok = c.success
        st.emit("fear", "S-G18", f"{u.name} 恐怖抵抗 {src.name}: 2D10[{c.dice[0]},{c.dice[1]}]"
                f"{c.applied_modifier:+d}={c.total} {'≥' if ok else '<'} {tn} → "
                f"{'成功' if ok else '失敗: 攻撃不可 (' + str(st.opts.fear.failure_breaths) + '呼吸)'}",
                unit=u.id, source=src.id, total=c.total, success=ok)
        if not ok:
            st.fx.book.add(u.id, fear_spec(src, st.opts, breaths), "S-G18")
            refresh_sig(st, u.id)
        then()

    if fate:
        st.check(u, u.ab["yu"], tn, f"恐怖抵抗 ({src.name})", rolled, relevance="success")
        return
    d = st.roll2(f"{u.name} 恐怖抵抗 ({src.name})", u.id)
    mod, forced = gm_check(st, u, d, u.ab["yu"], tn, f"恐怖抵抗 ({src.name})", False) if (
        st.fx.next_mod or st.fx.override) else (u.ab["yu"], None)
    rolled(forced if forced is not None else Check(d, mod, tn, False))


def at_breath_start(st: Any, u: Any) -> None:
    """The aura checks of ``u``'s breath (called as the breath begins, after the breath-clock
    effects ticked): its first breath of the 間合 rolls once against each able enemy aura source
    it has not yet faced (``first_maai``) or not yet faced this 間合 (``each_maai``)."""
    sources = aura_sources(st)
    if not sources or not u.able:
        return
    per = st.maai if st.opts.fear.aura_trigger == "each_maai" else 0
    todo = []
    for sid in sources:
        s = st.by_id[sid]
        key = (u.id, sid, per)
        if s.side == u.side or not s.able or key in st.fx.fear_faced:
            continue
        if st.opts.fear.aura_trigger == "first_maai" and any(k[:2] == (u.id, sid) for k in st.fx.fear_faced):
            continue
        st.fx.fear_faced.add(key)
        todo.append(s)
    if todo and st.dice is None:
        # the battle's very first breath begins as the state is built, before any dice: the
        # check waits for a one-option decision (answered with the dice of the roll)
        from ikusa.engine.protocol import Option

        names = "・".join(s.name for s in todo)
        st.ask(u.id, "fear", f"恐怖抵抗 (S-G18): {u.name} が {names} の鬼気に抗う",
               [Option("fear:roll", f"恐怖抵抗を振る (2D10+勇 ≥ {st.opts.fear.tn})", data={"kind": "fear"})],
               lambda _key: _chain(st, u, todo, st.opts.fear.failure_breaths))
        return
    _chain(st, u, todo, st.opts.fear.failure_breaths)


def after_hit(st: Any, target: Any, attacker: Any, move: Any) -> None:
    """A hit by a ``fear`` maneuver that left ``target`` able: the target rolls (its failure
    covers its next ``fear.failure_breaths`` breaths)."""
    src = getattr(move, "src", None)
    if src is None or MANEUVER not in src.effects or not target.able or target.side == attacker.side:
        return
    fear_check(st, target, attacker, st.opts.fear.failure_breaths + 1, _nothing, fate=False)


def _nothing() -> None:
    return None


def _chain(st: Any, u: Any, sources: list[Any], breaths: int) -> None:
    if not sources:
        return
    first, rest = sources[0], sources[1:]
    fear_check(st, u, first, breaths, lambda: _chain(st, u, rest, breaths))
