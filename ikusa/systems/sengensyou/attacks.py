"""Attack actions (G-R13..G-R20): 弾幕, ショット, ホーミング, 近接攻撃, スペル, その他.

Each costs DP as the reference table says (G-R20) and every check but 弾幕 and ホーミング
rolls at least one die (G-R03, G-G10).
"""

from __future__ import annotations

from functools import partial

from ikusa.engine.protocol import Decision, Option
from ikusa.systems.sengensyou import defence, gm, graze, spellcards
from ikusa.systems.sengensyou.bullets import (
    BARRAGE_DP,
    HOMING_BOOST_BONUS,
    Variant,
    barrage_numbers,
    homing_cost,
    melee_numbers,
    state_variants,
)
from ikusa.systems.sengensyou.catalog import AttackKind
from ikusa.systems.sengensyou.character import Fighter
from ikusa.systems.sengensyou.checks_flow import PoolRoll
from ikusa.systems.sengensyou.effects import GM_REFRESH
from ikusa.systems.sengensyou.state import Flow, SengensyouState, ask
from ikusa.systems.sengensyou.status import barrage_recovery

#: G-G21: a spell's resistance TN when its data gives none: this + the caster's ability Lv
RESIST_TN_FALLBACK_BASE = 10


def find_variant(st: SengensyouState, f: Fighter, kind: AttackKind, key: str) -> Variant:
    for v in state_variants(st, f, kind):
        if v.key == key:
            return v
    raise AssertionError(f"no {kind} variant {key}")  # pragma: no cover - options are validated


def approach_tn(st: SengensyouState, t: Fighter) -> int:
    """G-G15: approach TN = 15 + target 身体 + max(〈回避〉, 〈弾幕〉) (003:L320)."""
    return st.opt.melee_approach_base + t.stat("身体") + max(t.skill("回避"), t.skill("弾幕"))


def resolve(st: SengensyouState, f: Fighter, key: str) -> Flow:
    parts = key.split(":")
    kind = parts[0]
    if kind == "barrage":
        yield from barrage(st, f, find_variant(st, f, "barrage", parts[1]))
    elif kind == "shot":
        yield from shot(st, f, st.f(parts[1]), int(parts[2]), find_variant(st, f, "shot", parts[3]))
    elif kind == "homing":
        targets: list[tuple[Fighter, int]] = []
        for spec in parts[2].split(","):
            tid, _, b = spec.partition("+")
            targets.append((st.f(tid), int(b) if b else 0))
        yield from homing(st, f, find_variant(st, f, "homing", parts[1]), targets)
    elif kind == "melee":
        yield from melee(st, f, st.f(parts[1]), int(parts[2]))
    elif kind == "spell":
        yield from spell(st, f, parts[1], st.f(parts[2]), int(parts[3]))
    elif kind == "sc":
        yield from spellcards.sc_attack(st, f, parts[1], parts[2] if len(parts) > 2 else None)
    elif kind == "other":
        other(st, f, int(parts[1]))


def barrage(st: SengensyouState, f: Fighter, v: Variant) -> Flow:
    """G-R18 / G-R20 / G-G07: 1 DP; every enemy (back row and hidden included) pays the DP
    reduction (→ graze) or takes the fixed damage; no evasion or guard."""
    f.spend_dp(BARRAGE_DP)
    x, dmg = barrage_numbers(v, st.opt.barrage_base_damage)
    st.attack_serial += 1
    st.emit_lazy("barrage", "G-R18,G-R20,G-G06", _barrage_text, (f.name, v.bullet.name, f.dp, x, dmg),
                 who=f.id, reduction=x, damage=dmg, src=v.key)
    for t in st.enemies(f):
        yield from barrage_target(st, f, t, x, dmg)
        if st.update_end():
            return
    if st.fx.book.active:  # G-G08: allies roll to recover from status conditions (status.py)
        barrage_recovery(st, f)


def _barrage_text(name: str, bullet: str, dp: int, x: int, dmg: int) -> str:
    return f"{name} 弾幕 {bullet} (DP{BARRAGE_DP}消費 → {dp}): 敵全員にDP減少{x} または 固定ダメージ{dmg}"


def barrage_target(st: SengensyouState, f: Fighter, t: Fighter, x: int, dmg: int) -> Flow:
    """One target of a 弾幕: 防御専念 halving (切り上げ), then 霊撃, then pay or take (G-G07)."""
    if t.focus:
        hx, hd = -(-x // 2), -(-dmg // 2)  # 切り上げ of a half: the exact integer ceiling
        st.emit("focus_halve", "G-R07,G-G25",
                f"{t.name} 防御専念: 弾幕を半減 DP減少{x}→{hx}, ダメージ{dmg}→{hd} (切り上げ)", who=t.id,
                reduction=hx, damage=hd)
        x, dmg = hx, hd
    while True:
        if x <= 0:
            st.emit("barrage_void", "G-R12", f"{t.name} への弾幕は霊撃で無効化 (DP減少0)", who=t.id)
            return
        # pay / take are kept per their numbers (issue #12: the same few come back all battle)
        opts = [*st.options(("barrage_pay", t.dp, x), _pay_option, t.dp, x)] if t.dp >= x else []
        opts += st.options(("barrage_take", dmg, t.hp), _take_option, dmg, t.hp)
        if t.graze >= graze.REIGEKI_RATE:
            opts += graze.reigeki_options(t, x)
        opts += spellcards.reaction_options(st, t)
        if len(opts) == 1:
            st.emit("barrage_short", "G-R11,G-G07",
                    f"{t.name} はDP不足 (DP{t.dp} < {x}) のため弾幕が命中, グレイズ無し", who=t.id, dp=t.dp)
            key = "barrage:take"
        else:
            # "barrage" is REFRESHED: the decision is yielded here, not through ask() (issue #12)
            key = yield Decision.lazy(t.id, "barrage", _barrage_prompt, (t.name, f.name, x, dmg), tuple(opts))
        if key == GM_REFRESH:  # a GM ruling changed what the options depend on (issue #8 §2)
            continue
        if key.startswith("graze:reigeki:"):
            x = graze.spend_reigeki(st, t, int(key.split(":")[2]), x)
            continue
        if key.startswith(("deploy:", "shoudan:")):
            spellcards.use_free(st, t, key)
            continue
        if key.startswith("sc_defend:"):
            spellcards.defend(st, t, key.split(":")[1])
            return
        break
    if key == "barrage:pay":
        t.spend_dp(x)
        graze.gain(st, t, x, "G-R11", f"弾幕をDPで受けた (DP減少{x})")
        return
    yield from defence.damage(st, f, t, "barrage", dice=0, fixed=dmg, reduction=0, label="弾幕")


def _barrage_prompt(name: str, attacker: str, x: int, dmg: int) -> str:
    return f"{name}: {attacker}の弾幕 (DP減少{x} / ダメージ{dmg})"


def _pay_option(dp: int, x: int) -> list[Option]:
    return [Option("barrage:pay", f"DPで受ける (DP{dp}→{dp - x}, グレイズ+{x})", x, None, {})]


def _take_option(dmg: int, hp: int) -> list[Option]:
    return [Option("barrage:take", f"ダメージを受ける (固定{dmg}, HP{hp})", None, None, {"damage": dmg})]


def shot(st: SengensyouState, f: Fighter, t: Fighter, n: int, v: Variant) -> Flow:
    """G-R15 / G-R20: ショット with n DP = n d6 to hit; evaded → graze n + defender dice."""
    f.spend_dp(n)
    st.attack_serial += 1
    roll = st.check(f, v.check_base(f), n, f"{f.name} ショット")
    st.emit_lazy("shot", "G-R15,G-R20", _shot_text, (f.name, t.name, v.bullet.name, v.stat, v.check_skill, roll, f.dp),
                 who=f.id, target=t.id, dp=n, total=roll.total, faces=list(roll.faces))
    if not gm.far_hit(st, f, roll.total):
        return
    res = yield from defence.defend(st, f, t, "shot", roll.total)
    if res.outcome == "evaded":
        graze.gain(st, t, n + res.dice, "G-R11", f"ショット回避 (攻撃{n}D + 回避{res.dice}D)")
    elif res.outcome in ("hit", "guard_failed"):
        yield from defence.damage(st, f, res.target, "shot", dice=v.damage_dice, fixed=f.stat(v.stat) + v.fixed_damage,
                                  reduction=res.reduction, label="ショット")


def _shot_text(name: str, tname: str, bullet: str, stat: str, skill: str, roll: PoolRoll, dp: int) -> str:
    return f"{name} ショット→{tname} {bullet} {stat}+〈{skill}〉 {roll.show()} (DP→{dp})"


def homing(st: SengensyouState, f: Fighter, v: Variant, targets: list[tuple[Fighter, int]]) -> Flow:
    """G-R16 / G-R20: DP = 2 × targets (+2 per boost); fixed 達成値 (+10 per boost); damage dice
    halved (切り上げ); evaded → graze 2 × defender dice; each target defends alone (G-G34)."""
    cost = homing_cost([b for _, b in targets])
    f.spend_dp(cost)
    base = v.check_base(f)
    st.emit_lazy("homing", "G-R16,G-R20", _homing_text,
                 (f.name, v.bullet.name, cost, f.dp, base, tuple((t.name, b) for t, b in targets)),
                 who=f.id, cost=cost, base=base, targets=[t.id for t, _ in targets])
    for t, b in targets:
        if not t.active:
            continue
        st.attack_serial += 1
        total = base + HOMING_BOOST_BONUS * b
        if not gm.far_hit(st, f, total):  # G-R24 / G-G29: from 100 m the GM's TN applies to every hit
            continue
        res = yield from defence.defend(st, f, t, "homing", total)
        if res.outcome == "evaded":
            graze.gain(st, t, graze.HOMING_EVADE_FACTOR * res.dice, "G-R11",
                       f"ホーミング回避 (回避{res.dice}D × {graze.HOMING_EVADE_FACTOR})")
        elif res.outcome in ("hit", "guard_failed"):
            yield from defence.damage(st, f, res.target, "homing", dice=v.damage_dice,
                                      fixed=f.stat(v.stat) + v.fixed_damage, reduction=res.reduction,
                                      label="ホーミング")
        if st.update_end():
            return


def _homing_text(name: str, bullet: str, cost: int, dp: int, base: int, targets: tuple[tuple[str, int], ...]) -> str:
    return (f"{name} ホーミング {bullet} DP{cost}消費 (→{dp}) 達成値{base} (固定値) → "
            + ", ".join(f"{tname}{'+' + str(HOMING_BOOST_BONUS * b) if b else ''}" for tname, b in targets))


def melee(st: SengensyouState, f: Fighter, t: Fighter, n: int) -> Flow:
    """G-R17 / G-G15: approach (感覚+〈回避〉+nD vs 15+身体+max(〈回避〉,〈弾幕〉)); success →
    graze n to the attacker; then the hit check 身体+〈【近接武器】〉 with fresh DP."""
    f.spend_dp(n)
    tn = approach_tn(st, t)
    roll = st.check(f, f.stat("感覚") + f.skill("回避"), n, f"{f.name} 接近判定")
    ok = roll.total >= tn
    st.emit_lazy("approach", "G-R17,G-G15", _approach_text, (f.name, t.name, roll, ok, tn, f.dp), who=f.id,
                 target=t.id, dp=n, total=roll.total, tn=tn, success=ok)
    if not ok:
        return
    graze.gain(st, f, graze.APPROACH_FACTOR * n, "G-R11", f"接近判定成功 ({n}D)")
    if f.dp < 1 or not t.active:
        st.emit("melee_abort", "G-G10", f"{f.name} はDPが無く命中判定できない (ダイス1個以上必要)", who=f.id)
        return
    cap = f.dp if gm.attacker_dice_cap(st, f) is None else min(f.dp, gm.attacker_dice_cap(st, f) or 0)
    hb = melee_numbers(f)[0]
    ev = defence.evasion(st, f, t)  # (once, not twice per option: issue #12)
    opts = [Option.lazy(f"hit:{k}", partial(_hit_label, k, hb, odds), k, odds)
            for k in range(1, cap + 1) for odds in (defence.hit_odds_vs(st, ev, hb, k),)]
    key = yield from ask(f.id, "melee_hit", f"{f.name}: 近接攻撃の命中判定に使うDP (DP {f.dp})", opts)
    k = int(key.split(":")[1])
    f.spend_dp(k)
    st.attack_serial += 1
    base, ddice, dfixed = melee_numbers(f)
    hit = st.check(f, base, k, f"{f.name} 近接命中")
    st.emit_lazy("melee", "G-R17", _melee_text, (f.name, hit, f.dp), who=f.id, target=t.id, dp=k, total=hit.total)
    res = yield from defence.defend(st, f, t, "melee", hit.total)
    if res.outcome in ("hit", "guard_failed"):
        yield from defence.damage(st, f, res.target, "melee", dice=ddice, fixed=dfixed, reduction=res.reduction,
                                  label="近接攻撃")


def _approach_text(name: str, tname: str, roll: PoolRoll, ok: bool, tn: int, dp: int) -> str:
    return (f"{name} 近接攻撃→{tname} 接近判定 感覚+〈回避〉 {roll.show()} {'≥' if ok else '<'} {tn} "
            f"{'成功' if ok else '失敗'} (DP→{dp})")


def _melee_text(name: str, hit: PoolRoll, dp: int) -> str:
    return f"{name} 近接命中判定 身体+〈【近接武器】〉 {hit.show()} (DP→{dp})"


def _hit_label(k: int, base: int, odds: float) -> str:
    return f"命中判定 {k}DP {base}+{k}D6 (全DP回避でも命中{odds:.0%})"


def spell(st: SengensyouState, f: Fighter, sp_id: str, t: Fighter, n: int) -> Flow:
    """G-R20 / G-G22: スペル with ≤ 3D, costs 霊力; activation vs the data TN; the target
    resists (G-G21: TN from the data, fallback 10 + caster ability Lv) or defends against
    the activation 達成値."""
    sp = f.cat.spells[sp_id]
    f.spend_dp(n)
    f.reiryoku -= sp.reiryoku
    st.attack_serial += 1
    roll = st.check(f, f.stat(sp.stat) + f.ability(sp.ability), n, f"{f.name} {sp.name}")
    ok = roll.total >= sp.tn
    st.emit_lazy("spell", "G-R20,G-G22", _spell_text, (f.name, sp.name, t.name, sp.reiryoku, roll, ok, sp.tn),
                 who=f.id, target=t.id, total=roll.total, success=ok)
    if not ok:
        return
    if sp.resist is not None:
        tn = sp.resist_tn if sp.resist_tn is not None else RESIST_TN_FALLBACK_BASE + f.ability(sp.ability)
        resisted = yield from defence.resist(st, f, t, sp.resist, tn)
        if not resisted:
            yield from defence.damage(st, f, t, "spell", dice=sp.damage_dice, fixed=f.stat(sp.damage_stat),
                                      reduction=0, label=sp.name)
        return
    res = yield from defence.defend(st, f, t, "spell", roll.total)
    if res.outcome in ("hit", "guard_failed"):
        yield from defence.damage(st, f, res.target, "spell", dice=sp.damage_dice, fixed=f.stat(sp.damage_stat),
                                  reduction=res.reduction, label=sp.name)


def _spell_text(name: str, spell: str, tname: str, rei: int, roll: PoolRoll, ok: bool, tn: int) -> str:
    return (f"{name} スペル {spell}→{tname} 霊力{rei}消費 発動判定 {roll.show()} "
            f"{'≥' if ok else '<'} {tn} {'成功' if ok else '失敗'}")


def other(st: SengensyouState, f: Fighter, n: int) -> None:
    """G-R02 / G-G33: an "other" action: ≤ 3D, outcome for the GM."""
    f.spend_dp(n)
    roll = st.check(f, 0, n, f"{f.name} その他")
    st.emit_lazy("other", "G-R02,G-G33", _other_text, (f.name, roll), who=f.id, dp=n, total=roll.total)


def _other_text(name: str, roll: PoolRoll) -> str:
    return f"{name} その他の行動 {roll.show()} (最大3D, 結果はGM裁定)"
