"""Performing actions: attacks (melee, ranged, thrown), ≪足払い≫, spells, movement,
standing up, waking, cover, and damage with its triggers (睡眠 → 伏せ).

Every check shows every modifier and the rule behind it (resolution.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ikusa.dice.source import DiceSource
from ikusa.engine.events import Event
from ikusa.systems.fantasy import lines
from ikusa.systems.fantasy.character import Fighter, SpellSpec, WeaponSpec
from ikusa.systems.fantasy.conditions import Cond
from ikusa.systems.fantasy.effects import gm_roll
from ikusa.systems.fantasy.resolution import Applied, Check, Damage, refused_check, roll_check, thrown_falloff

if TYPE_CHECKING:
    from ikusa.systems.fantasy.state import FantasyState


def perform(st: FantasyState, f: Fighter, key: str, dice: DiceSource) -> list[Event]:
    """Apply one legal action key for ``f`` (already checked against the options)."""
    head, _, rest = key.partition(":")
    o = st.opts
    if head == "end":
        f.actions = 0
        return [Event.lazy("end_turn", "F-H07", "{} 手番終了".format, (f.name,), {"id": f.id})]
    if head == "attack":
        wid, _, tid = rest.partition(":")
        w = f.weapon(wid)
        assert w is not None
        f.actions -= o.cost_attack
        lines.use_ammo(f, w)
        return attack(st, f, w, st.fighters[tid], dice)
    if head == "trip":
        f.actions -= o.cost_attack
        return trip(st, f, st.fighters[rest], dice)
    if head == "cast":
        sid, _, target = rest.partition(":")
        sp = f.spell(sid)
        assert sp is not None
        f.actions -= o.cost_cast
        return cast(st, f, sp, target, dice)
    if head == "advance":
        cost = move_cost(st, f)
        rule, how = cost_text(st, f, "move")
        f.actions -= cost
        f.row, f.front = "front", rest
        where = "前" if rest == "fore" else "後ろ"
        return [Event.lazy("move", rule, "{} 移動: {}の前衛へ ({})".format, (f.name, where, how),
                           {"id": f.id, "cost": cost, "front": rest})]
    if head == "withdraw":
        cost = move_cost(st, f)
        rule, how = cost_text(st, f, "move")
        f.actions -= cost
        events = opportunity(st, f, dice)
        if not f.out:
            f.row = "back"
            events.append(Event.lazy("move", rule, "{} 移動: 後衛へ下がる ({})".format, (f.name, how),
                                     {"id": f.id, "cost": cost}))
        return events
    if head == "lead":
        ally = st.fighters[rest]
        cost = move_cost(st, f)
        rule, how = cost_text(st, f, "move")
        f.actions -= cost
        events = opportunity(st, ally, dice)
        if not ally.out:
            ally.row = "back"
            events.append(Event("lead", f"F-R15,F-G12,{rule}",
                                f"{f.name} が朦朧の {ally.name} の手を引いて後衛へ下がらせる ({f.name} の {how})",
                                {"id": f.id, "target": ally.id, "cost": cost}))
        return events
    if head == "stand":
        f.actions -= o.stand_cost
        f.remove("prone")
        return [Event.lazy("stand", "F-R12,F-G08", "{} 立ち上がる ({}アクション): 伏せ解除".format,
                           (f.name, o.stand_cost), {"id": f.id})]
    if head == "wake":
        ally = st.fighters[rest]
        f.actions -= o.cost_wake
        ally.remove("sleep")
        ally.add(Cond("prone"))
        return [Event("wake", "F-G07,F-R11", f"{f.name} が {ally.name} を起こす ({o.cost_wake}アクション): "
                      f"睡眠解除、伏せ状態", {"id": f.id, "target": ally.id})]
    if head == "cover":
        cost = st.action_cost(f, "cover")
        rule, how = cost_text(st, f, "cover")
        f.actions -= cost
        f.add(Cond("cover"))
        return [Event.lazy("cover", rule, "{} 遮蔽を取る ({})".format, (f.name, how), {"id": f.id, "cost": cost})]
    extra = lines.perform(st, f, key, dice)
    if extra is not None:
        return extra
    raise AssertionError(key)  # pragma: no cover - options are checked first


def cost_text(st: FantasyState, f: Fighter, action: str) -> tuple[str, str]:
    """Rule ids and narrated cost of a movement-type action, showing the water multiplier."""
    mult = st.multiplier(f, action)
    cost = st._base_cost[action] * mult  # action_cost
    if mult == 1:
        return "F-H07,F-G13", f"{cost}アクション"
    d = next(d for _c, d in st.effective(f) if d.action_multipliers.get(action, 1) == mult)
    return f"F-G13,{d.rule}", f"{cost // mult}×{mult}={cost}アクション, {d.name}"


def move_cost(st: FantasyState, f: Fighter) -> int:
    """F-R16/F-R17/F-T15/F-T16: 移動 needs ``cost_move`` × the water multiplier."""
    return st.action_cost(f, "move")


def move_distance(st: FantasyState, f: Fighter) -> float:
    """F-R17/F-T16: distance of one 移動, halved underwater."""
    factor = min([d.move_distance_factor for _c, d in st.effective(f)] + [1.0])
    return st.opts.move_distance * factor


def _attack_tags(w: WeaponSpec) -> tuple[str, ...]:
    if w.kind == "melee":
        return ("attack.melee",)
    if w.kind == "thrown":
        return ("attack.ranged", "attack.thrown")
    return ("attack.ranged",)


def attack_mods(st: FantasyState, f: Fighter, t: Fighter, tags: tuple[str, ...]) -> list[Applied]:
    """Attacker's condition modifiers plus the pincer bonus (F-R08, F-G16)."""
    mods = st.mods(f, tags)
    if st.formation.pincered(t.unit):
        mods.append(Applied(st.opts.pincer_bonus, "挟み撃ち", "F-R08", "挟み撃ち状態のユニットへの攻撃"))
    return mods


def evade_tags(st: FantasyState, f: Fighter, t: Fighter, melee: bool) -> tuple[str, ...]:
    if melee:
        return ("evade.melee",)
    tags = ["evade.ranged"]
    if st.formation.engaged(f, t):
        tags.append("evade.ranged.engaged")
    if f.spec.elevated:
        tags.append("evade.ranged.above")
    return tuple(tags)


HitParts = tuple[Check, str, Check | None, bool, tuple[str, str] | None]
"""What a hit line is made of (:func:`hit_text`): the attack check, the target's name, its
evasion check (None: not rolled), the result, and the (name, rule) of a condition that left
the target helpless.  Checks are frozen, so the line is the same whenever it is made."""


def hit_roll(st: FantasyState, f: Fighter, t: Fighter, tags: tuple[str, ...], base: int, melee: bool,
             dice: DiceSource) -> tuple[bool, HitParts, dict[str, object]]:
    """One hit check against one evasion (F-H04); 麻痺/睡眠 targets cannot evade and are hit
    unless the attack is an automatic failure (F-R10, F-R11, F-G04)."""
    atk = gm_roll(st, f, roll_check(dice, st.opts, tags[-1], f.name, base,
                                    attack_mods(st, f, t, tags)))
    data: dict[str, object] = {"attack": atk.to_json()}
    helpless = st.flag(t, "always_hit") or st.flag(t, "can_evade")
    if atk.auto_fail:
        return False, (atk, t.name, None, False, None), data
    if helpless is not None:
        return True, (atk, t.name, None, True, (helpless.name, helpless.rule)), data
    etags = evade_tags(st, f, t, melee)
    ev = gm_roll(st, t, roll_check(dice, st.opts, etags[0], t.name, t.spec.values.evasion, st.mods(t, etags)))
    data["evade"] = ev.to_json()
    if atk.auto_success and not ev.auto_success:
        hit = True
    elif ev.auto_fail:
        hit = True
    elif ev.auto_success:
        hit = False
    else:
        hit = ev.total < atk.total if st.opts.evasion_tie == "defender" else ev.total <= atk.total
    return hit, (atk, t.name, ev, hit, None), data


def hit_text(parts: HitParts) -> str:
    """``近接命中 2D[4,4]+5=13 vs オーク 回避(近接) 2D[3,3]+3=9 → 命中`` (F-H04, F-G04)."""
    atk, tname, ev, hit, helpless = parts
    if ev is None and not hit:
        return f"{atk.text()} → 自動失敗で外れ (F-G04)"
    if helpless is not None:
        return f"{atk.text()} → {tname} は{helpless[0]}: 回避不可、自動失敗以外命中 ({helpless[1]})"
    assert ev is not None
    return f"{atk.text()} vs {tname} {ev.text()} → {'命中' if hit else '回避'}"


def _attack_text(fname: str, what: str, wname: str, tname: str, parts: HitParts) -> str:
    return f"{fname} {what}({wname}) → {tname}: {hit_text(parts)}"


def _damage_text(tname: str, dmg: Damage) -> str:
    return f"{tname} へのダメージ {dmg.text()}"


def _trip_text(fname: str, tname: str, parts: HitParts) -> str:
    return f"{fname} ≪足払い≫ → {tname}: {hit_text(parts)}"


def attack(st: FantasyState, f: Fighter, w: WeaponSpec, t: Fighter, dice: DiceSource) -> list[Event]:
    melee = w.kind == "melee"
    tags = _attack_tags(w)
    base = f.spec.values.melee if melee else f.spec.values.ranged
    hit, parts, data = hit_roll(st, f, t, tags, base, melee, dice)
    what = "近接攻撃" if melee else "投擲" if w.kind == "thrown" else "射撃"
    events = [Event.lazy("attack", "F-H04,F-H05", _attack_text, (f.name, what, w.name, t.name, parts),
                         {"attacker": f.id, "target": t.id, "weapon": w.id, "hit": hit, **data})]
    if not hit:
        return events
    st.show(events)  # the hit shows before the damage dice are typed (issue #8 §5)
    rolled = dice.roll(st.opts.die_sides, w.damage_dice, f"{f.name} {w.name} ダメージ", f.id) if w.damage_dice else []
    dmg = Damage(list(rolled), w.damage_bonus)
    if w.kind == "thrown":
        for _c, d in st.effective(f):
            per = d.weapons.thrown_falloff.get(w.damage_type) if d.weapons else None
            dist = st.formation.distance(f, t)
            if per and dist >= st.opts.falloff_step_m:
                dmg.extra.append(Applied(thrown_falloff(dist, per, st.opts.falloff_step_m), f"{d.name} {dist}m",
                                         "F-R17,F-G14",
                                         f"{dist}m, {w.damage_type} 5mごとに−{per}"))
    events.append(Event.lazy("damage", "F-H05", _damage_text, (t.name, dmg),  # dmg is not changed after
                             {"target": t.id, "damage": dmg.total, "rolled": list(rolled)}))
    events.extend(apply_damage(st, t, dmg.total, w.name))
    return events


def apply_damage(st: FantasyState, t: Fighter, amount: int, cause: str) -> list[Event]:
    """Lose HP; damage wakes a sleeper into 伏せ (F-R11, F-T09); HP ≤ 0 → 戦闘不能."""
    events: list[Event] = []
    if amount <= 0:
        return events
    before = t.hp
    t.hp -= amount
    events.append(Event.lazy("hp", "F-H05", "{} HP {}→{} ({})".format, (t.name, before, t.hp, cause),
                             {"id": t.id, "hp": t.hp}))
    for c in list(t.conds):
        d = st.table[c.id]
        if d.wakes_on_damage_to is not None:
            t.remove(c.id)
            t.add(Cond(d.wakes_on_damage_to))
            new = st.table[d.wakes_on_damage_to].name
            events.append(Event("wake", d.rule, f"{t.name} はダメージで目を覚ました: {d.name}→{new}",
                                {"id": t.id, "condition": d.wakes_on_damage_to}))
    if t.hp <= 0 and not t.down:
        t.down = True
        events.append(Event("down", "F-H05", f"{t.name} 戦闘不能", {"id": t.id}))
    return events


def trip(st: FantasyState, f: Fighter, t: Fighter, dice: DiceSource) -> list[Event]:
    """≪足払い≫ (F-H10): a melee hit knocks the target 伏せ; on the cliff the target then
    makes 直感ST against TN 12 or falls (F-R09, F-T07, F-G17)."""
    hit, parts, data = hit_roll(st, f, t, ("attack.melee",), f.spec.values.melee, True, dice)
    events = [Event.lazy("trip", "F-H10", _trip_text, (f.name, t.name, parts),
                         {"attacker": f.id, "target": t.id, "hit": hit, **data})]
    if not hit:
        return events
    tn = st.field.trip_fall_tn
    if tn is not None:  # the fall check is part of the trip: before 伏せ applies
        c = st_check(st, t, "intuition_avoid", dice)
        fell = not c.succeeds_against(tn, st.opts)
        events.append(Event.lazy("fall_check", "F-R09,F-G05", _fall_text, (t.name, c, tn, fell),
                                 {"id": t.id, "tn": tn, "fell": fell}))
        if fell and st.opts.fall_removes:
            t.fallen = True
            events.append(Event("fallen", "F-G17", f"{t.name} は崖から転落し戦闘から離脱", {"id": t.id}))
    if not t.fallen:
        t.add(Cond("prone"))
        events.append(Event("prone", "F-R12", f"{t.name} は伏せ状態になった", {"id": t.id}))
    return events


def _fall_text(tname: str, c: Check, tn: int, fell: bool) -> str:
    return f"{tname} 崖際 {c.text()} vs 目標値{tn} → {'転落' if fell else '踏みとどまった'}"


SAVE_TAGS = {"fort": "st.fort", "will": "st.will", "intuition_avoid": "st.intuition.avoid",
             "intuition_perceive": "st.intuition.perceive"}


def st_check(st: FantasyState, t: Fighter, save: str, dice: DiceSource) -> Check:
    """A ST (F-H03): refused when a condition forbids it (麻痺/睡眠 → 避ける直感ST)."""
    tag = SAVE_TAGS[save]
    base = {"fort": t.spec.values.fort, "will": t.spec.values.will}.get(save, t.spec.values.intuition)
    blocker = st.blocked(t, (tag,))
    if blocker is not None:
        return refused_check(tag, t.name, base, blocker)
    return gm_roll(st, t, roll_check(dice, st.opts, tag, t.name, base, st.mods(t, (tag,))))


def spell_tags(sp: SpellSpec) -> tuple[str, ...]:
    if sp.target == "single":
        return ("magic.single",)
    tags = ["magic.area", "magic.area_self" if sp.center == "self" else "magic.area_other"]
    if sp.select:
        tags.append("magic.area_select")
    return tuple(tags)


def spell_targets(st: FantasyState, f: Fighter, sp: SpellSpec, target: str) -> list[Fighter]:
    """Who a spell affects: one target, or a 小円/中円 area (F-G16, F-R07, F-R08);
    範囲（選択） leaves the caster's side out."""
    if sp.target == "single":
        return [st.fighters[target]]
    if target == "self":
        centre: tuple[str, str] | str = (f.unit, f.front) if sp.area == "小円" else f.unit
    else:
        unit, _, front = target.partition(".")
        centre = (unit, front or "fore") if sp.area == "小円" else unit
    members = st.formation.area(sp.area, centre)
    if sp.select:
        members = [m for m in members if m.side != f.side]
    return members


def cast(st: FantasyState, f: Fighter, sp: SpellSpec, target: str, dice: DiceSource) -> list[Event]:
    """Cast: 2D6 + 魔法強度 (with 視界不良's −2s, F-R14) against each target's ST (F-H06)."""
    tags = spell_tags(sp)
    mag = gm_roll(st, f, roll_check(dice, st.opts, tags[0], f.name, f.spec.values.magic, st.mods(f, tags)))
    victims = spell_targets(st, f, sp, target)
    events = [Event.lazy("cast", "F-H06", _cast_text,
                         (f.name, sp.name, sp.area if sp.target == "area" else "個別対象", mag,
                          tuple(v.name for v in victims)),
                         {"caster": f.id, "spell": sp.id, "magic": mag.to_json(), "targets": [v.id for v in victims]})]
    if mag.auto_fail:
        events.append(Event("spell_fail", "F-G04", f"{sp.name} は自動失敗", {"spell": sp.id}))
        return events
    if sp.ally:
        return events + [e for v in victims for e in cure(st, v, sp)]
    st.show(events)  # the casting line shows before each save is typed (issue #8 §5)
    for v in victims:
        if v.out:
            continue
        tag = SAVE_TAGS[sp.save]
        immune = next((d for _c, d in st.effective(v) if tag in d.immune_to_saves), None)
        if immune is not None:
            events.append(Event("spell_immune", immune.rule + ",F-G07",
                                f"{v.name} は{immune.name}: 意思STを要する魔術は無効", {"id": v.id}))
            continue
        c = st_check(st, v, sp.save, dice)
        resisted = c.succeeds_against(mag.total, st.opts) and not mag.auto_success
        events.append(Event.lazy("save", "F-H03,F-G05", _save_text, (v.name, c, mag.total, resisted),
                                 {"id": v.id, "save": c.to_json(), "resisted": resisted}))
        if resisted:
            continue
        if sp.damage_dice or sp.damage_bonus:
            rolled = dice.roll(st.opts.die_sides, sp.damage_dice, f"{sp.name} ダメージ", f.id) if sp.damage_dice else []
            dmg = Damage(list(rolled), sp.damage_bonus)
            events.append(Event.lazy("damage", "F-H06", _damage_text, (v.name, dmg),  # dmg is not changed after
                                     {"target": v.id, "damage": dmg.total}))
            events.extend(apply_damage(st, v, dmg.total, sp.name))
        if sp.condition is not None and not v.out:
            from ikusa.systems.fantasy.conditions import find_condition

            d = find_condition(sp.condition, st.table)
            assert d is not None
            v.add(Cond(d.id, sp.rounds))
            dur = f" {sp.rounds}ラウンド" if sp.rounds else ""
            events.append(Event("condition", d.rule, f"{v.name} は{d.name}状態になった{dur}",
                                {"id": v.id, "condition": d.id, "rounds": sp.rounds}))
    return events


def _cast_text(fname: str, sname: str, how: str, mag: Check, victims: tuple[str, ...]) -> str:
    return f"{fname} {sname} ({how}) {mag.text()} → 対象: {'、'.join(victims) or 'なし'}"


def _save_text(vname: str, c: Check, magic: int, resisted: bool) -> str:
    return f"{vname} {c.text()} vs 魔法強度{magic} → {'抵抗' if resisted else '失敗'}"


def cure(st: FantasyState, v: Fighter, sp: SpellSpec) -> list[Event]:
    """F-R15/F-H12: a cure removes the conditions whose cure tags it covers (朦朧: mental)."""
    events: list[Event] = []
    for c in list(v.conds):
        d = st.table[c.id]
        if set(d.cure_tags) & set(sp.cures):
            v.remove(c.id)
            events.append(Event("cured", f"{d.rule},F-H12", f"{v.name} の{d.name}が{sp.name}で回復した",
                                {"id": v.id, "condition": c.id}))
    return events


def opportunity(st: FantasyState, f: Fighter, dice: DiceSource) -> list[Event]:
    """F-H09: withdrawing from an engagement area provokes one melee attack from each enemy
    there who may make one (not 朦朧/麻痺/睡眠, not surprised-unacted: F-R04, F-R15)."""
    able, unable = st.formation.opportunity_attackers(f)
    if not able and not unable:
        return []
    skipped = "、".join(f"{e.name}({_why_no_oa(st, e)})" for e in unable)
    events = [Event("opportunity", "F-H09,F-R04,F-R15",
                    f"{f.name} がエンゲージから離脱: 機会攻撃 {len(able)}人"
                    + (f" (数えない: {skipped})" if skipped else ""),
                    {"id": f.id, "attackers": [e.id for e in able], "excluded": [e.id for e in unable]})]
    from ikusa.systems.fantasy.legal import weapon_block

    for e in able:
        w = next((w for w in e.spec.weapons if w.kind == "melee" and weapon_block(st, e, w) is None), None)
        if w is None or f.out:
            continue
        events.extend(attack(st, e, w, f, dice))
    return events


def _why_no_oa(st: FantasyState, e: Fighter) -> str:
    for _c, d in st.effective(e):
        if not (d.can_opportunity_attack and d.counts_in_opportunity and d.can_melee):
            return f"{d.name} {d.rule}"
    return "?"  # pragma: no cover
