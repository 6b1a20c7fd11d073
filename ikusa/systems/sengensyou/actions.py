"""A character's own action (G-G05): the legal options and the dispatch.

One attack action per turn (弾幕, ショット, ホーミング, 近接攻撃, スペル, 消費型スペルカード,
その他) or 待機 (G-R06); a character in 防御専念 may not attack (G-R07).  Free actions that do
not end the turn: 移動 (G-R08), 逃走 declaration (G-R09), 展開型/消弾 spell cards (G-R21),
graze → 霊力 (G-R12).
"""

from __future__ import annotations

from functools import partial
from itertools import combinations, product

from ikusa.engine.protocol import Decision, Option
from ikusa.systems.sengensyou import attacks, gm, graze, movement, spellcards
from ikusa.systems.sengensyou.bullets import (
    BARRAGE_DP,
    HOMING_BOOST_BONUS,
    HOMING_DP_PER_TARGET,
    MIN_COMBAT_DICE,
    barrage_numbers,
    can_melee,
    homing_cost,
    homing_target_cap,
    melee_numbers,
    state_variants,
)
from ikusa.systems.sengensyou.character import Fighter
from ikusa.systems.sengensyou.defence import Evasion, check_odds, dp_to_evade_vs, evasion, hit_odds_vs
from ikusa.systems.sengensyou.effects import GM_END, GM_REFRESH
from ikusa.systems.sengensyou.state import Flow, SengensyouState, ask

FREE_PREFIXES = ("move:", "escape", "deploy:", "shoudan:", "graze:reiryoku:")


def ignores_rows(f: Fighter) -> bool:
    """G-R10: a deployed spell card may override the row limits."""
    return any(f.cat.spellcards[c].ignore_rows for c in f.sc_deployed)


def shot_targets(st: SengensyouState, f: Fighter) -> list[Fighter]:
    """G-R10 / G-R27: ショット and 近接攻撃 only at front-row, discovered enemies."""
    free = ignores_rows(f)
    return [t for t in st.enemies(f) if not t.hidden and (free or t.row == "front")]


def can_use_front_attacks(f: Fighter) -> bool:
    """G-R10: the back row cannot use ショット / 近接攻撃 (unless a spell card says so)."""
    return f.row == "front" or ignores_rows(f)


def attack_cap(st: SengensyouState, f: Fighter) -> int:
    """DP usable on an attack check: free, but ≤ 3 when surprising from beyond 30 m (G-R24)."""
    cap = gm.attacker_dice_cap(st, f)
    return min(f.dp, cap) if cap is not None else f.dp


def expected(dice: int, fixed: int) -> float:
    """Mean damage of dice D6 + fixed (for labels and AI policies)."""
    return dice * 3.5 + fixed


def barrage_options(st: SengensyouState, f: Fighter) -> list[Option]:
    """G-R18 / G-R20: 弾幕 for BARRAGE_DP DP against every enemy."""
    if f.dp < BARRAGE_DP:
        return []
    opts: list[Option] = []
    for v in state_variants(st, f, "barrage"):
        x, dmg = barrage_numbers(v, st.opt.barrage_base_damage)
        label = f"弾幕 {v.bullet.name} DP{BARRAGE_DP}: 敵全員にDP減少{x}か固定ダメージ{dmg}"
        opts.append(Option(f"barrage:{v.key}", label, BARRAGE_DP, None,
                           {"kind": "barrage", "src": v.key, "reduction": x, "damage": dmg, "exp_damage": float(dmg)}))
    return opts


def shot_options(st: SengensyouState, f: Fighter, cap: int) -> list[Option]:
    """G-R15 / G-R20: ショット with n DP (n d6) at a front-row, discovered enemy.  ``odds`` is
    the chance the shot still hits when the target evades with every die it may use; the
    label adds what the shot is likely to cost the target (dice to evade the average)."""
    if not can_use_front_attacks(f) or cap < MIN_COMBAT_DICE:
        return []
    # per target once (issue #12): its surprise/fixed-dice numbers, id, name and DP; the whole
    # list is kept by them all, and each target's block by its own (see _interleaved)
    targets = tuple((evasion(st, f, t), t.id, t.name, t.dp) for t in shot_targets(st, f))
    return list(st.fighter_options(f, ("shots", cap, targets), partial(_interleaved, st, f, cap, targets)))


def _interleaved(st: SengensyouState, f: Fighter, cap: int,
                 targets: tuple[tuple[Evasion, str, str, int], ...]) -> list[Option]:
    """Every target at 1 DP, then at 2 DP, … for each variant, from each target's block (its
    options at every DP for every variant: another target's DP does not change them)."""
    blocks = [st.fighter_options(f, ("shot", cap, *t), partial(_shot_block, st, f, cap, *t)) for t in targets]
    return [b[i] for i in range(len(blocks[0])) for b in blocks] if blocks else []


def _shot_block(st: SengensyouState, f: Fighter, cap: int, ev: Evasion, tid: str, tname: str,
                tdp: int) -> list[Option]:
    """One target's shot options: for each variant, at MIN_COMBAT_DICE … ``cap`` DP."""
    opts: list[Option] = []
    vs = state_variants(st, f, "shot")
    for v in vs:
        base = v.check_base(f)
        src = f" {v.bullet.name}〈{v.check_skill}〉" if len(vs) > 1 else ""
        dmg = v.damage_text()
        exp = expected(v.damage_dice, f.stat(v.stat) + v.fixed_damage)
        vkey = v.key
        for n in range(MIN_COMBAT_DICE, cap + 1):
            odds = hit_odds_vs(st, ev, base, n)
            need = dp_to_evade_vs(st, ev, base, n)
            cost_t = f"回避に約{need}DP要" if need is not None else "回避困難"
            opts.append(Option(
                f"shot:{tid}:{n}:{vkey}",
                f"ショット→{tname} {n}DP{src} {base}+{n}D6 ダメージ{dmg} "
                f"(相手DP{tdp}: {cost_t}; 全DP回避でも命中{odds:.0%})",
                n, odds, {"kind": "shot", "target": tid, "dp": n, "src": vkey, "exp_damage": exp}))
    return opts


def homing_options(st: SengensyouState, f: Fighter) -> list[Option]:
    """G-R16 / G-R20: ホーミング at up to ceil(〈ホーミング〉/2) targets, 2 DP each, +10 per
    extra 2 DP on a target (once unless G-G12 says repeatable; then at most twice)."""
    if f.dp < HOMING_DP_PER_TARGET or not state_variants(st, f, "homing"):
        return []
    targets = tuple((t.id, t.name) for t in st.enemies(f) if not t.hidden)
    return list(st.fighter_options(f, ("homing", f.dp, targets), partial(_affordable, st, f, f.dp, targets)))


def _affordable(st: SengensyouState, f: Fighter, dp: int, targets: tuple[tuple[str, str], ...]) -> list[Option]:
    """The homing options costing ≤ ``dp``, in order, from the list of every one (kept per
    targets: issue #12, one build for every DP)."""
    every = st.fighter_options(f, ("homing", None, targets), partial(_homing_options, st, f, targets))
    return [o for o in every if (o.cost or 0) <= dp]


def _homing_options(st: SengensyouState, f: Fighter, targets: tuple[tuple[str, str], ...]) -> list[Option]:
    """Every homing option at ``targets``, whatever it costs."""
    hv = state_variants(st, f, "homing")
    opts: list[Option] = []
    kmax = min(homing_target_cap(f), len(targets))
    boost_levels = (0, 1, 2) if st.opt.homing_boost_repeatable else (0, 1)
    for v in hv:
        base = v.check_base(f)  # the same for every group (issue #12: once per variant)
        dmg = v.damage_text()
        exp = expected(v.damage_dice, f.stat(v.stat) + v.fixed_damage)
        for k in range(1, kmax + 1):
            for group in combinations(targets, k):
                for boosts in product(boost_levels, repeat=k):
                    cost = homing_cost(boosts)
                    spec = ",".join(tid + (f"+{b}" if b else "") for (tid, _), b in zip(group, boosts, strict=True))
                    shown = ", ".join(f"{tname}:{base + HOMING_BOOST_BONUS * b}"
                                      for (_, tname), b in zip(group, boosts, strict=True))
                    opts.append(Option(
                        f"homing:{v.key}:{spec}",
                        f"ホーミング {v.bullet.name} DP{cost} 固定達成値 {shown} (ダメージ{dmg})",
                        cost, None,
                        {"kind": "homing", "src": v.key, "targets": [tid for tid, _ in group],
                         "boosts": list(boosts), "base": base, "exp_damage": exp}))
    return opts


def melee_options(st: SengensyouState, f: Fighter, cap: int) -> list[Option]:
    """G-R17 / G-G15: n DP on the approach (at least one die left for the hit check)."""
    if not (can_melee(f) and can_use_front_attacks(f) and cap >= 2 * MIN_COMBAT_DICE):
        return []
    tns = tuple((t.id, t.name, attacks.approach_tn(st, t)) for t in shot_targets(st, f))  # once per target
    return list(st.fighter_options(f, ("melee", cap, tns), partial(_melee_options, st, f, cap, tns)))


def _melee_options(st: SengensyouState, f: Fighter, cap: int, tns: tuple[tuple[str, str, int], ...]) -> list[Option]:
    opts: list[Option] = []
    _, ddice, dfixed = melee_numbers(f)
    base = f.stat("感覚") + f.skill("回避")
    exp = expected(ddice, dfixed)
    for n in range(MIN_COMBAT_DICE, cap - MIN_COMBAT_DICE + 1):
        for tid, tname, tn in tns:
            odds = check_odds(st, f, base, n, tn)
            opts.append(Option(
                f"melee:{tid}:{n}", f"近接攻撃→{tname} 接近{n}DP 感覚+〈回避〉{base}+{n}D6 ≥ {tn} "
                f"(ダメージ{ddice}D+{dfixed}; 接近成功率{odds:.0%})", n, odds,
                {"kind": "melee", "target": tid, "dp": n, "exp_damage": exp}))
    return opts


def spell_options(st: SengensyouState, f: Fighter, cap: int) -> list[Option]:
    """G-R20 / G-G22: スペル with ≤ 3D, paying 霊力."""
    if not f.spec.spells:
        return []
    targets = tuple((t.id, t.name) for t in st.enemies(f) if not t.hidden)
    return list(st.fighter_options(f, ("spell", f.reiryoku, cap, targets),
                                   partial(_spell_options, st, f, cap, targets)))


def _spell_options(st: SengensyouState, f: Fighter, cap: int, targets: tuple[tuple[str, str], ...]) -> list[Option]:
    opts: list[Option] = []
    for sp_id in f.spec.spells:
        sp = f.cat.spells[sp_id]
        if f.ability(sp.ability) < 1 or f.reiryoku < sp.reiryoku:
            continue
        base = f.stat(sp.stat) + f.ability(sp.ability)
        for tid, tname in targets:
            for n in range(MIN_COMBAT_DICE, min(st.opt.other_max_dice, cap) + 1):
                odds = check_odds(st, f, base, n, sp.tn)
                opts.append(Option(f"spell:{sp_id}:{tid}:{n}",
                                   f"スペル {sp.name}→{tname} {n}DP 発動{base}+{n}D6 ≥ {sp.tn} "
                                   f"(霊力{sp.reiryoku}; 発動率{odds:.0%})", n, odds,
                                   {"kind": "spell", "spell": sp_id, "target": tid, "dp": n,
                                    "exp_damage": expected(sp.damage_dice, f.stat(sp.damage_stat))}))
    return opts


def attack_options(st: SengensyouState, f: Fighter) -> list[Option]:
    """Every legal attack action for ``f`` now, with odds where they are known.

    Order (the short lists first; keys are unchanged): 弾幕, ホーミング, 消費型スペルカード,
    スペル, ショット (every target at 1 DP, then 2 DP …), 近接攻撃 (likewise)."""
    cap = attack_cap(st, f)
    opts = barrage_options(st, f) + homing_options(st, f) + spellcards.attack_options(st, f)
    opts += spell_options(st, f, cap) + shot_options(st, f, cap) + melee_options(st, f, cap)
    return opts


def other_options(st: SengensyouState, f: Fighter) -> list[Option]:
    """G-R02 / G-G33: その他 with at most 3 dice."""
    most = st.opt.other_max_dice
    top = min(most, f.dp)
    return list(st.options(("other", most, top), lambda: [
        Option(f"other:{n}", f"その他の行動 {n}DP (最大{most}D, 結果はGM裁定)", n, None, {"kind": "other", "dp": n})
        for n in range(MIN_COMBAT_DICE, top + 1)]))


def action_options(st: SengensyouState, f: Fighter) -> list[Option]:
    """The action decision: 待機 / 行動終了, attack actions (unless 防御専念), その他, free actions
    (spell cards, graze → 霊力, escape, movement: the long rolled-move list last).

    G-G26: 待機 means no attack and no DP-spent on the own turn; after a rolled move
    (DP spent) the turn can only end without the 待機 bonus."""
    opts: list[Option] = []
    if f.focus:
        opts.append(Option("end", "防御専念中: 行動終了", None, None, {"kind": "end"}))
    else:
        if f.turn_dp_spent:
            opts.append(Option("end", "行動終了 (DPを使ったので待機ボーナス無し)", None, None, {"kind": "end"}))
        else:
            opts.append(Option("wait", f"待機 (次ターンDP回復 +{st.opt.wait_recovery_bonus})", None, None,
                               {"kind": "wait"}))
        opts.extend(attack_options(st, f))
        opts.extend(other_options(st, f))
    opts.extend(spellcards.free_options(st, f))
    opts.extend(graze.reiryoku_options(f))
    opts.extend(movement.free_options(st, f))
    return opts


def take_action(st: SengensyouState, f: Fighter, pending: Decision | None = None) -> Flow:
    """The character's action: free actions first, then one attack action, 待機 or 終了.
    ``pending``: a clone resumes here with its action decision already asked (turn.battle)."""
    # issue #8: the GM skipped this turn (sengensyou/rulings.py)
    if pending is None and st.fx.skip and f.id in st.fx.skip:
        st.fx.skip.discard(f.id)
        f.acted = True
        st.emit("skip", "GM", f"{f.name} の手番はGM裁定で飛ばされた", who=f.id)
        return
    while True:
        if pending is not None:
            key = yield pending  # "action" is REFRESHED: ask() would return any key as it is
            pending = None
        else:
            opts = action_options(st, f)
            key = yield from ask(f.id, "action", f"{f.name}の行動 (DP {f.dp}/{f.dp_max}, HP {f.hp}, "
                                 f"グレイズ {f.graze})", opts)
        if key == GM_REFRESH:  # a GM ruling changed what the options depend on
            continue
        if key == GM_END:
            f.acted = True
            return
        if key.startswith(FREE_PREFIXES):
            free_action(st, f, key)
            if not f.active:
                return
            continue
        break
    f.acted = True
    if key in ("wait", "end"):
        if key == "wait":
            f.waited = True
            f.wait_bonus = st.opt.wait_recovery_bonus
            st.emit("wait", "G-R06,G-G26", f"{f.name} 待機 (次ターンのDP回復 +{st.opt.wait_recovery_bonus})",
                    who=f.id)
            gm.hidden_check(st, f, acting=False)
        elif f.focus:
            st.emit("end", "G-R07", f"{f.name} 防御専念のため攻撃しない", who=f.id)
            gm.hidden_check(st, f, acting=False)
        else:
            st.emit("end", "G-G26", f"{f.name} 行動終了 (移動にDPを使ったので待機ではない)", who=f.id)
            gm.hidden_check(st, f, acting=False)
        return
    gm.hidden_check(st, f, acting=True)
    yield from attacks.resolve(st, f, key)
    if st.opt.hidden_revealed_after_attack and f.hidden:
        f.hidden = False
        st.emit("revealed", "G-R27", f"{f.name} は攻撃したため発見される", who=f.id)


def free_action(st: SengensyouState, f: Fighter, key: str) -> None:
    """Actions that do not use up the turn (G-R08, G-R09, G-R21, G-R12)."""
    if key.startswith("move:"):
        movement.move(st, f, key)
    elif key == "escape":
        movement.declare_escape(st, f)
    elif key.startswith(("deploy:", "shoudan:")):
        spellcards.use_free(st, f, key)
    else:
        graze.spend_reiryoku(st, f, int(key.split(":")[2]))
