"""Status conditions of 千幻抄 on the effect mechanism (G-G03, G-G08, G-R02).

003 names no status conditions; its CN wiki default (ANALYSIS G-G03) says DP does not
recover while a character cannot move, is confined in a narrow space, or has its vision
blocked at very close range, and the 弾幕 reference line (003:L317) says a 弾幕 lets allies
roll to recover from their status conditions (G-G08).  The conditions are data
(``data/conditions.yaml``): each is held by an effect (a GM ``condition`` ruling, a homebrew
effect or an encounter ``effects:`` entry with ``condition:``) until removed or recovered.

* ``stops_dp_recovery`` (G-G03): no DP回復 at turn start while held (turn.recover);
* ``blocks_move`` (G-R08/G-R09): no 移動 and no 逃走 declaration while held;
* ``recovery`` (G-G08): when an ally fires a 弾幕, the holder makes that check at once: no DP
  is spent (G-R02: the GM's special case), 判定値 = stat + skill (+ 抵抗 effects) +
  ``options.resist_max_dice`` dice against the condition's TN (invented TNs, in the data);
  success removes every effect holding that condition;
* ``free_check`` (G-R02): the GM lets the holder's next check be made without DP: the dice
  chosen are rolled, the DP are not spent (refunded at the check), then the condition ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ikusa.engine.encounter import validation_error


class Recovery(BaseModel):
    """G-G08: the recovery check an ally's 弾幕 allows (no DP spent)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    stat: str
    skill: str
    tn: int = Field(ge=0, le=200)


class StatusDef(BaseModel):
    """One status condition (data/conditions.yaml)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = ""
    name: str
    aliases: tuple[str, ...] = ()
    rule: str
    stops_dp_recovery: bool = False
    blocks_move: bool = False
    recovery: Recovery | None = None


FREE_CHECK = "free_check"


@cache
def statuses() -> Mapping[str, StatusDef]:
    """The shipped status conditions, validated once (a read-only mapping)."""
    text = resources.files("ikusa.systems.sengensyou").joinpath("data", "conditions.yaml").read_text("utf-8")
    raw = yaml.safe_load(text)["conditions"]
    try:
        return MappingProxyType({k: StatusDef.model_validate({**v, "id": k}) for k, v in raw.items()})
    except ValidationError as exc:  # pragma: no cover - shipped data is tested
        raise validation_error(exc, "ikusa/systems/sengensyou/data/conditions.yaml") from None


def condition_aliases() -> dict[str, str]:
    """Every accepted name of a condition (id, Japanese name, aliases) → its id."""
    out: dict[str, str] = {}
    for k, d in statuses().items():
        out[k] = k
        out[d.name] = k
        for a in d.aliases:
            out[a] = k
    return out


def label(cid: str | None) -> str:
    """The Japanese name of condition ``cid`` (the id itself when unknown)."""
    if cid is None:
        return ""
    d = statuses().get(cid)
    return d.name if d is not None else cid


def held(st: Any, fid: str) -> list[StatusDef]:
    """The status conditions ``fid`` holds now (through its effects)."""
    table = statuses()
    return [table[c] for c in sorted(st.fx.book.conditions(fid)) if c in table]


def stops_recovery(st: Any, fid: str) -> StatusDef | None:
    """G-G03: the first held condition that stops DP recovery."""
    return next((d for d in held(st, fid) if d.stops_dp_recovery), None)


def move_block(st: Any, fid: str) -> StatusDef | None:
    """G-R08/G-R09: a held condition that forbids 移動 and 逃走 (immobile, confined)."""
    if not st.fx.book.active:
        return None
    return next((d for d in held(st, fid) if d.blocks_move), None)


def refund_free_check(st: Any, f: Any, n: int, purpose: str) -> None:
    """G-R02: ``f`` holds DP不要判定: the ``n`` DP just spent on this check come back, and the
    condition ends (one check).  Every check spends its DP right before it is rolled."""
    if n <= 0 or FREE_CHECK not in st.fx.book.conditions(f.id):
        return
    for e in [e for e in st.fx.book.on(f.id) if e.spec.condition == FREE_CHECK]:
        st.fx.book.remove(f.id, e.spec.name)
    f.dp += n
    st.emit("free_check", "G-R02", f"{f.name} {purpose}: GMの許可でDPを消費しない判定 ({n}D, DP{n}返還 → {f.dp})",
            who=f.id, dice=n, dp=f.dp)


def barrage_recovery(st: Any, shooter: Any) -> None:
    """G-G08 (003:L317): after ``shooter``'s 弾幕, each ally holding a condition with a
    recovery check makes it at once (no DP; 判定値 + resist_max_dice dice ≥ the TN)."""
    if not st.fx.book.active:
        return
    from ikusa.systems.sengensyou.checks_flow import pool

    for g in st.allies(shooter):
        for d in held(st, g.id):
            rec = d.recovery
            if rec is None:
                continue
            mods = st.fx.parts(g.id, "resist")
            base = g.stat(rec.stat) + g.skill(rec.skill) + sum(v for v, _ in mods)
            n = st.opt.resist_max_dice
            roll = pool(base, n, st.dice, f"{g.name} {d.name}回復", fixed=st.uses_fixed_dice(g),
                        rounding=st.opt.fixed_roll_rounding, roller=g.id)
            ok = roll.total >= rec.tn
            st.emit("status_recovery", f"G-G08,{d.rule}",
                    f"{shooter.name}の弾幕: {g.name} {d.name}の回復判定 {rec.stat}+〈{rec.skill}〉 {roll.show()} "
                    f"{'≥' if ok else '<'} {rec.tn} → {'回復' if ok else '回復せず'} (DP消費無し)",
                    who=g.id, condition=d.id, total=roll.total, tn=rec.tn, success=ok)
            if ok:
                for e in [e for e in st.fx.book.on(g.id) if e.spec.condition == d.id]:
                    st.fx.book.remove(g.id, e.spec.name)


def status_lines() -> list[str]:
    """``ikusa rules sengensyou conditions``: every status condition and what the engine does."""
    out = ["千幻抄の状態異常 (G-G03/G-G08/G-R02; data/conditions.yaml; GM ruling "
           "{op: condition, unit, name}):"]
    for d in statuses().values():
        parts = []
        if d.stops_dp_recovery:
            parts.append("DP回復停止 (G-G03)")
        if d.blocks_move:
            parts.append("移動・逃走不可 (G-R08/G-R09)")
        if d.id == FREE_CHECK:
            parts.append("次の判定1回はDPを消費しない (G-R02)")
        if d.recovery is not None:
            r = d.recovery
            parts.append(f"味方の弾幕で回復判定 {r.stat}+〈{r.skill}〉+抵抗ダイス ≥ {r.tn} (G-G08, DP消費無し, "
                         "目標値は invented)")
        names = "/".join((d.id, *d.aliases))
        out.append(f"  {d.name} ({names}) [{d.rule}]: " + "; ".join(parts))
    return out
