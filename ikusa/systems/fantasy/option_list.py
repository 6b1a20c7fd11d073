"""The legal options of the acting character, built directly (issue #12).

:func:`~ikusa.systems.fantasy.legal.candidates` lists every action with the rule forbidding
it (a refusal names its rule from there).  A decision only needs the legal ones, so this
module builds them straight away: the same options in the same order, with the same keys,
labels, costs, odds and data (``tests/systems/fantasy/test_option_list.py`` compares the two
at every step of generated battles), but without the refusal texts, the intermediate
candidate objects and the chain of state queries per option:

* each character's applying conditions are read once, as their
  :class:`~ikusa.systems.fantasy.applying.Applying`, whose answers (modifier totals, flags,
  weapon limits, cost multipliers) are kept per condition set;
* a hit chance is worked out once per target and check (a melee weapon and ≪足払い≫ share it).

The rules are those of legal.py (F-H05…F-H08, F-R08…F-R18, F-G07, F-G12…F-G14).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ikusa.engine.protocol import Option
from ikusa.systems.fantasy import lines
from ikusa.systems.fantasy.actions import spell_tags
from ikusa.systems.fantasy.applying import Applying
from ikusa.systems.fantasy.character import Fighter, SpellSpec, WeaponSpec
from ikusa.systems.fantasy.resolution import auto_fail_probability, hit_probability, success_probability

if TYPE_CHECKING:
    from ikusa.systems.fantasy.state import FantasyState

_MELEE = ("attack.melee",)
_RANGED = ("attack.ranged",)
_THROWN = ("attack.ranged", "attack.thrown")
_EVADE_MELEE = ("evade.melee",)
_AVOID = ("st.intuition.avoid",)


def applying(st: FantasyState, f: Fighter) -> Applying:
    """``f``'s :class:`Applying` (one worked out for this use when the book keeps none)."""
    pairs, app = st._applying(f)
    return app if app is not None else Applying.unkept(pairs)


def weapon_allowed(app: Applying, w: WeaponSpec) -> bool:
    """F-R17/F-G14: no applying condition forbids ``w`` (legal.weapon_block is None)."""
    for d in app.weapon_limits:
        lim = d.weapons
        assert lim is not None
        if w.kind == "melee":
            if lim.melee_allowed is not None and w.category not in lim.melee_allowed:
                return False
        elif w.kind == "ranged":
            if w.category in lim.ranged_forbidden:
                return False
        elif lim.thrown_slender_only and not (w.slender and w.damage_type in lim.thrown_falloff):
            return False
    return True


def weapon_range(app: Applying, w: WeaponSpec) -> int:
    """F-R17/F-T16: thrown range halved underwater (legal.weapon_range)."""
    factor = 1.0
    if w.kind == "thrown":
        for d in app.weapon_limits:
            assert d.weapons is not None
            factor = min(factor, d.weapons.thrown_range_factor)
    return int(w.range_m * factor)


def legal_options(st: FantasyState, f: Fighter) -> list[Option]:
    """The options of ``f``'s decision, in candidates() order (call inside a reading scope)."""
    out: list[Option] = []
    o = st.opts
    fx = st.fx
    fx_on = bool(fx.book.active or fx.next_mod)
    form = st.formation
    acts = f.actions
    side = f.side
    spec = f.spec
    vals = spec.values
    app = applying(st, f)
    apps: dict[str, Applying] = {}

    def app_of(t: Fighter) -> Applying:
        got = apps.get(t.id)
        if got is None:
            got = apps[t.id] = applying(st, t)
        return got

    def total(who: Fighter, a: Applying, tags: tuple[str, ...]) -> int:
        """The modifiers of a check (legal._hit_odds: conditions, then GM effects)."""
        if fx_on:
            return sum([m.value for m in st.mods(who, tags)])
        return a.total(tags)

    enemies = form.foes(side)  # read only
    reach = form.melee_targets(f)
    odds_of: dict[tuple[str, tuple[str, ...], int, bool], float] = {}

    def hit_odds(t: Fighter, tags: tuple[str, ...], margin: int, melee: bool) -> float:
        """legal._hit_odds, once per target and check."""
        key = (t.id, tags, margin, melee)
        got = odds_of.get(key)
        if got is not None:
            return got
        m = margin + total(f, app, tags)
        if form.pincered(t.unit):
            m += o.pincer_bonus
        at = app_of(t)
        if at.flag("always_hit") or at.flag("can_evade"):
            got = 1.0 - auto_fail_probability(o)
        else:
            etags = _EVADE_MELEE if melee else _ranged_evade(st, f, t)
            got = hit_probability(m - total(t, at, etags), o)
        odds_of[key] = got
        return got

    if o.cost_attack <= acts:
        screening = o.line_of_fire == "screened"  # lines.screened blocks nothing otherwise
        melee_any = f.row == "front" and app.flag("can_melee") is None
        for w in spec.weapons:
            if not weapon_allowed(app, w):
                continue
            kind = w.kind
            if kind == "melee":
                if not melee_any:
                    continue
                for t in enemies:
                    if t in reach:
                        out.append(Option(f"attack:{w.id}:{t.id}", f"近接攻撃 {w.name} → {t.name}", o.cost_attack,
                                          hit_odds(t, _MELEE, vals.melee - t.spec.values.evasion, True),
                                          _attack_data(w, t)))
                continue
            if lines.ammo_block(f, w) is not None:
                continue
            rng = weapon_range(app, w)
            tags = _THROWN if kind == "thrown" else _RANGED
            what = "投擲" if kind == "thrown" else "射撃"
            left = lines.ammo_label(f, w)  # the same for every target
            for t in enemies:
                if not form.line_of_fire(f, t) or (screening and lines.screened(st, f, t) is not None):
                    continue
                dist = form.distance(f, t)
                if dist > rng:
                    continue
                out.append(Option(f"attack:{w.id}:{t.id}",
                                  f"{what} {w.name} → {t.name} ({dist}m){left}", o.cost_attack,
                                  hit_odds(t, tags, vals.ranged - t.spec.values.evasion, False),
                                  _attack_data(w, t)))
        if f.row == "front" and app.flag("can_melee") is None and any(w.kind == "melee" for w in spec.weapons):
            tn = st.field.trip_fall_tn
            for t in enemies:
                if t not in reach:
                    continue
                data: dict[str, object] = {"action": "trip", "target": t.id, "target_hp": t.hp}
                odds = hit_odds(t, _MELEE, vals.melee - t.spec.values.evasion, True)
                if tn is not None:
                    at = app_of(t)
                    data["fall_odds"] = 1.0 if at.blocked(_AVOID) is not None else 1.0 - success_probability(
                        t.spec.values.intuition + total(t, at, _AVOID), tn, o)
                label = f"≪足払い≫ → {t.name}" + ("" if tn is None else f" (崖: 直感ST目標値{tn}で転落)")
                out.append(Option(f"trip:{t.id}", label, o.cost_attack, odds, data))
    if o.cost_cast <= acts:
        for sp in spec.spells:
            if app.no_single_magic if sp.target == "single" else (sp.center != "self" and app.area_self_only):
                continue
            _spell_options(st, f, sp, enemies, out)
    swim = spec.out_of_depth and spec.armor in ("medium", "heavy") and app.no_swim  # F-R17/F-T19
    cost = st._base_cost["move"] * app.multiplier("move")
    two = st.field.two_fronts
    if f.row != "front" and not swim and cost <= acts:
        for fr in ("fore", "rear") if two else ("fore",):
            if form.has_room((f.unit, fr)):
                where = "前" if fr == "fore" else "後ろ"
                out.append(Option(f"advance:{fr}", f"移動: {where}の前衛へ ({cost}アクション, "
                                  f"{o.move_distance * app.move_factor:g}m)", cost, None,
                                  {"action": "advance", "front": fr, "reach": len(form.reach_from((f.unit, fr)))}))
    if f.row != "back" and not swim and cost <= acts:
        other = len(form.reach_from((f.unit, "rear" if f.front == "fore" else "fore"))) if two else 0
        out.append(Option("withdraw", f"移動: 後衛へ下がる ({cost}アクション, 機会攻撃あり)", cost, None,
                          {"action": "withdraw", "reach_now": len(reach), "reach_other": other}))
    if two and f.row == "front":
        run = st._base_cost["run"] * app.multiplier("run")
        dest = "rear" if f.front == "fore" else "fore"
        if form.has_room((f.unit, dest)) and not swim and run <= acts:
            where = "後ろ" if dest == "rear" else "前"
            out.append(Option(f"run:{dest}", f"全力移動: {where}の前衛へ走る ({run}アクション, 機会攻撃あり)", run,
                              None, {"action": "run", "front": dest, "reach": len(form.reach_from((f.unit, dest)))}))
    if o.stand_cost <= acts and f.has("prone"):
        out.append(Option("stand", f"立ち上がる ({o.stand_cost}アクション)", o.stand_cost, None, {"action": "stand"}))
    unit = f.unit
    mates = [a for a in form.unit_members(unit) if a is not f and a.side == side]  # F-G07/F-G12: same unit only
    if mates and o.sleep_wake_by_ally and o.cost_wake <= acts:
        for a in mates:
            if a.has("sleep"):
                out.append(Option(f"wake:{a.id}", f"{a.name} を起こす ({o.cost_wake}アクション)", o.cost_wake, None,
                                  {"action": "wake", "target": a.id}))
    if mates and not swim and cost <= acts:
        for a in mates:
            if a.row == "front" and st.can_be_led(a):
                out.append(Option(f"lead:{a.id}", f"{a.name} の手を引いて後衛へ下がらせる ({cost}アクション, "
                                  "機会攻撃あり)", cost, None, {"action": "lead", "target": a.id}))
    cover = st._base_cost["cover"] * app.multiplier("cover")
    if cover <= acts and not f.has("cover"):
        out.append(Option("cover", f"遮蔽を取る ({cover}アクション)", cover, None, {"action": "cover"}))
    aim = lines.aim_cand(st, f)
    if aim is not None and aim.why_not is None:
        out.append(Option(aim.key, aim.label, aim.cost, aim.odds, aim.data))
    breathe = lines.breathe_cand(st, f, True)
    if breathe is not None:
        out.append(Option(breathe.key, breathe.label, breathe.cost, breathe.odds, breathe.data))
    out.append(Option("end", "手番終了", 0, None, {"action": "end"}))
    return out


def _attack_data(w: WeaponSpec, t: Fighter) -> dict[str, object]:
    return {"action": "attack", "weapon": w.id, "target": t.id,
            "expected_damage": w.damage_dice * 3.5 + w.damage_bonus, "target_hp": t.hp}


def _ranged_evade(st: FantasyState, f: Fighter, t: Fighter) -> tuple[str, ...]:
    """actions.evade_tags of a ranged attack (engaged, from above)."""
    engaged = st.formation.engaged(f, t)
    if f.spec.elevated:
        return ("evade.ranged", "evade.ranged.engaged", "evade.ranged.above") if engaged else \
            ("evade.ranged", "evade.ranged.above")
    return ("evade.ranged", "evade.ranged.engaged") if engaged else ("evade.ranged",)


def spell_targets(st: FantasyState, f: Fighter, sp: SpellSpec, enemies: list[Fighter]) -> list[tuple[str, str]]:
    """(id, name) of every target ``sp`` may name for ``f``: a fighter for a single-target spell,
    the caster for a self-centred area, a unit for 中円, else an enemy unit's occupied front."""
    form = st.formation
    if sp.target == "single" and sp.ally:
        return [(t.id, t.name) for t in st.fighters.values() if t.side == f.side and not t.out]
    if sp.target == "single":
        return [(t.id, t.name) for t in enemies]
    if sp.center == "self":
        return [("self", "自分中心")]
    if sp.area == "中円":
        return [(u, f"ユニット{u}") for u in form.units() if form.side_of_unit(u) != f.side]
    return [(f"{u}.{fr}", f"ユニット{u}の{'前' if fr == 'fore' else '後ろ'}のエンゲージ")
            for u in form.units() if form.side_of_unit(u) != f.side for fr in ("fore", "rear")
            if form.front_members((u, fr))]


def _spell_options(st: FantasyState, f: Fighter, sp: SpellSpec, enemies: list[Fighter], out: list[Option]) -> None:
    """The legal targets of one spell the conditions allow (legal.candidates' spell part)."""
    form = st.formation
    fighters = st.fighters
    tags = spell_tags(sp)
    single = sp.target == "single"
    targets = spell_targets(st, f, sp, enemies)
    cost = st.opts.cost_cast
    for tid, tname in targets:
        tgt = fighters.get(tid) if single else None
        if tgt is not None and (not form.line_of_fire(f, tgt)
                                or (not sp.ally and lines.screened(st, f, tgt) is not None)):
            continue
        if lines.spell_reach(st, f, sp, tid) is not None:
            continue
        cures = 0
        if tgt is not None and sp.cures:
            cures = sum(1 for _c, d in st.effective(tgt) if set(d.cure_tags) & set(sp.cures))
        out.append(Option(f"cast:{sp.id}:{tid}", f"{sp.name} → {tname}", cost, None,
                          {"action": "cast", "spell": sp.id, "target": tid, "tags": list(tags), "ally": sp.ally,
                           "cures": cures}))
