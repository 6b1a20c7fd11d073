"""非実体 units (S-G05, 001:L157-161, L173; issue #13).

The 退魔免除表 says 退魔 入門 is the condition "to fight spirits normally" (非実体免除): without it a
physical attack cannot harm a 非実体 target; [霊体] attacks (霊符・霊剣・陰陽師呪術 …, 001:L173)
reach it whatever the attacker's 退魔.  A unit is 非実体 when it holds a feat whose effects name
``noncorporeal`` (the shipped [素養] 非実体 ``hijittai``, for 幽霊・怨霊).

``spirit.noncorporeal_without_novice`` (S-G05):

* ``auto_miss`` (default): such an attack is not offered and is refused naming S-G05 (it could
  only waste 活力);
* ``defense_bonus:+4``: it is allowed against 防備 +4.

Attackers with 退魔 入門 or better, and [霊体] maneuvers, attack normally.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ikusa.engine.errors import RuleViolation

if TYPE_CHECKING:
    from ikusa.systems.maai.flow_base import FlowBase

EFFECT = "noncorporeal"
BONUS = 4


def ids(st: Any) -> frozenset[str]:
    """The 非実体 units of the battle (looked up once per unit list; for the encounter's own units
    once per encounter, EncounterCaches)."""
    fx = st.fx
    cached: frozenset[str] | None = fx.noncorporeal
    if cached is not None and fx.noncorporeal_units == len(st.units):
        return cached
    base = len(st.units) == len(st.caches.units)  # no GM-added unit: the encounter's own answer
    found = st.caches.noncorporeal if base else None
    if found is None:
        cat = st.enc.catalog
        found = frozenset(u.id for u in st.units
                          if any(EFFECT in cat.feats[f].effects for f in st.resolved_of(u.id).feats if f in cat.feats))
        if base:
            st.caches.noncorporeal = found
    fx.noncorporeal = found
    fx.noncorporeal_units = len(st.units)
    return found


def any_in(st: FlowBase) -> bool:
    """Whether the battle has a 非実体 unit (cheap after the first call; ``st`` typed: its
    attributes read natively, compiled)."""
    nc = st.fx.noncorporeal
    return bool(ids(st)) if nc is None or st.fx.noncorporeal_units != len(st.units) else bool(nc)


def blocked(st: Any, attacker: Any, move: Any, target: Any) -> bool:
    """Whether ``move`` of ``attacker`` is a physical attack on a 非実体 ``target`` by an attacker
    without 退魔 入門 (S-G05)."""
    if target.id not in ids(st) or move.kind != "attack":
        return False
    if any(t.kind == "spirit" for t in move.tags):
        return False
    return st.resolved_of(attacker.id).numbers.get("taima") is None


def defence_bonus(st: Any, attacker: Any, move: Any, target: Any) -> int:
    """``defense_bonus:+4``: the 防備 added against such an attack."""
    if st.opts.spirit.noncorporeal_without_novice == "auto_miss" or not blocked(st, attacker, move, target):
        return 0
    return BONUS


def without_blocked(st: Any, u: Any, options: list[Any]) -> list[Any]:
    """``auto_miss``: the breath options of ``u`` lose its physical attacks on 非実体 units."""
    if st.opts.spirit.noncorporeal_without_novice != "auto_miss":
        return options
    nc = ids(st)
    out = []
    for o in options:
        key = o.key
        if key.startswith("use:") and ">" in key:
            mid, _, tid = key[4:].partition(">")
            tid = tid.partition("+")[0]
            if tid in nc:
                m = u.move_by_id.get(mid)
                if m is not None and blocked(st, u, m, st.by_id[tid]):
                    continue
        out.append(o)
    return out


def refusal(st: Any, u: Any, action: str) -> RuleViolation | None:
    """The refusal of a physical attack on a 非実体 unit (``auto_miss``)."""
    if not action.startswith("use:") or ">" not in action or st.opts.spirit.noncorporeal_without_novice != "auto_miss":
        return None
    mid, _, tid = action[4:].partition(">")
    t = st.by_id.get(tid.partition("+")[0])
    m = u.move_by_id.get(mid)
    if t is None or m is None or not blocked(st, u, m, t):
        return None
    return RuleViolation("S-G05", "001 退魔免除表", f"{t.name} is 非実体: a physical attack ({m.name}) cannot harm it "
                         "without 退魔 入門; use a [霊体] maneuver")
