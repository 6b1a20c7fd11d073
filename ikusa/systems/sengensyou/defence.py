"""Defence (G-R05, G-R19, G-G09, G-G16), damage (G-G23, G-R22) and resistance (G-G21).

One defence per attack, declared after seeing its 達成値 (G-R05): 回避 (感覚+〈回避〉+DP),
ガード (身体+〈【近接武器】〉+DP; once per turn; not vs 弾幕; may cover an ally from the front
row; a failed guard still reduces damage by 2 × weapon Lv; no graze).  Success: 達成値 ≥
the attack's (ties to the defender, G-G09).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import NamedTuple

from mypy_extensions import mypyc_attr

from ikusa.engine.protocol import Decision, Option
from ikusa.systems.sengensyou import gm, graze, spellcards
from ikusa.systems.sengensyou.character import Fighter
from ikusa.systems.sengensyou.check import fixed_dice_value
from ikusa.systems.sengensyou.checks_flow import PoolRoll, fewest_dice, p_at_least, p_beats_by, roll_damage
from ikusa.systems.sengensyou.column_option import Column, column_option
from ikusa.systems.sengensyou.effects import GM_REFRESH
from ikusa.systems.sengensyou.state import Flow, SengensyouState, ask

KIND_JA = {"shot": "ショット", "homing": "ホーミング", "melee": "近接攻撃", "spell": "スペル", "barrage": "弾幕",
           "sc": "スペルカード"}


@mypyc_attr(allow_interpreted_subclasses=True)  # copied via cls.__new__ (deepcopy, pickle): see setup.py
@dataclass(slots=True)
class DefenceResult:
    target: Fighter
    outcome: str  # hit | evaded | guarded | guard_failed | nullified | auto_evaded (G-R24)
    dice: int = 0
    reduction: int = 0


Flow_DR = Generator[Decision, str, DefenceResult]
Flow_bool = Generator[Decision, str, bool]


#: the damage-table rule of each attack kind
DAMAGE_RULE = {"shot": "G-R15", "homing": "G-R16,G-G14", "melee": "G-R17", "barrage": "G-R18,G-G06",
               "spell": "G-G22", "sc": "G-R21,G-G24"}


def succeeds(st: SengensyouState, total: int, attack: int) -> bool:
    """G-G09: ties go to the defender by default."""
    return total >= attack if st.opt.defence_tie == "defender" else total > attack


def evade_base(st: SengensyouState, t: Fighter) -> int:
    """回避 判定値: 感覚 + 〈回避〉 (+5 in 防御専念, G-R07)."""
    return t.stat("感覚") + t.skill("回避") + (st.opt.focus_bonus if t.focus else 0)


def tie_shift(st: SengensyouState) -> int:
    """G-G09: a defence succeeds when its 達成値 ≥ attack + this (0: ties to the defender)."""
    return st.tie


def check_odds(st: SengensyouState, who: Fighter, base: int, n: int, target: int) -> float:
    """P(``who``'s check 判定値 ``base`` + n d6 ≥ ``target``); certain (1 or 0) when ``who``
    uses the GM's fixed values (G-R29)."""
    if st.uses_fixed_dice(who):
        return 1.0 if base + st.fixed_dice(n) >= target else 0.0
    return p_at_least(base, n, target)


def defence_odds(st: SengensyouState, who: Fighter, base: int, n: int, attack: int) -> float:
    """Chance a defence (回避/ガード) with n dice succeeds against 達成値 ``attack`` (G-G09)."""
    return check_odds(st, who, base, n, attack + tie_shift(st))


class Evasion(NamedTuple):
    """What one defender can put against one attacker now (surprise caps and penalties,
    G-R24; ties per G-G09; fixed NPC values per G-R29): the part of :func:`hit_odds` and
    :func:`dp_to_evade` that does not depend on the attack's dice, worked out once per target
    when a whole option list is built (issue #12; a tuple: it keys the shot memo, hashed in C)."""

    dp: int  # dice it may use
    no_evasion: bool
    base: int  # 回避 判定値 after the surprise penalty
    shift: int  # tie_shift
    fixed: bool  # the defender uses fixed values (G-R29)
    attacker_fixed: bool


def evasion(st: SengensyouState, a: Fighter, t: Fighter) -> Evasion:
    fixed = st.fixed_npcs  # G-R29 (SengensyouState.uses_fixed_dice, inlined: issue #12)
    pcs = st.pcs
    if not a.hidden and st.ambush is None:  # no surprise possible (gm.surprise gives NONE)
        return Evasion(t.dp, False, evade_base(st, t), st.tie, fixed and t.spec.side != pcs,
                       fixed and a.spec.side != pcs)
    sup = gm.surprise(st, a, t)
    dp = t.dp if sup.dice_cap is None else min(t.dp, sup.dice_cap)
    return Evasion(dp, sup.no_evasion, evade_base(st, t) - sup.penalty, st.tie, fixed and t.spec.side != pcs,
                   fixed and a.spec.side != pcs)


def hit_odds(st: SengensyouState, a: Fighter, t: Fighter, base: int, n: int) -> float:
    """Chance that ``a``'s attack (``base`` + n d6) still hits when ``t`` evades with *all* the
    DP it may use (surprise caps and penalties included, G-R24; ties per G-G09; fixed NPC
    values per G-R29).  1.0 when ``t`` cannot evade."""
    return hit_odds_vs(st, evasion(st, a, t), base, n)


def hit_odds_vs(st: SengensyouState, ev: Evasion, base: int, n: int) -> float:
    """:func:`hit_odds` against a defender's :class:`Evasion`."""
    dp = ev.dp
    if dp == 0 or ev.no_evasion:
        return 1.0
    eb = ev.base - ev.shift  # defender succeeds iff eb' + dice ≥ attack
    if ev.fixed:
        target = eb + st.fixed_dice(dp) + 1
        if ev.attacker_fixed:
            return 1.0 if base + st.fixed_dice(n) >= target else 0.0
        return p_at_least(base, n, target)
    if ev.attacker_fixed:
        return 1.0 - p_at_least(eb, dp, base + st.fixed_dice(n))
    return 1.0 - p_beats_by(base - eb, dp, n)  # = p_beats(eb, dp, base, n)


def dp_to_evade(st: SengensyouState, a: Fighter, t: Fighter, base: int, n: int) -> int | None:
    """The fewest dice with which ``t`` evades ``a``'s average attack (base + 3.5 n) at least
    half the time — what a shot of n DP is likely to cost the target (G-R31: shots force DP
    spending).  None when no amount it may use suffices."""
    return dp_to_evade_vs(st.opt.fixed_roll_rounding, evasion(st, a, t), base, n)


def dp_to_evade_vs(rounding: str, ev: Evasion, base: int, n: int) -> int | None:
    """:func:`dp_to_evade` against a defender's :class:`Evasion` (``rounding``: the option
    ``fixed_roll_rounding`` of the GM's fixed values, G-G30)."""
    if ev.no_evasion:
        return None
    target = base + (7 * n + 1) // 2 + ev.shift  # 切り上げ(3.5 n) for n ≥ 0 (G-G30), ties per G-G09
    eb = ev.base
    if ev.fixed:
        for k in range(1, ev.dp + 1):
            if eb + fixed_dice_value(k, "ceil" if rounding == "ceil" else "floor") >= target:
                return k
        return None
    return fewest_dice(target - eb, ev.dp)


def guard_base(st: SengensyouState, g: Fighter) -> int:
    return g.stat("身体") + g.skill("近接武器") + (st.opt.focus_bonus if g.focus else 0)


def can_guard(g: Fighter) -> bool:
    """G-R19 / G-G16: a melee weapon skill, DP for ≥ 1 die, and not yet guarded this turn."""
    return g.skill("近接武器") > 0 and not g.guard_used and g.dp >= 1


def defence_options(st: SengensyouState, a: Fighter, t: Fighter, kind: str, total: int,
                    declined: set[str]) -> list[Option]:
    """The defender's legal choices against one attack with 達成値 ``total``."""
    sup = gm.surprise(st, a, t)
    opts = [*st.options(("none", kind), _no_defence, kind)]
    if sup.no_evasion:
        opts += spellcards.reaction_options(st, t)
        return opts
    cap = t.dp if sup.dice_cap is None else min(t.dp, sup.dice_cap)
    eb = t.stat("感覚") + t.skill("回避") + (st.opt.focus_bonus if t.focus else 0) - sup.penalty
    fixed = st.uses_fixed_dice(t)  # the only thing defence_odds reads of t (G-R29)
    opts += _checks(st, ("evade", eb, total, fixed, 0), cap, _evade_label, (eb, total))
    if can_guard(t):
        gb = guard_base(st, t) - sup.penalty
        red = st.opt.guard_reduction_per_lv * t.skill("近接武器")
        opts += _checks(st, ("guard", gb, total, fixed, red), cap, _guard_label, (gb, total, red))
    for g in st.allies(t):
        if g.row == "front" and can_guard(g) and not g.hidden and g.id not in declined:
            opts.append(Option(f"cover:{g.id}", f"{g.name}にガードを頼む (前衛からの他人へのガード)",
                               data={"defence": "cover", "guard": g.id}))
    opts += spellcards.reaction_options(st, t)
    return opts


def _no_defence(kind: str) -> list[Option]:
    return [Option("none", f"防御しない ({KIND_JA[kind]}を受ける)")]


def _checks(st: SengensyouState, key: tuple[str, int, int, bool, int], cap: int,
            label: Callable[..., str], shared: tuple[int, ...]) -> tuple[Option, ...]:
    """The 回避 or ガード options (``key`` = its name, 判定値, the attack's 達成値, whether the
    defender uses fixed values, and the guard's reduction) with 1 … ``cap`` dice.  Issue #12: kept on the encounter and
    made longer when a later defence has more DP (the options at n dice do not depend on how
    many more it has; a longer copy replaces the kept one)."""
    memo = st.grow_memo
    got: tuple[Option, ...] = memo.get(key, ((), (), ()))[2]
    if len(got) < cap:
        what, base, total, fixed, _ = key
        col: Column = (label, shared)  # the label: label(*shared, n, odds)
        got += tuple(column_option(f"{what}:{n}", col, n, _pool_odds(st, fixed, base, n, total + st.tie),
                                   {"defence": what, "dp": n})
                     for n in range(len(got) + 1, cap + 1))
        memo[key] = ((), (), got)
    return got[:cap]


def _pool_odds(st: SengensyouState, fixed: bool, base: int, n: int, target: int) -> float:
    """:func:`check_odds` for a checker who does (``fixed``) or does not use fixed values."""
    if fixed:
        return 1.0 if base + st.fixed_dice(n) >= target else 0.0
    return p_at_least(base, n, target)


def _evade_label(eb: int, total: int, n: int, _odds: float) -> str:
    return f"回避 感覚+〈回避〉{eb}+{n}D6 ≥ {total}"


def _guard_label(gb: int, total: int, red: int, n: int, _odds: float) -> str:
    return f"ガード 身体+〈【近接武器】〉{gb}+{n}D6 ≥ {total} (失敗でも-{red})"


def defend(st: SengensyouState, a: Fighter, t: Fighter, kind: str, total: int) -> Flow_DR:
    """G-R05: the defender sees ``total`` and declares at most one defence."""
    card = gm.range_guard(st, a, t)
    if card is not None:  # G-R24: out of range of a side whose spell card reaches further
        st.emit("range_evaded", "G-R24", f"{t.name}: {card.name} の射程 {card.range_m}m > "
                f"{gm.EFFECTIVE_RANGE_M}m → {a.name}の30m外からの{KIND_JA[kind]}は自動回避 (グレイズ無し)",
                who=t.id, attacker=a.id, card=card.id, serial=st.attack_serial)
        return DefenceResult(t, "auto_evaded")
    declined: set[str] = set()
    while True:
        opts = defence_options(st, a, t, kind, total, declined)
        if len(opts) == 1:
            st.emit("no_defence", "G-G09,G-G10",
                    f"{t.name} は防御できない (DP{t.dp}) → {KIND_JA[kind]}命中", who=t.id)
            return DefenceResult(t, "hit")
        # "defence" is REFRESHED: the decision is yielded here, not through ask() (issue #12)
        key = yield Decision.lazy(t.id, "defence", _defence_prompt, (t.name, a.name, kind, total, t.dp), tuple(opts))
        if key == GM_REFRESH:  # a GM ruling changed what the options depend on (issue #8 §2)
            continue
        if key.startswith(("deploy:", "shoudan:")):
            spellcards.use_free(st, t, key)
            continue
        if key.startswith("sc_defend:"):
            spellcards.defend(st, t, key.split(":")[1])
            return DefenceResult(t, "nullified")
        if key.startswith("cover:"):
            g = st.f(key.split(":")[1])
            gopts = [Option(f"guard:{n}", f"{t.name}をかばってガード {guard_base(st, g)}+{n}D6 ≥ {total}", cost=n,
                            odds=defence_odds(st, g, guard_base(st, g), n, total)) for n in range(1, g.dp + 1)]
            gopts.append(Option("decline", "ガードしない"))
            gkey = yield from ask(g.id, "cover", f"{g.name}: {t.name}への{KIND_JA[kind]} 達成値{total} をガードするか",
                                  gopts)
            if gkey == "decline":
                declined.add(g.id)
                st.emit("cover_declined", "G-G16", f"{g.name} は{t.name}のガードを断る", who=g.id)
                continue
            return guard(st, g, t, int(gkey.split(":")[1]), total)
        if key == "none":
            st.emit("no_defence", "G-G09", f"{t.name} 防御しない → {KIND_JA[kind]}命中", who=t.id)
            return DefenceResult(t, "hit")
        what, n = key.split(":")
        if what == "guard":
            return guard(st, t, t, int(n), total)
        return evade(st, a, t, int(n), total)


def _defence_prompt(name: str, attacker: str, kind: str, total: int, dp: int) -> str:
    return f"{name}: {attacker}の{KIND_JA[kind]} 達成値{total} に対する防御 (DP {dp})"


def evade(st: SengensyouState, a: Fighter, t: Fighter, n: int, total: int) -> DefenceResult:
    sup = gm.surprise(st, a, t)
    t.spend_dp(n)
    focus = st.opt.focus_bonus if t.focus else 0
    roll = st.check(t, t.stat("感覚") + t.skill("回避") + focus - sup.penalty, n, f"{t.name} 回避")
    ok = succeeds(st, roll.total, total)
    extra = (f" 防御専念+{focus}" if focus else "") + (f" 不意打ち-{sup.penalty}" if sup.penalty else "")
    st.emit_lazy("evade", "G-R05,G-R19,G-G09", _evade_text, (t.name, extra, roll, ok, total, t.dp), who=t.id, dp=n,
                 total=roll.total, attack=total, success=ok, serial=st.attack_serial)
    return DefenceResult(t, "evaded" if ok else "hit", dice=n)


def _evade_text(name: str, extra: str, roll: PoolRoll, ok: bool, total: int, dp: int) -> str:
    return (f"{name} 回避 感覚+〈回避〉{extra} {roll.show()} {'≥' if ok else '<'} {total} "
            f"{'成功' if ok else '失敗'} (DP→{dp})")


def guard(st: SengensyouState, g: Fighter, t: Fighter, n: int, total: int) -> DefenceResult:
    """G-R19 / G-G16: once per turn; success blocks; failure reduces damage by 2 × Lv."""
    g.spend_dp(n)
    g.guard_used = True
    roll = st.check(g, guard_base(st, g), n, f"{g.name} ガード")
    ok = succeeds(st, roll.total, total)
    red = st.opt.guard_reduction_per_lv * g.skill("近接武器")
    who = "" if g is t else f" ({t.name}をかばう)"
    st.emit("guard", "G-R19,G-G16",
            f"{g.name} ガード{who} 身体+〈【近接武器】〉 {roll.show()} {'≥' if ok else '<'} {total} "
            + ("成功 (効果を受けない)" if ok else f"失敗 (ダメージ -{red})") + f" (DP→{g.dp}, 1ターン1回)",
            who=g.id, target=t.id, dp=n, total=roll.total, attack=total, success=ok, reduction=0 if ok else red,
            serial=st.attack_serial, turn=st.turn)
    return DefenceResult(t, "guarded" if ok else "guard_failed", dice=n, reduction=0 if ok else red)


def resist(st: SengensyouState, a: Fighter, t: Fighter, skill: str, tn: int) -> Flow_bool:
    """G-G21: 意志+〈精神抵抗〉 or 耐久+〈肉体抵抗〉, ≤ 3D, +5 in 防御専念; graze 3:1 (G-R12)."""
    stat = "意志" if skill == "精神抵抗" else "耐久"
    base = t.stat(stat) + t.skill(skill) + (st.opt.focus_bonus if t.focus else 0)
    cap = min(t.dp, st.opt.resist_max_dice)
    opts = [Option(f"resist:{n}", f"{stat}+〈{skill}〉{base}+{n}D6 ≥ {tn}", cost=n, odds=check_odds(st, t, base, n, tn))
            for n in range(0, cap + 1)]
    key = yield from ask(t.id, "resist", f"{t.name}: {a.name}のスペルに〈{skill}〉で抵抗 (目標{tn})", opts)
    n = int(key.split(":")[1])
    t.spend_dp(n)
    roll = st.check(t, base, n, f"{t.name} 抵抗")
    total = roll.total
    if total < tn and t.graze >= 3:
        need = tn - total
        gopts = [Option("graze:resist:0", "グレイズを使わない")]
        gopts += [Option(f"graze:resist:{k}", f"グレイズ{3 * k}で達成値+{k}", cost=3 * k)
                  for k in range(1, min(need, t.graze // 3) + 1)]
        gkey = yield from ask(t.id, "graze_resist", f"{t.name}: 抵抗 {total} < {tn}。グレイズ({t.graze})を使うか",
                              gopts)
        total += graze.spend_resist(st, t, int(gkey.split(":")[2]))
    ok = total >= tn
    st.emit("resist", "G-G21,G-R12", f"{t.name} 抵抗 {stat}+〈{skill}〉 {roll.show()} → {total} "
            f"{'≥' if ok else '<'} {tn} {'成功' if ok else '失敗'}", who=t.id, total=total, tn=tn, success=ok)
    return ok


def damage(st: SengensyouState, a: Fighter, t: Fighter, kind: str, *, dice: int, fixed: int, reduction: int,
           label: str) -> Flow:
    """Damage: roll, graze boost (shot 2:1, melee 1:1; G-R12, G-G18), guard reduction,
    defensive spell card (G-R21), deployed card HP (G-G24), HP, 手加減 (G-R22)."""
    faces = roll_damage(dice, st.dice, f"{a.name} {label} ダメージ", a.id)
    amount = sum(faces) + fixed
    st.emit_lazy("damage_roll", DAMAGE_RULE[kind], _damage_roll_text, (a.name, label, dice, faces, fixed, amount),
                 who=a.id, target=t.id, faces=list(faces), amount=amount)
    rate = graze.BOOST_RATE.get(kind)
    if rate is not None and a.graze >= rate:
        gopts = [Option(f"graze:{kind}:{k}", "グレイズを使わない" if k == 0 else f"グレイズ{rate * k}でダメージ+{k}",
                        cost=rate * k) for k in range(0, a.graze // rate + 1)]
        prompt = f"{a.name}: {label}のダメージ{amount}をグレイズ({a.graze})で強化するか"
        key = yield from ask(a.id, "graze_boost", prompt, gopts)
        amount += graze.spend_boost(st, a, kind, int(key.split(":")[2]))
    if reduction:
        before = amount
        amount = max(0, amount - reduction)
        st.emit("guard_reduce", "G-R19,G-G16", f"ガード失敗による軽減 {before}-{reduction}={amount}",
                reduction=reduction)
    opts = spellcards.defend_options(st, t)
    if opts and amount > 0:
        key = yield from ask(t.id, "sc_defence", f"{t.name}: {amount}ダメージ。防御のスペルカードを使うか",
                             [Option("accept", "受ける"), *opts])
        if key != "accept":
            spellcards.defend(st, t, key.split(":")[1])
            return
    amount = spellcards.absorb(st, t, amount)
    if amount <= 0:
        return
    before = t.hp
    t.hp -= amount
    st.emit_lazy("damage", "G-G23", _damage_text, (t.name, amount, before, max(t.hp, 0), t.hp_max), who=t.id,
                 amount=amount, hp=max(t.hp, 0))
    if t.hp <= 0:
        yield from knock_out(st, a, t)


def _damage_roll_text(name: str, label: str, dice: int, faces: tuple[int, ...], fixed: int, amount: int) -> str:
    shown = f"{dice}D6[{','.join(map(str, faces))}]+{fixed}={amount}" if dice else f"固定{amount}"
    return f"{name} {label} ダメージ {shown}"


def _damage_text(name: str, amount: int, before: int, hp: int, hp_max: int) -> str:
    return f"{name} に{amount}ダメージ (HP {before}→{hp}/{hp_max})"


def knock_out(st: SengensyouState, a: Fighter, t: Fighter) -> Flow:
    """G-R22 手加減 / G-G23: HP 0 → the attacker chooses 気絶, or HP 1 and out of the fight."""
    key = yield from ask(a.id, "tekagen", f"{a.name}: {t.name}のHPが0になる。手加減するか",
                         [Option("tekagen:faint", "気絶させる"), Option("tekagen:spare", "手加減: HP1で戦闘不能")])
    t.down = True
    if key == "tekagen:spare":
        t.hp = 1
        t.spared = True
        st.emit("spared", "G-R22", f"{a.name} 手加減: {t.name} は HP1 で戦闘不能 (会話・ゆっくり移動は可)", who=t.id)
    else:
        t.hp = 0
        st.emit("fainted", "G-R22,G-G23", f"{t.name} 気絶 (HP0)", who=t.id)
    st.update_end()

