"""Legal options of the acting character, and the rule that forbids every other one.

Each candidate action is built with the reason it is illegal (a RuleViolation naming the
F-id and the 002 section) or ``None``; the options are the legal ones, and
``explain_illegal`` returns the stored reason, so a refusal always names its rule.
Option keys (stable, readable, part of the save format)::

    attack:<weapon>:<target>   trip:<target>   cast:<spell>:<target|unit|unit.front|self>
    advance:fore|rear   withdraw   lead:<ally>   stand   wake:<ally>   cover   end
    run:fore|rear   aim   breathe   (lines.py: 全力移動, 射線の確保, 呼吸を整える)
    place:keep|front.fore|front.rear|back (round-1 formation of the surprised, state.py, F-R04)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ikusa.engine.errors import RuleViolation
from ikusa.engine.protocol import Option
from ikusa.systems.fantasy import lines
from ikusa.systems.fantasy.actions import attack_mods, evade_tags, move_cost, move_distance, spell_tags
from ikusa.systems.fantasy.cand import HOST, Cand
from ikusa.systems.fantasy.cand import cost_reason as _cost_reason
from ikusa.systems.fantasy.cand import reach_if as _reach_if
from ikusa.systems.fantasy.cand import rv as _rv
from ikusa.systems.fantasy.character import Fighter, WeaponSpec
from ikusa.systems.fantasy.option_list import legal_options, spell_targets
from ikusa.systems.fantasy.resolution import auto_fail_probability, hit_probability, success_probability

if TYPE_CHECKING:
    from ikusa.systems.fantasy.state import FantasyState

def _hit_odds(st: FantasyState, f: Fighter, t: Fighter, tags: tuple[str, ...], margin: int, melee: bool) -> float:
    """Exact P(hit) with every modifier that would apply (F-H04, F-R10/F-R11 always-hit)."""
    m = margin + sum(a.value for a in attack_mods(st, f, t, tags))
    if st.flag(t, "always_hit") or st.flag(t, "can_evade"):
        return 1.0 - auto_fail_probability(st.opts)
    m -= sum(a.value for a in st.mods(t, evade_tags(st, f, t, melee)))
    return hit_probability(m, st.opts)


def _fail_odds(st: FantasyState, t: Fighter, tn: int) -> float:
    """P(直感ST(回避) fails against ``tn``) — 1 when a condition forbids it (F-R10/F-R11)."""
    tag = "st.intuition.avoid"
    if st.blocked(t, (tag,)) is not None:
        return 1.0
    base = t.spec.values.intuition + sum(a.value for a in st.mods(t, (tag,)))
    return 1.0 - success_probability(base, tn, st.opts)


def weapon_block(st: FantasyState, f: Fighter, w: WeaponSpec) -> RuleViolation | None:
    """F-R17/F-G14: weapons 水中 forbids."""
    for _c, d in st.effective(f):
        lim = d.weapons
        if lim is None:
            continue
        sec = f"002 不利な環境 [{d.name}]"
        if w.kind == "melee" and lim.melee_allowed is not None and w.category not in lim.melee_allowed:
            return _rv("F-R17", sec, f"{d.name}では{w.name}({w.category})は使えない; 使えるのは "
                       f"{', '.join(lim.melee_allowed)} かそれに類する武器")
        if w.kind == "ranged" and w.category in lim.ranged_forbidden:
            return _rv("F-R17", sec, f"{d.name}では{w.name}({w.category})は役に立たない")
        slender_ok = w.slender and w.damage_type in lim.thrown_falloff
        if w.kind == "thrown" and lim.thrown_slender_only and not slender_ok:
            return _rv("F-R17,F-G14", sec,
                       f"{d.name}で使える投擲武器は細長く抵抗の少ない刺/叩のもの(ジャベリンなど)のみ")
    return None


def weapon_range(st: FantasyState, f: Fighter, w: WeaponSpec) -> int:
    """F-R17/F-T16: thrown range halved underwater."""
    factor = 1.0
    if w.kind == "thrown":
        for _c, d in st.effective(f):
            if d.weapons is not None:
                factor = min(factor, d.weapons.thrown_range_factor)
    return int(w.range_m * factor)


def candidates(st: FantasyState, f: Fighter) -> list[Cand]:
    """Every action ``f`` might take, each with the rule forbidding it or None (the legal ones
    are built directly by option_list.py: the same options, without the refusals)."""
    out: list[Cand] = []
    o = st.opts
    form = st.formation
    enemies = [e for e in st.fighters.values() if e.side != f.side and not e.out]
    reach = form.melee_targets(f)
    no_melee = st.flag(f, "can_melee")

    melee_why: dict[str, RuleViolation | None] = {}  # by target: the weapons and ≪足払い≫ share it

    def melee_reason(t: Fighter) -> RuleViolation | None:
        if t.id in melee_why:
            return melee_why[t.id]
        why = melee_why[t.id] = _melee_reason(t)
        return why

    def _melee_reason(t: Fighter) -> RuleViolation | None:
        if f.row != "front":
            return _rv("F-H08", HOST, f"{f.name} は後衛にいるので近接攻撃できない (前衛へ移動が必要)")
        if no_melee is not None:
            return _rv(no_melee.rule, f"002 状態異常 [{no_melee.name}]",
                       f"{f.name} は{no_melee.name}状態では近接攻撃できない"
                       + ("「立ち上がる」が必要" if no_melee.id == "prone" else ""))
        if t not in reach:
            return _rv("F-H08", HOST, f"{t.name} はエンゲージエリア外か前衛に守られている (近接攻撃の届く相手: "
                       f"{'、'.join(x.name for x in reach) or 'なし'})")
        if o.cost_attack > f.actions:
            return _rv("F-H07", HOST, f"アクションが足りない (必要{o.cost_attack}, 残り{f.actions})")
        return None

    odds_of: dict[tuple[str, tuple[str, ...], int, bool], float] = {}

    def hit_odds(t: Fighter, tags: tuple[str, ...], margin: int, melee: bool) -> float:
        """_hit_odds, once per target and check (a melee weapon and ≪足払い≫ share it)."""
        key = (t.id, tags, margin, melee)
        got = odds_of.get(key)
        if got is None:
            got = odds_of[key] = _hit_odds(st, f, t, tags, margin, melee)
        return got

    why: RuleViolation | None
    for w in f.spec.weapons:
        wb = weapon_block(st, f, w)
        for t in enemies:
            if w.kind == "melee":
                why = wb or melee_reason(t)
                margin = f.spec.values.melee - t.spec.values.evasion
                label = f"近接攻撃 {w.name} → {t.name}"
            else:
                why = wb or lines.ammo_block(f, w)
                dist = form.distance(f, t)
                rng = weapon_range(st, f, w)
                if why is None and not form.line_of_fire(f, t):
                    why = _rv("F-R09", "002 特殊な場所での戦闘 例3",
                              f"{st.field.name}: 後衛から敵後衛への射線は通らない")
                if why is None:
                    why = lines.screened(st, f, t)
                if why is None and dist > rng:
                    halved = rng < w.range_m
                    why = _rv("F-R17" if halved else "F-H05", "002 不利な環境 [水中]" if halved else HOST,
                              f"{t.name} まで{dist}m、{w.name}の射程{rng}m"
                              + (f" (水中で半減: {w.range_m}m→{rng}m)" if halved else ""))
                if why is None and o.cost_attack > f.actions:
                    why = _rv("F-H07", HOST, f"アクションが足りない (必要{o.cost_attack}, 残り{f.actions})")
                margin = f.spec.values.ranged - t.spec.values.evasion
                label = (f"{'投擲' if w.kind == 'thrown' else '射撃'} {w.name} → {t.name} ({dist}m)"
                         f"{lines.ammo_label(f, w)}")
            odds = None
            if why is None:
                tags = ("attack.melee",) if w.kind == "melee" else ("attack.ranged",) + (
                    ("attack.thrown",) if w.kind == "thrown" else ())
                odds = hit_odds(t, tags, margin, w.kind == "melee")
            out.append(Cand(f"attack:{w.id}:{t.id}", label, o.cost_attack, why, odds,
                            {"action": "attack", "weapon": w.id, "target": t.id,
                             "expected_damage": w.damage_dice * 3.5 + w.damage_bonus, "target_hp": t.hp}))
    if any(w.kind == "melee" for w in f.spec.weapons):
        for t in enemies:
            why = melee_reason(t)
            data: dict[str, Any] = {"action": "trip", "target": t.id, "target_hp": t.hp}
            odds = None
            if why is None:
                odds = hit_odds(t, ("attack.melee",), f.spec.values.melee - t.spec.values.evasion, True)
                if st.field.trip_fall_tn is not None:
                    data["fall_odds"] = _fail_odds(st, t, st.field.trip_fall_tn)
            label = f"≪足払い≫ → {t.name}" + ("" if st.field.trip_fall_tn is None else
                                               f" (崖: 直感ST目標値{st.field.trip_fall_tn}で転落)")
            out.append(Cand(f"trip:{t.id}", label, o.cost_attack, why, odds, data))
    for sp in f.spec.spells:
        tags = spell_tags(sp)
        why = None
        for _c, d in st.effective(f):
            sec = f"002 状態異常 [{d.name}]"
            if sp.target == "single" and not d.single_target_magic:
                why = _rv(d.rule, sec, f"{d.name}では対象を個別に指定する魔法は行使できない")
            elif sp.target == "area" and sp.center != "self" and d.area_magic_self_only:
                why = _rv(d.rule, sec, f"{d.name}では範囲魔法は自分を中心にしか発動できない")
        if why is None and o.cost_cast > f.actions:
            why = _rv("F-H07", HOST, f"アクションが足りない (必要{o.cost_cast}, 残り{f.actions})")
        for tid, tname in spell_targets(st, f, sp, enemies):
            tgt = st.fighters.get(tid) if sp.target == "single" else None
            if why is None and tgt is not None and not form.line_of_fire(f, tgt):
                why_t: RuleViolation | None = _rv("F-R09", "002 特殊な場所での戦闘 例3",
                                                  f"{st.field.name}: 後衛から敵後衛への射線は通らない")
            else:
                why_t = why or (lines.screened(st, f, tgt) if tgt is not None and not sp.ally else None)
            why_t = why_t or lines.spell_reach(st, f, sp, tid)
            cures = 0
            if tgt is not None and sp.cures:
                cures = sum(1 for _c, d in st.effective(tgt) if set(d.cure_tags) & set(sp.cures))
            out.append(Cand(f"cast:{sp.id}:{tid}", f"{sp.name} → {tname}", o.cost_cast, why_t, None,
                            {"action": "cast", "spell": sp.id, "target": tid, "tags": list(tags),
                             "ally": sp.ally, "cures": cures}))
    swim_block = _swim_block(st, f)
    cost = move_cost(st, f)
    fronts = ("fore", "rear") if st.field.two_fronts else ("fore",)
    for fr in fronts:
        why = None
        if f.row == "front":
            why = _rv("F-H08", HOST, f"{f.name} はすでに前衛にいる (別の前衛へは一度後衛へ下がる)")
        elif not form.has_room((f.unit, fr)):
            why = _rv("F-R08", "002 特殊な場所での戦闘 例2/例3",
                      f"{st.field.name}: 前衛に立てるのは{form.cap}人まで")
        why = why or swim_block or _cost_reason(cost, f)
        out.append(Cand(f"advance:{fr}", f"移動: {'前' if fr == 'fore' else '後ろ'}の前衛へ ({cost}アクション, "
                        f"{move_distance(st, f):g}m)", cost, why, None,
                        {"action": "advance", "front": fr, "reach": _reach_if(st, f, "front", fr)}))
    why = (_rv("F-H08", HOST, f"{f.name} はすでに後衛にいる") if f.row == "back" else None) or swim_block or \
        _cost_reason(cost, f)
    reach_now = len(reach)
    reach_other = max(_reach_if(st, f, "front", fr) for fr in fronts if fr != f.front) if len(fronts) > 1 else 0
    out.append(Cand("withdraw", f"移動: 後衛へ下がる ({cost}アクション, 機会攻撃あり)", cost, why, None,
                    {"action": "withdraw", "reach_now": reach_now, "reach_other": reach_other}))
    out.extend(lines.run_cands(st, f, swim_block))
    prone = f.has("prone")
    why = (_rv("F-R12", "002 状態異常 [伏せ]", f"{f.name} は伏せ状態ではない") if not prone else None) \
        or _cost_reason(o.stand_cost, f)
    out.append(Cand("stand", f"立ち上がる ({o.stand_cost}アクション)", o.stand_cost, why, None, {"action": "stand"}))
    for a in st.fighters.values():
        if a.side == f.side and a is not f and not a.out and a.has("sleep"):
            why = None
            if not o.sleep_wake_by_ally:
                why = _rv("F-G07", "002 状態異常 [睡眠]", "sleep_wake_by_ally is off")
            elif a.unit != f.unit:
                why = _rv("F-G07", "002 状態異常 [睡眠]", f"{a.name} は隣にいない (同じユニットのみ)")
            why = why or _cost_reason(o.cost_wake, f)
            out.append(Cand(f"wake:{a.id}", f"{a.name} を起こす ({o.cost_wake}アクション)", o.cost_wake, why,
                            None, {"action": "wake", "target": a.id}))
    for a in st.fighters.values():
        if a.side != f.side or a is f or a.out or a.row != "front":
            continue
        if not any(d.can_be_led for _c, d in st.effective(a)):
            continue
        why = None
        if a.unit != f.unit:
            why = _rv("F-G12", "002 状態異常 [朦朧]", f"{a.name} は隣にいない (同じユニットのみ)")
        why = why or _swim_block(st, f) or _cost_reason(cost, f)
        out.append(Cand(f"lead:{a.id}", f"{a.name} の手を引いて後衛へ下がらせる ({cost}アクション, 機会攻撃あり)",
                        cost, why, None, {"action": "lead", "target": a.id}))
    ccost = st.action_cost(f, "cover")
    why = (_rv("F-H08", HOST, "すでに遮蔽を取っている") if f.has("cover") else None) or _cost_reason(ccost, f)
    out.append(Cand("cover", f"遮蔽を取る ({ccost}アクション)", ccost, why, None, {"action": "cover"}))
    aim = lines.aim_cand(st, f)
    if aim is not None:
        out.append(aim)
    breathe = lines.breathe_cand(st, f)
    if breathe is not None:
        out.append(breathe)
    out.append(Cand("end", "手番終了", 0, None, None, {"action": "end"}))
    return out


def _swim_block(st: FantasyState, f: Fighter) -> RuleViolation | None:
    """F-R17/F-T19: out of depth in 中装鎧 or heavier, a character cannot swim."""
    if not f.spec.out_of_depth or f.spec.armor not in ("medium", "heavy"):
        return None
    for _c, d in st.effective(f):
        if d.heavy_armor_cannot_swim:
            return _rv("F-R17", f"002 不利な環境 [{d.name}]",
                       f"{f.name} は足がつかず中装鎧以上を着ているので泳げない (移動不可)")
    return None


def options_for(st: FantasyState, f: Fighter, world: tuple[object, ...] | None = None) -> list[Option]:
    """The legal options of ``f`` (option_list.py); ``world``: what the formation's answers
    depend on, when the caller knows it (option_cache.list_key)."""
    opened = st.open_reading(world)  # FantasyState.reading without the generator (issue #12: every decision)
    try:
        return legal_options(st, f)
    finally:
        if opened:
            st.close_reading()


def explain(st: FantasyState, action: str) -> RuleViolation:
    """The rule an action breaks (F-id and 002 section), for refusals."""
    if not st.started:
        return _rv("F-H07", HOST, "the battle must begin with 'start'")
    if st.current is None:
        return _rv("ENGINE", "", "no decision is pending")
    f = st.fighters[st.current]
    with st.reading():
        cands = candidates(st, f)
    for c in cands:
        if c.key == action and c.why_not is not None:
            return c.why_not
    head = action.partition(":")[0]
    if action == "advance:rear" and not st.field.two_fronts:
        return _rv("F-R08", "002 特殊な場所での戦闘 例2", f"{st.field.name}には後ろの前衛はできない (two_fronts)")
    legal = ", ".join(c.key for c in cands if c.why_not is None)
    if head == "attack" or head == "trip":
        parts = action.split(":")
        tid = parts[-1]
        t = st.fighters.get(tid)
        if t is not None and t.side == f.side:
            return _rv("F-H05", HOST, f"{t.name} は味方")
        if t is not None and t.out:
            return _rv("F-H05", HOST, f"{t.name} はすでに戦闘不能")
        if head == "attack" and len(parts) == 3 and f.weapon(parts[1]) is None:
            return _rv("F-H05", HOST, f"{f.name} は武器 {parts[1]!r} を持っていない")
    if head == "cast" and f.spell(action.split(":")[1] if ":" in action else "") is None:
        return _rv("F-H06", HOST, f"{f.name} はその魔法を持っていない")
    return _rv("F-H07", HOST, f"{action!r} is not an action {f.name} can take now; legal: {legal}")
