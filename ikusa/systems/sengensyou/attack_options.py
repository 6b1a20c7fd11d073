"""The attack options of a character's action decision (G-R13..G-R20): 弾幕, ホーミング,
スペル, ショット and 近接攻撃, with their odds (消費型 spell cards: spellcards.py).

Issue #12 (speed, nothing a player sees changes): an AI deciding many battles reads the keys,
costs, odds and data of these options, never their labels, so every label is made when first
read (``Option.lazy``, from numbers captured when the option is built, never from the state).
The lists are kept on the encounter (``Encounter.memo``) by every number they are made from;
a shot or melee list grows with the attacker's DP instead of being kept once per DP: the
options at n DP do not depend on how many more DP the attacker has
(``tests/systems/sengensyou/test_speed_memos.py`` checks every kept list against a fresh one).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from itertools import chain, combinations, product

from ikusa.engine.protocol import Option
from ikusa.systems.sengensyou import attacks, gm
from ikusa.systems.sengensyou.bullets import (
    BARRAGE_DP,
    HOMING_BOOST_BONUS,
    HOMING_DP_PER_TARGET,
    MIN_COMBAT_DICE,
    Variant,
    barrage_numbers,
    can_melee,
    homing_cost,
    homing_target_cap,
    melee_numbers,
    state_variants,
)
from ikusa.systems.sengensyou.character import Fighter
from ikusa.systems.sengensyou.checks_flow import p_beats_by
from ikusa.systems.sengensyou.column_option import Column, column_option
from ikusa.systems.sengensyou.defence import Evasion, check_odds, dp_to_evade_vs, evasion, hit_odds_vs
from ikusa.systems.sengensyou.state import SengensyouState

#: the visible enemies of an attacker as (id, name): what its option keys and labels name
Targets = tuple[tuple[str, str], ...]


def ignores_rows(f: Fighter) -> bool:
    """G-R10: a deployed spell card may override the row limits."""
    return bool(f.sc_deployed) and any(f.cat.spellcards[c].ignore_rows for c in f.sc_deployed)


def shot_targets(st: SengensyouState, f: Fighter, enemies: list[Fighter] | None = None) -> list[Fighter]:
    """G-R10 / G-R27: ショット and 近接攻撃 only at front-row, discovered enemies (of
    ``enemies``, when the caller has them: ``st.enemies(f)``)."""
    free = ignores_rows(f)
    return [t for t in (st.enemies(f) if enemies is None else enemies)
            if not t.hidden and (free or t.row == "front")]


def can_use_front_attacks(f: Fighter) -> bool:
    """G-R10: the back row cannot use ショット / 近接攻撃 (unless a spell card says so)."""
    return f.row == "front" or ignores_rows(f)


def attack_cap(st: SengensyouState, f: Fighter) -> int:
    """DP usable on an attack check: free, but ≤ 3 when surprising from beyond 30 m (G-R24)."""
    cap = gm.attacker_dice_cap(st, f) if st.ambush is not None else None
    return min(f.dp, cap) if cap is not None else f.dp


def expected(dice: int, fixed: int) -> float:
    """Mean damage of dice D6 + fixed (for labels and AI policies)."""
    return dice * 3.5 + fixed


# -- 弾幕 ---------------------------------------------------------------------------------
def barrage_options(st: SengensyouState, f: Fighter) -> tuple[Option, ...]:
    """G-R18 / G-R20: 弾幕 for BARRAGE_DP DP against every enemy (the same list whenever
    ``f`` has the DP: kept per character sheet)."""
    if f.dp < BARRAGE_DP:
        return ()
    return st.fighter_options(f, ("barrage",), _barrage_options, st, f)


def _barrage_options(st: SengensyouState, f: Fighter) -> list[Option]:
    opts: list[Option] = []
    for v in state_variants(st, f, "barrage"):
        x, dmg = barrage_numbers(v, st.opt.barrage_base_damage)
        opts.append(Option.lazy(f"barrage:{v.key}", partial(_barrage_label, v.bullet.name, x, dmg), BARRAGE_DP,
                                None, {"kind": "barrage", "src": v.key, "reduction": x, "damage": dmg,
                                       "exp_damage": float(dmg)}))
    return opts


def _barrage_label(bullet: str, x: int, dmg: int) -> str:
    return f"弾幕 {bullet} DP{BARRAGE_DP}: 敵全員にDP減少{x}か固定ダメージ{dmg}"


# -- ショット -------------------------------------------------------------------------------
def shot_options(st: SengensyouState, f: Fighter, cap: int, targets: list[Fighter]) -> Sequence[Option]:
    """G-R15 / G-R20: ショット with n DP (n d6) at a front-row, discovered enemy (``targets``:
    :func:`shot_targets`).  ``odds`` is the chance the shot still hits when the target evades
    with every die it may use; the label adds what the shot is likely to cost the target (dice
    to evade the average).  Order: for each variant, every target at 1 DP, then at 2 DP, …"""
    if cap < MIN_COMBAT_DICE or not targets or not can_use_front_attacks(f):
        return ()
    vs = state_variants(st, f, "shot")
    if not vs:
        return ()
    cols = [_shot_columns(st, f, vs, cap, t) for t in targets]
    if len(cols) == 1:
        if len(vs) == 1:
            return cols[0][0][:cap]
        return [o for col in cols[0] for o in col[:cap]]
    out: list[Option] = []
    for per_target in zip(*cols, strict=True):  # one variant: the targets' columns, interleaved
        out.extend(chain.from_iterable(zip(*[c[:cap] for c in per_target], strict=True)))
    return out


def _shot_columns(st: SengensyouState, f: Fighter, vs: list[Variant], cap: int,
                  t: Fighter) -> tuple[tuple[Option, ...], ...]:
    """``f``'s shots at ``t``: per variant, the options at 1, 2, … DP (at least ``cap`` of
    them).  Kept by the target's evasion numbers, id, name and DP (all a shot option is made of
    besides ``f``'s sheet), and made longer when a later decision has more DP (a longer copy
    replaces the kept one: a list handed out never changes).

    With no surprise possible (no ambush, ``f`` not hidden) the evasion numbers follow from the
    target's sheet, DP and 防御専念 alone: the key holds those (the sheet checked by identity)
    and the numbers are worked out only when the list is built (issue #12)."""
    if st.ambush is None and not f.hidden:
        ev = None
        key: tuple[object, ...] = ("shot", f.id, t.id, t.dp, t.focus)
    else:
        ev = evasion(st, f, t)
        key = ("shot", f.id, ev, t.id, t.dp)
    memo = st.grow_memo
    got = memo.get(key)
    if got is None or got[0] is not f.spec or got[1] is not f.cat or got[2] is not t.spec:
        got = (f.spec, f.cat, t.spec, tuple(() for _ in vs))
    cols: tuple[tuple[Option, ...], ...] = got[3]
    if len(cols[0]) < cap:
        more = _more_shots(st, f, vs, evasion(st, f, t) if ev is None else ev, t, len(cols[0]), cap)
        cols = tuple(col + tuple(m) for col, m in zip(cols, more, strict=True))
        memo[key] = (f.spec, f.cat, t.spec, cols)
    return cols


def _more_shots(st: SengensyouState, f: Fighter, vs: list[Variant], ev: Evasion, t: Fighter, have: int,
                cap: int) -> list[list[Option]]:
    """Per variant, the shots at ``have`` + 1 … ``cap`` DP."""
    tid, tname, tdp = t.id, t.spec.name, t.dp
    rounding = st.opt.fixed_roll_rounding
    out: list[list[Option]] = []
    for v in vs:
        base = v.check_base(f)
        src = f" {v.bullet.name}〈{v.check_skill}〉" if len(vs) > 1 else ""
        dmg = v.damage_text()
        exp = expected(v.damage_dice, f.stat(v.stat) + v.fixed_damage)
        vkey = v.key
        col: list[Option] = []
        # hit_odds_vs inlined for a defender who may evade and rolls (the usual case)
        plain = ev.dp > 0 and not ev.no_evasion and not ev.fixed and not ev.attacker_fixed
        lead, edp = base - (ev.base - ev.shift), ev.dp
        shared: Column = (_shot_label, (tname, src, base, dmg, tdp, rounding, ev))  # one per column
        for n in range(have + MIN_COMBAT_DICE, cap + 1):
            odds = 1.0 - p_beats_by(lead, edp, n) if plain else hit_odds_vs(st, ev, base, n)
            col.append(column_option(f"shot:{tid}:{n}:{vkey}", shared, n, odds,
                                     {"kind": "shot", "target": tid, "dp": n, "src": vkey, "exp_damage": exp}))
        out.append(col)
    return out


def _shot_label(tname: str, src: str, base: int, dmg: str, tdp: int, rounding: str, ev: Evasion, n: int,
                odds: float) -> str:
    need = dp_to_evade_vs(rounding, ev, base, n)
    cost_t = f"回避に約{need}DP要" if need is not None else "回避困難"
    return (f"ショット→{tname} {n}DP{src} {base}+{n}D6 ダメージ{dmg} "
            f"(相手DP{tdp}: {cost_t}; 全DP回避でも命中{odds:.0%})")


# -- ホーミング -----------------------------------------------------------------------------
def homing_options(st: SengensyouState, f: Fighter, targets: Targets) -> tuple[Option, ...]:
    """G-R16 / G-R20: ホーミング at up to ceil(〈ホーミング〉/2) of ``targets`` (the visible
    enemies' (id, name)), 2 DP each, +10 per extra 2 DP on a target (once unless G-G12 says
    repeatable; then at most twice)."""
    if f.dp < HOMING_DP_PER_TARGET or not targets or not state_variants(st, f, "homing"):
        return ()
    return st.fighter_options(f, ("homing", f.dp, targets), _affordable, st, f, f.dp, targets)


def _affordable(st: SengensyouState, f: Fighter, dp: int, targets: tuple[tuple[str, str], ...]) -> list[Option]:
    """The homing options costing ≤ ``dp``, in order, from the list of every one (kept per
    targets: issue #12, one build for every DP)."""
    every = st.fighter_options(f, ("homing", None, targets), _homing_options, st, f, targets)
    return [o for o in every if (o.cost or 0) <= dp]


def _homing_options(st: SengensyouState, f: Fighter, targets: tuple[tuple[str, str], ...]) -> list[Option]:
    """Every homing option at ``targets``, whatever it costs."""
    opts: list[Option] = []
    kmax = min(homing_target_cap(f), len(targets))
    boost_levels = (0, 1, 2) if st.opt.homing_boost_repeatable else (0, 1)
    for v in state_variants(st, f, "homing"):
        base = v.check_base(f)  # the same for every group (issue #12: once per variant)
        dmg = v.damage_text()
        exp = expected(v.damage_dice, f.stat(v.stat) + v.fixed_damage)
        for k in range(1, kmax + 1):
            for group in combinations(targets, k):
                for boosts in product(boost_levels, repeat=k):
                    cost = homing_cost(boosts)
                    spec = ",".join(tid + (f"+{b}" if b else "") for (tid, _), b in zip(group, boosts, strict=True))
                    opts.append(Option.lazy(
                        f"homing:{v.key}:{spec}", partial(_homing_label, v.bullet.name, cost, base, group, boosts, dmg),
                        cost, None, {"kind": "homing", "src": v.key, "targets": [tid for tid, _ in group],
                                     "boosts": list(boosts), "base": base, "exp_damage": exp}))
    return opts


def _homing_label(bullet: str, cost: int, base: int, group: tuple[tuple[str, str], ...], boosts: tuple[int, ...],
                  dmg: str) -> str:
    shown = ", ".join(f"{tname}:{base + HOMING_BOOST_BONUS * b}" for (_, tname), b in zip(group, boosts, strict=True))
    return f"ホーミング {bullet} DP{cost} 固定達成値 {shown} (ダメージ{dmg})"


# -- 近接攻撃 -------------------------------------------------------------------------------
def melee_options(st: SengensyouState, f: Fighter, cap: int, targets: list[Fighter]) -> Sequence[Option]:
    """G-R17 / G-G15: n DP on the approach (at least one die left for the hit check) at one of
    ``targets`` (:func:`shot_targets`): every target at 1 DP, then at 2 DP, …"""
    if cap < 2 * MIN_COMBAT_DICE or not targets or not (can_melee(f) and can_use_front_attacks(f)):
        return ()
    tns = tuple((t.id, t.spec.name, attacks.approach_tn(st, t)) for t in targets)  # once per target
    top = cap - MIN_COMBAT_DICE  # the most approach dice
    key = ("melee", f.id, tns)
    memo = st.grow_memo
    got = memo.get(key)
    if got is None or got[0] is not f.spec or got[1] is not f.cat:
        got = (f.spec, f.cat, ())
    every: tuple[Option, ...] = got[2]  # n-major: a prefix holds every option up to some n
    have = len(every) // len(tns)
    if have < top:
        every += tuple(_more_melee(st, f, tns, have + MIN_COMBAT_DICE, top))
        memo[key] = (f.spec, f.cat, every)
    return every[:top * len(tns)]


def _more_melee(st: SengensyouState, f: Fighter, tns: tuple[tuple[str, str, int], ...], first: int,
                top: int) -> list[Option]:
    _, ddice, dfixed = melee_numbers(f)
    base = f.stat("感覚") + f.skill("回避")
    exp = expected(ddice, dfixed)
    out: list[Option] = []
    cols: list[Column] = [(_melee_label, (tname, base, tn, ddice, dfixed)) for _, tname, tn in tns]
    for n in range(first, top + 1):
        for (tid, _, tn), shared in zip(tns, cols, strict=True):
            odds = check_odds(st, f, base, n, tn)
            out.append(column_option(f"melee:{tid}:{n}", shared, n, odds,
                                     {"kind": "melee", "target": tid, "dp": n, "exp_damage": exp}))
    return out


def _melee_label(tname: str, base: int, tn: int, ddice: int, dfixed: int, n: int, odds: float) -> str:
    return (f"近接攻撃→{tname} 接近{n}DP 感覚+〈回避〉{base}+{n}D6 ≥ {tn} "
            f"(ダメージ{ddice}D+{dfixed}; 接近成功率{odds:.0%})")


# -- スペル ---------------------------------------------------------------------------------
def spell_options(st: SengensyouState, f: Fighter, cap: int, targets: Targets) -> tuple[Option, ...]:
    """G-R20 / G-G22: スペル with ≤ 3D at one of ``targets`` (the visible enemies' (id, name)),
    paying 霊力."""
    if not f.spec.spells:
        return ()
    top = min(st.opt.other_max_dice, cap)
    return st.fighter_options(f, ("spell", f.reiryoku, top, targets), _spell_options, st, f, top, targets)


def _spell_options(st: SengensyouState, f: Fighter, top: int, targets: tuple[tuple[str, str], ...]) -> list[Option]:
    opts: list[Option] = []
    for sp_id in f.spec.spells:
        sp = f.cat.spells[sp_id]
        if f.ability(sp.ability) < 1 or f.reiryoku < sp.reiryoku:
            continue
        base = f.stat(sp.stat) + f.ability(sp.ability)
        exp = expected(sp.damage_dice, f.stat(sp.damage_stat))
        for tid, tname in targets:
            for n in range(MIN_COMBAT_DICE, top + 1):
                odds = check_odds(st, f, base, n, sp.tn)
                opts.append(Option.lazy(f"spell:{sp_id}:{tid}:{n}",
                                        partial(_spell_label, sp.name, tname, n, base, sp.tn, sp.reiryoku, odds),
                                        n, odds, {"kind": "spell", "spell": sp_id, "target": tid, "dp": n,
                                                  "exp_damage": exp}))
    return opts


def _spell_label(name: str, tname: str, n: int, base: int, tn: int, rei: int, odds: float) -> str:
    return f"スペル {name}→{tname} {n}DP 発動{base}+{n}D6 ≥ {tn} (霊力{rei}; 発動率{odds:.0%})"
