"""GM section of 003 (CN only; G-R23..G-R30, G-G29, G-G30, G-G32).

* Surprise (G-R24, X7): complete surprise → no evasion; vigilant but unaware within 30 m →
  evasion −5 and at most 3 dice; beyond 30 m the attacker rolls at most 3 dice and only a
  vigilant defender who wins a 感覚 check (auto inside [警報術]/[識域結界]) may evade, with at
  most 3 dice; from 100 m the hit also needs the GM's TN.  Inside [警報術]/[識域結界] a
  complete surprise becomes a normal one.
* Hidden characters (G-R27): targetable only by 弾幕 and area effects; opposed 身体+〈隠密〉
  vs 感覚+〈感知〉 each turn (perception checks are diceless, G-R03; ties to the perceiver,
  invented); still hidden when attacking → surprise.
* Reinforcements enter with DP = DP回復数 × 2 (G-R28, X6).
* Simplified order around an NPC leader (G-R30, G-G32).
"""

from __future__ import annotations

from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from ikusa.systems.sengensyou.catalog import SpellCard
from ikusa.systems.sengensyou.character import Fighter
from ikusa.systems.sengensyou.state import SengensyouState


@mypyc_attr(allow_interpreted_subclasses=True)  # copied via cls.__new__ (deepcopy, pickle): see setup.py
@dataclass(frozen=True, slots=True)
class SurpriseEffect:
    no_evasion: bool = False
    penalty: int = 0
    dice_cap: int | None = None


NONE = SurpriseEffect()


def stealth(f: Fighter) -> int:
    return f.stat("身体") + f.skill("隠密")


def perception(f: Fighter) -> int:
    return f.stat("感覚") + f.skill("感知")


ALARM_ABILITIES = ("警報術", "識域結界")
#: G-R28 (X6): reinforcements enter with DP = DP回復数 × this
REINFORCEMENT_DP_FACTOR = 2


def in_alarm(st: SengensyouState, t: Fighter) -> bool:
    """G-R24: inside a [警報術]/[識域結界] area: flagged in the encounter, or a character of
    ``t``'s side (``t`` included) has one of those abilities."""
    if t.spec.in_alarm:
        return True
    return any(g.ability(a) > 0 for g in [t, *st.allies(t)] for a in ALARM_ABILITIES)


def _ambush(st: SengensyouState, a: Fighter) -> str | None:
    s = st.ambush  # the encounter's surprise (G-R24), read once per state
    if s is not None and st.turn == 1 and a.spec.side == s.side:
        return s.range
    return None


def surprise(st: SengensyouState, a: Fighter, t: Fighter) -> SurpriseEffect:
    """G-R24 / G-R27: how surprise limits ``t``'s defence against ``a`` now."""
    rng = "within" if a.hidden else _ambush(st, a)
    if rng is None:
        return NONE
    if rng == "within":
        if not a.hidden and perception(t) >= stealth(a):
            return NONE  # noticed the attacker: a normal attack
        if in_alarm(st, t) or t.spec.vigilant:
            return SurpriseEffect(penalty=st.opt.surprise_unaware_penalty, dice_cap=st.opt.surprise_max_dice)
        return SurpriseEffect(no_evasion=True)
    # beyond 30 m (outside / far)
    if in_alarm(st, t):
        return SurpriseEffect(dice_cap=st.opt.surprise_max_dice)
    if t.spec.vigilant and perception(t) - st.opt.surprise_outside_penalty >= stealth(a):
        return SurpriseEffect(dice_cap=st.opt.surprise_max_dice)
    return SurpriseEffect(no_evasion=True)


#: G-R24 / G-G29: the effective range of every attack unless its data says otherwise
EFFECTIVE_RANGE_M = 30


def range_guard(st: SengensyouState, a: Fighter, t: Fighter) -> SpellCard | None:
    """G-R24 (003:L204): when our side's spell-card ability range exceeds 30 m, attacks from
    outside the normal effective range are treated as evaded: the unused card of ``t``'s side
    (``t`` first) with ``range_m`` > 30 that does it, when ``a`` attacks from beyond 30 m."""
    if _ambush(st, a) not in ("outside", "far"):
        return None
    cards = st.enc.catalog.spellcards
    for g in [t, *st.allies(t)]:
        for cid in g.spec.spell_cards:
            c = cards[cid]
            if cid not in g.sc_used and c.range_m > EFFECTIVE_RANGE_M:
                return c
    return None


def attacker_dice_cap(st: SengensyouState, a: Fighter) -> int | None:
    """G-R24: attacks from beyond 30 m roll at most 3 dice."""
    return st.opt.surprise_max_dice if _ambush(st, a) in ("outside", "far") else None


def far_hit(st: SengensyouState, a: Fighter, total: int) -> bool:
    """G-R24 / G-G29: from 100 m or more the hit must reach the GM's TN (default 15)."""
    if _ambush(st, a) != "far":
        return True
    ok = total >= st.opt.surprise_far_tn
    st.emit("far_tn", "G-R24,G-G29", f"100m以上からの攻撃: 達成値{total} {'≥' if ok else '<'} GM目標値"
            f"{st.opt.surprise_far_tn} {'命中圏内' if ok else '外れ'}", who=a.id, total=total, success=ok)
    return ok


def hidden_check(st: SengensyouState, f: Fighter, *, acting: bool) -> None:
    """G-R27: a hidden character's 身体+〈隠密〉 against the best enemy 感覚+〈感知〉."""
    if not f.hidden:
        return
    watchers = st.enemies(f)
    if not watchers:
        return
    best = max(watchers, key=perception)
    stays = stealth(f) > perception(best)
    st.emit("hidden_check", "G-R27,G-R03",
            f"{f.name} 隠密 身体+〈隠密〉{stealth(f)} 対 {best.name} 感覚+〈感知〉{perception(best)} → "
            + ("発見されない" + (" (不意打ち)" if acting else "") if stays else "発見された"),
            who=f.id, stealth=stealth(f), perception=perception(best), hidden=stays)
    if not stays:
        f.hidden = False


def arrive_reinforcements(st: SengensyouState) -> None:
    """G-R28: arrivals enter through the 弾幕 with DP = DP回復数 × 2."""
    for fid, turn in st.arrivals.items():
        f = st.f(fid)
        if turn == st.turn and not f.in_battle:
            f.in_battle = True
            f.dp = min(f.dp_max, f.dp_recovery * REINFORCEMENT_DP_FACTOR)
            st.emit("reinforcement", "G-R28", f"{f.name} が増援として参戦 (DP = DP回復数{f.dp_recovery} × "
                    f"{REINFORCEMENT_DP_FACTOR} = {f.dp})", who=f.id, dp=f.dp)


def simplified_order(st: SengensyouState) -> list[str]:
    """G-R30 / G-G32: PCs with DP ≥ the leader's, then NPCs, then the other PCs."""
    idx = {fid: i for i, fid in enumerate(st.fighters)}
    act = st.active()
    for f in act:
        f.declared = f.dp
    leader = st.fighters.get(st.enc.leader or "")
    if leader is None or not leader.active:
        npcs = [f for f in act if not st.is_pc(f)]
        leader_dp = max((f.dp for f in npcs), default=0)
    else:
        leader_dp = leader.dp

    def by_dp(fs: list[Fighter]) -> list[str]:
        return [f.id for f in sorted(fs, key=lambda g: (-g.dp, idx[g.id]))]

    pcs = [f for f in act if st.is_pc(f)]
    return (by_dp([f for f in pcs if f.dp >= leader_dp]) + by_dp([f for f in act if not st.is_pc(f)])
            + by_dp([f for f in pcs if f.dp < leader_dp]))
