"""``ikusa rules fantasy TOPIC``: a condition's or battlefield's effects, printed from the
same data objects the engine applies (conditions.yaml, battlefields.yaml, options)."""

from __future__ import annotations

import re
import unicodedata

from ikusa.engine.errors import InputError
from ikusa.systems.fantasy.battlefields import Battlefield, builtin_battlefields, find_battlefield
from ikusa.systems.fantasy.conditions import ConditionDef, builtin_conditions, find_condition
from ikusa.systems.fantasy.options import NOT_IMPLEMENTED, FantasyOptions

TAG_LABELS: dict[str, str] = {
    "attack.melee": "近接攻撃の命中", "attack.ranged": "射撃攻撃の命中", "attack.thrown": "投擲の命中",
    "evade": "全ての回避", "evade.melee": "近接攻撃への回避", "evade.ranged": "射撃への回避",
    "evade.ranged.engaged": "エンゲージエリア内からの射撃への回避",
    "evade.ranged.above": "見下ろす角度からの射撃への回避",
    "st": "全てのST", "st.fort": "頑健ST", "st.will": "精神(意思)ST", "st.intuition": "直感ST",
    "st.intuition.avoid": "何かを避ける直感ST", "st.intuition.perceive": "知覚の直感ST",
    "magic.single": "個別対象の魔法強度", "magic.area_self": "自分中心の範囲魔法",
    "magic.area_other": "自分中心以外の範囲魔法",
    "magic.area_select": "範囲(選択)で選択的にはずす魔法",
}
ACTION_LABELS = {"move": "移動", "line_of_fire": "射線の確保", "cover": "遮蔽を取る", "run": "全力移動"}


def topics() -> list[str]:
    return [c.name for c in builtin_conditions().values()] + [b.name for b in builtin_battlefields().values()] + [
        "options", "unimplemented"]


def describe(topic: str) -> list[str]:
    """The lines for one topic; unknown → InputError listing the known ones.  A person's
    typing is forgiven: surrounding spaces, full-width letters and case (``Corridor``)."""
    typed = unicodedata.normalize("NFKC", topic).strip()
    for key in dict.fromkeys((typed, typed.lower())):
        if key == "options":
            return option_lines()
        if key in ("unimplemented", "未実装", "missing"):
            return unimplemented_lines()
        c = find_condition(key)
        if c is not None:
            return condition_lines(c)
        b = find_battlefield(key)
        if b is not None:
            return battlefield_lines(b, FantasyOptions())
    if re.fullmatch(r"F-[A-Z]+\d+", typed.upper()):
        found = rule_id_lines(typed.upper())
        if found:
            return found
    raise InputError(f"unknown fantasy topic {topic!r}; known: {', '.join(topics())} "
                     "(ids also work: " + ", ".join([*builtin_conditions(), *builtin_battlefields()]) + ")",
                     field="TOPIC")


def rule_id_lines(rid: str) -> list[str]:
    """A rule id (``F-R04``, ``F-G11`` …): every condition and battlefield topic whose heading
    cites it, then the options whose description cites it (as ``ikusa rules maai S-G61``)."""
    def cites(text: str) -> bool:
        return re.search(re.escape(rid) + r"(?!\d)", text) is not None

    out: list[str] = []
    for c in builtin_conditions().values():
        lines = condition_lines(c)
        if cites(lines[0]):
            out += [*lines, ""]
    for b in builtin_battlefields().values():
        lines = battlefield_lines(b, FantasyOptions())
        if cites(lines[0]):
            out += [*lines, ""]
    out += [f"{rid}: left open by 002 — {why}" for r, why in NOT_IMPLEMENTED if r == rid]
    opts = [line for line in option_lines()[1:] if cites(line)]
    if opts:
        out += [f"fantasy options citing {rid} (encounter key `options:`):", *opts]
    return out


def _tags(tags: tuple[str, ...]) -> str:
    return "・".join(TAG_LABELS.get(t, t) for t in tags)


def condition_lines(c: ConditionDef) -> list[str]:
    out = [f"[{c.name}] ({c.id}) — {', '.join(c.rules)} — {c.section}"]
    if c.summary:
        out.append(f"  {c.summary}")
    for m in c.modifiers:
        out.append(f"  修正 {m.value:+d}: {_tags(m.applies_to)}" + (f" ({m.note})" if m.note else ""))
    flags = [
        (not c.can_act, "能動的な行動は一切取れない (手番は飛ばされる)"),
        (not c.can_evade, "回避行動は一切取れない"),
        (c.always_hit, "受ける攻撃は自動失敗以外必ず命中 (F-G04)"),
        (not c.can_melee, "近接攻撃を行えない"),
        (not c.counts_for_front, "前衛の維持に有効な人数として数えない"),
        (not c.can_opportunity_attack, "機会攻撃を行えない"),
        (not c.counts_in_opportunity, "機会攻撃の計算で人数に数えない"),
        (c.duration_required, "期間の指定が必須 (指定された期間の後に回復)"),
        (c.can_be_led, "手を引かれれば歩ける: 同じユニットの味方が自分の移動アクションで後衛へ連れて行ける (F-G12)"),
        (not c.single_target_magic, "対象を個別に指定する魔法は行使できない"),
        (c.area_magic_self_only, "範囲魔法は自分中心でのみ発動可 (範囲(選択)で除外は可)"),
        (c.breath, "呼吸できなければ肉体値ラウンド後、毎ラウンド自分の手番に1Dの疲労ダメージ (F-R18); "
                   "「呼吸を整える」不可"),
        (c.heavy_armor_cannot_swim, "足がつかない時、中装鎧以上では泳げない (移動不可)"),
    ]
    out.extend(f"  {text}" for cond, text in flags if cond)
    if c.cure_tags:
        out.append(f"  治療: {', '.join(c.cure_tags)} を治す手段 (cures) で回復 (F-H12)")
    if c.blocked_checks:
        out.append(f"  行えない判定 (自動失敗): {_tags(c.blocked_checks)}")
    if c.immune_to_saves:
        out.append(f"  {_tags(c.immune_to_saves)}を要する魔術は無効")
    if c.wakes_on_damage_to:
        out.append(f"  ダメージを受けると即座に解除され、{builtin_conditions()[c.wakes_on_damage_to].name}状態になる")
    if c.ended_by_action == "stand":
        out.append("  解除には「立ち上がる」行動が必要 (stand_cost アクション, F-G08)")
    if c.ended_by_action == "wake":
        out.append("  同じユニットの味方が1アクションで起こせる (F-G07, invented)")
    if c.action_multipliers:
        parts = "、".join(f"{ACTION_LABELS.get(k, k)}×{v}" for k, v in c.action_multipliers.items())
        out.append(f"  必要アクション: {parts}")
    if c.move_distance_factor != 1.0:
        out.append(f"  移動距離 ×{c.move_distance_factor:g}")
    if c.weapons is not None:
        w = c.weapons
        if w.melee_allowed is not None:
            out.append(f"  使える近接武器: {', '.join(w.melee_allowed)} かそれに類する武器のみ")
        if w.ranged_forbidden:
            out.append(f"  役に立たない射撃武器: {', '.join(w.ranged_forbidden)}")
        if w.thrown_slender_only:
            fall = "、".join(f"{k}: 5mごとに−{v}" for k, v in w.thrown_falloff.items())
            out.append(f"  投擲: 細長く抵抗の少ないもののみ、射程×{w.thrown_range_factor:g}、"
                       f"ダメージ減衰 {fall} (F-G14)")
    if c.group is not None:
        rule = "水中が水場に優先" if c.group == "water" else "重い方のみ適用 (加算しない)"
        out.append(f"  重複 (F-G11): グループ {c.group} — {rule}")
    for n in c.negated_by:
        sense = {"darkvision": "ドワーフの暗視", "lowlight": "エルフの低光量視覚"}.get(n.sense, n.sense)
        out.append(f"  {sense}で無効 (原因が {', '.join(n.causes)} の場合のみ)")
    return out


def battlefield_lines(b: Battlefield, opts: FantasyOptions) -> list[str]:
    out = [f"[{b.name}] ({b.id}) — {', '.join(b.rules)} — {b.section}"]
    if b.summary:
        out.append(f"  {b.summary}")
    cap = b.capacity(opts.width_per_fighter)
    if cap is not None:
        how = f"floor({b.width_m:g}m / {opts.width_per_fighter:g}m)" if b.front_capacity is None else "GM指定"
        out.append(f"  前衛に立てる人数: {cap} ({how}, F-G16)")
    else:
        out.append("  前衛に立てる人数: 制限なし")
    if b.two_fronts:
        out.append("  後方にも前衛とエンゲージエリアが発生しうる (1ユニット内に前衛が二つ)")
    if b.pincer:
        out.append(f"  前衛のみで前後から挟まれたユニットへの攻撃 {opts.pincer_bonus:+d} (挟み撃ち, F-R08)")
    if b.all_close_range:
        out.append(f"  射撃・魔術は全て近距離 ({b.close_range_m}m) で後衛まで届く (F-R07)")
    else:
        out.append(f"  距離: エンゲージ中 {b.engage_distance_m}m、非エンゲージ {b.unit_distance_m}m、"
                   f"後衛ごとに +{b.row_depth_m}m (invented)")
    if b.medium_area_covers_all:
        out.append("  中円の範囲は全員を巻き込む")
    if not b.back_to_back_line_of_fire:
        out.append("  後衛から敵後衛への射線は通らない")
    if b.trip_fall_tn is not None:
        out.append(f"  ≪足払い≫を受けたら直感ST(回避) 目標値{b.trip_fall_tn}に失敗で転落 (F-R09, 戦闘から離脱 F-G17)")
    return out


def option_lines() -> list[str]:
    """Every ruleset option with its default and the gap it settles (F-G…/F-H…)."""
    out = ["fantasy ruleset options (encounter key `options:`):"]
    defaults = FantasyOptions()
    for name, info in FantasyOptions.model_fields.items():
        out.append(f"  {name} = {getattr(defaults, name)!r}: {info.description}")
    return out


def unimplemented_lines() -> list[str]:
    """What 002 leaves unspecified (host data, GM calls), each with the default shipped."""
    return ["What 002 leaves to the host or the GM, with the default the engine ships:",
            *(f"  {rid}: {why}" for rid, why in NOT_IMPLEMENTED)]
