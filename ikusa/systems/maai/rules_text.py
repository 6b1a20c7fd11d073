"""``ikusa rules maai TOPIC``: a GM's look-up of maai content as the engine applies it.

Everything printed comes from the objects the engine itself uses: the catalog
(:func:`~ikusa.systems.maai.catalog.load_catalog`: weapons, maneuvers, armour, stances, feats,
schools), the ruleset options (:class:`~ikusa.systems.maai.options.MaaiOptions`, every gap
default with its S-G id), the grade functions (grades.py), the cost functions (costs.py:
S-R30/S-R32/S-R40) and the 防備 pipeline (defence.py: S-G42).  No number is restated here.

Topics: any catalog id, Japanese name or alias (case-insensitive; an ambiguous name lists
every match), ``grades``, ``options`` (or an option group / key / S-G id), ``improvised``,
``defence``, ``unimplemented`` (what the texts leave unspecified, with the defaults shipped).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Iterator
from typing import Any

from pydantic import BaseModel

from ikusa.engine.errors import InputError, RuleViolation
from ikusa.systems.maai import defence as defence_mod
from ikusa.systems.maai.catalog import (
    SECTIONS,
    Armour,
    Catalog,
    Feat,
    Maneuver,
    School,
    Stance,
    Tag,
    Weapon,
    load_catalog,
)
from ikusa.systems.maai.costs import cost_breakdown, improvised_cost, reaction_cost, shinpu_modifiers
from ikusa.systems.maai.defence import BonusKind, DefenceBonus, compute_defence, spirit_tn
from ikusa.systems.maai.grades import Grade, armour_vigor_penalty, base_defence, base_wounds, max_vigor
from ikusa.systems.maai.options import DEFAULT_OPTIONS, MaaiOptions

FIXED_TOPICS = ("grades", "options", "improvised", "defence", "unimplemented")
_FIXED_ALIASES = {"defense": "defence", "防備": "defence", "等級": "grades", "即興": "improvised",
                  "grade": "grades", "option": "options", "未実装": "unimplemented", "missing": "unimplemented",
                  "gaps": "unimplemented"}
KIND_LABELS = {"attack": "攻撃", "defence": "防御", "counter": "反撃", "movement": "移動", "stance": "構え",
               "command": "命令", "maintenance": "整備", "feat": "特技"}
SECTION_LABELS = {"weapons": "武器", "maneuvers": "技法", "armour": "防具", "stances": "構え",
                  "feats": "特技", "schools": "流派"}


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip().lower()


def topics(catalog: Catalog | None = None) -> list[str]:
    """The fixed topics, then every catalog id (names and aliases also work)."""
    cat = catalog or load_catalog()
    return [*FIXED_TOPICS, *(key for s in SECTIONS for key in getattr(cat, s))]


def _all_keys(cat: Catalog, opts: MaaiOptions) -> list[str]:
    keys = [*FIXED_TOPICS, *_FIXED_ALIASES]
    for s in SECTIONS:
        for e in getattr(cat, s).values():
            keys += [e.id, e.name, *e.aliases]
    keys += [key for key, _, _ in _option_rows(opts)]
    return list(dict.fromkeys(keys))


def _find_entries(cat: Catalog, key: str) -> list[tuple[str, Any]]:
    """(section, entry) for every entry whose id, name or alias equals ``key`` (normalised)."""
    return [(s, e) for s in SECTIONS for e in getattr(cat, s).values()
            if key in (_norm(e.id), _norm(e.name), *(_norm(a) for a in e.aliases))]


def describe(topic: str, catalog: Catalog | None = None, options: MaaiOptions | None = None) -> list[str]:
    """The lines for one topic.  Unknown → :class:`InputError` naming close matches."""
    cat = catalog or load_catalog()
    opts = options or DEFAULT_OPTIONS
    key = _norm(topic)
    fixed = _FIXED_ALIASES.get(key, key)
    if fixed in FIXED_TOPICS:
        return _FIXED[fixed](cat, opts)
    hits = _find_entries(cat, key)
    if len(hits) == 1:
        return _entry_lines(cat, opts, *hits[0])
    if hits:
        out = [f"{topic} is ambiguous ({len(hits)} matches: "
               + ", ".join(f"{e.id} = {SECTION_LABELS[s]} {e.name}" for s, e in hits) + "):"]
        for s, e in hits:
            out += ["", *_entry_lines(cat, opts, s, e)]
        return out
    rows = [r for r in _option_rows(opts) if _option_matches(key, r)]
    if rows:
        return [f"maai options matching {topic!r} (encounter key `options:`):", *(_option_line(r) for r in rows)]
    close = difflib.get_close_matches(key, [_norm(k) for k in _all_keys(cat, opts)], n=6, cutoff=0.5)
    hint = f"close matches: {', '.join(close)}" if close else "no close match"
    raise InputError(f"unknown maai topic {topic!r}; {hint} (`ikusa rules maai` lists all topics)", field="TOPIC")


def _entry_lines(cat: Catalog, opts: MaaiOptions, section: str, entry: Any) -> list[str]:
    if section == "maneuvers":
        return maneuver_lines(cat, entry, opts)
    if section == "weapons":
        return weapon_lines(cat, entry, opts)
    if section == "armour":
        return armour_lines(entry, opts)
    if section == "stances":
        return stance_lines(entry, opts)
    if section == "feats":
        return feat_lines(cat, entry)
    return school_lines(cat, entry)


def _provenance(entry: Any, indent: str = "  ") -> list[str]:
    out = []
    if entry.source:
        out.append(f"{indent}出典: {', '.join(entry.source)}")
    if entry.notes:
        out.append(f"{indent}注: {entry.notes}" + (" ← invented (not in the texts)" if "invented" in entry.notes
                                                   else ""))
    return out


def _tags(tags: tuple[Tag, ...]) -> str:
    return " ".join(str(t) for t in tags)


# ---------------------------------------------------------------- maneuvers and weapons

def maneuver_summary(cat: Catalog, m: Maneuver) -> str:
    """One line: kind, cost, check, 戦力 / 会心, tags, reservation, 0-活力 [型]."""
    parts = [f"{m.name} ({m.id}) {KIND_LABELS[m.kind]}", f"活力{m.cost}"]
    if m.ability or m.skill:
        parts.append("+".join(x for x in (m.ability, m.skill) if x) + (f"{m.bonus:+d}" if m.bonus else ""))
    if m.is_attack:
        dmg = f"戦力{m.damage}/会心{cat.crit_damage(m)}"
        behind = cat.crit_behind_damage(m)
        if m.behind_damage or behind:
            dmg += f" 後方{m.behind_damage}/会心{behind}"
        parts.append(dmg)
    if m.tags:
        parts.append(_tags(m.tags))
    if m.aim_focus:
        parts.append(f"照準集中[{'貫通' if m.aim_focus == 'pierce' else '直撃'}]許可")
    if m.reservable:
        parts.append("予約可")
    if m.zero_vigor_kata:
        parts.append("0活力[型]")
    return " ".join(parts)


def _shinpu_line(cat: Catalog, m: Maneuver, opts: MaaiOptions) -> str | None:
    """The cost inside 心府 from :func:`shinpu_modifiers` (S-R32, S-G12), if it differs."""
    try:
        mods = shinpu_modifiers(m, cat, in_shinpu=True, options=opts)
    except RuleViolation as exc:
        return f"  心府: 使用不可 (option shinpu.ranged = {opts.shinpu.ranged!r}, {exc.rule})"
    if not mods:
        return None
    b = cost_breakdown(m.cost, mods, options=opts)
    return f"  心府内の活力: {b.text} ({', '.join(dict.fromkeys(x.rule for x in mods))}; floor S-R30)"


def maneuver_lines(cat: Catalog, m: Maneuver, opts: MaaiOptions = DEFAULT_OPTIONS) -> list[str]:
    weapon = cat.weapons[m.weapon].name if m.weapon else "共通"
    axis = f" 軸{m.axis}" if m.axis else ""
    out = [f"[{m.name}] ({m.id}) — {weapon}の{KIND_LABELS[m.kind]}{axis}"
           + (f" — 別名 {', '.join(m.aliases)}" if m.aliases else "")]
    out.append(f"  活力 {m.cost} (S-R69; 下限 {opts.costs.floor}, S-R30)"
               + (" — 「0活力」の[型]: 下限の例外 (S-R31), 一間合の上限 S-R59" if m.zero_vigor_kata else ""))
    if m.ability or m.skill:
        out.append(f"  判定: 2D10 + {m.ability or '—'} + {m.skill or '—'}" + (f" {m.bonus:+d}" if m.bonus else ""))
    if m.is_attack:
        out.append(f"  命中で戦力 −{m.damage}、会心で −{cat.crit_damage(m)} (S-R41/S-R43)")
        if m.behind_damage or cat.crit_behind_damage(m):
            out.append(f"  後方の敵へ: 命中 −{m.behind_damage}、会心 −{cat.crit_behind_damage(m)} (S-R43)")
    if m.tags:
        out.append(f"  タグ: {_tags(m.tags)} (S-R45…S-R49)")
    if m.aim_focus:
        out.append(f"  照準集中 許可: 追加活力 N で [{'貫通' if m.aim_focus == 'pierce' else '直撃'}] +N "
                   f"(S-R51; N ≤ 技, S-G08)")
    if m.kind in ("defence", "counter"):
        if m.reservable:
            out.append(f"  予約可 (S-R39): 予約すれば発動 {reaction_cost(m.cost, True, opts)} 活力 (前払い, S-R37); "
                       f"予約なし (即興) {reaction_cost(m.cost, False, opts)} 活力 (S-R40)")
        else:
            out.append(f"  即興で使う場合 {improvised_cost(m.cost, opts)} 活力 (S-R40)")
    if m.defence_type:
        out.append(f"  防御種別: {m.defence_type}")
    shinpu = _shinpu_line(cat, m, opts)
    if shinpu:
        out.append(shinpu)
    extra = [("射程", m.range if m.range != "melee" else None),
             ("1間合の使用回数上限", m.limit_per_round), ("必要", m.requires),
             ("流派", cat.schools[m.school].name if m.school else None),
             ("効果", ", ".join(m.effects) if m.effects else None)]
    out += [f"  {label}: {value}" for label, value in extra if value is not None]
    return out + _provenance(m)


def weapon_lines(cat: Catalog, w: Weapon, opts: MaaiOptions = DEFAULT_OPTIONS) -> list[str]:
    size = "短い武器 (S-R67: 心府 −1)" if w.short else "長い武器 (心府 +1, S-G12)" if w.long else "通常の長さ"
    out = [f"[{w.name}] ({w.id}) — 武器 (S-R42)" + (f" — 別名 {', '.join(w.aliases)}" if w.aliases else "")]
    out.append(f"  技能: {w.skill or '—'}; {size}" + ("; 遠隔 (心府では S-G12)" if w.ranged else "")
               + f"; 装備等級 {w.grade} (S-G06)")
    if w.crit_damage is not None:
        out.append(f"  特殊会心: 戦力 −{w.crit_damage}" + (f"、後方 −{w.crit_behind_damage}" if w.crit_behind_damage
                                                     else "") + " (S-R43)")
    out += _provenance(w)
    out.append("  技法:")
    for m in cat.maneuvers_of(w.id):
        out.append(f"    {maneuver_summary(cat, m)}")
        out += _provenance(m, "      ")
    return out


# ---------------------------------------------------------------- armour, stances, feats, schools

def armour_lines(a: Armour, opts: MaaiOptions = DEFAULT_OPTIONS) -> list[str]:
    slot = "盾" if a.slot == "shield" else "自然甲冑" if a.natural else "鎧"
    out = [f"[{a.name}] ({a.id}) — {slot}, 重さ {a.weight}, 装備等級 {a.grade} (S-G06)"
           + (f" — 別名 {', '.join(a.aliases)}" if a.aliases else "")]
    out.append(f"  防備 +{a.bonus} (甲冑分: [貫通] で削れる, S-R45/S-R46"
               + ("; 自然甲冑にも [貫通], S-G44" if a.natural and opts.defense.pierce_affects_natural_armor else "")
               + ")")
    kind: BonusKind = "shield" if a.slot == "shield" else "natural" if a.natural else "armour"
    by_grade = ", ".join(
        f"{g.label} {compute_defence(base_defence(g, opts), [DefenceBonus(a.name, a.bonus, kind)], options=opts).final}"
        for g in Grade)
    out.append(f"  着用時の防備 (構えなし): {by_grade} (S-R44)")
    penalty = armour_vigor_penalty(a.weight, 0, opts)
    if penalty:
        out.append(f"  最大活力 −{penalty} (體 0 の場合; 體で相殺, S-R26/S-G31)")
    if a.spirit_defence:
        out.append(f"  霊体防備 +{a.spirit_defence}: [霊体] 目標値 {spirit_tn(None, a.spirit_defence, opts).final} "
                   "(S-R47)")
    if a.breath_limit_bonus:
        out.append(f"  一息の上限 +{a.breath_limit_bonus} (S-R28)")
    return out + _provenance(a)


def stance_lines(s: Stance, opts: MaaiOptions = DEFAULT_OPTIONS) -> list[str]:
    cost = s.declare_cost if s.declare_cost is not None else opts.stances.declare_cost
    out = [f"[{s.name}] ({s.id}) — [構え] (S-R58)"]
    out.append(f"  宣言 {cost} 活力 (S-G16), 解除 {opts.stances.release_cost} 活力 (S-R58), "
               f"同時に維持できる構え {opts.stances.max_maintained} (S-R52)")
    if s.defence_bonus:
        out.append(f"  防備 {s.defence_bonus:+d} (甲冑以外: [直撃] で削れる, S-R46; 構えは最良の一つのみ, S-R52)")
    if s.attack_bonus:
        out.append(f"  維持中の攻撃 {s.attack_bonus:+d}")
    if s.effects:
        out.append(f"  効果: {', '.join(s.effects)}")
    return out + _provenance(s)


def feat_lines(cat: Catalog, f: Feat) -> list[str]:
    out = [f"[{f.name}] ({f.id}) — 特技 [{f.type}] (S-R58)"]
    flags = [
        (f.cost is not None, f"活力 {f.cost}"),
        (f.zero_vigor, "0活力 (S-R31; 一間合の上限 S-R59/S-G40)"),
        (bool(f.shinpu_melee_cost_delta), f"心府での近接技法の活力 {f.shinpu_melee_cost_delta:+d} (S-R68; 下限 S-R30)"),
        (f.fatigue_mitigation, "連撃疲労の軽減 (S-R66/S-G46)"),
        (bool(f.breath_limit_bonus), f"一息の上限 +{f.breath_limit_bonus} (S-R28)"),
        (f.crit_extension, "会心拡張"),
        (bool(f.effects), f"効果: {', '.join(f.effects)}"),
    ]
    out += [f"  {text}" for cond, text in flags if cond]
    return out + _provenance(f)


def school_lines(cat: Catalog, s: School) -> list[str]:
    out = [f"[{s.name}] ({s.id}) — 流派 (S-R57, S-G39)" + (f", 技能 {s.skill}" if s.skill else "")]
    flags = [
        (bool(s.defence_bonus), f"防御 {s.defence_bonus:+d}"),
        (bool(s.counter_bonus), f"反撃 {s.counter_bonus:+d}"),
        (s.counter_after_defence_only, "反撃は防御成功の後のみ"),
        (s.simultaneous, "防御と反撃を同時に"),
        (s.counter_cost is not None, f"反撃の活力 {s.counter_cost}"),
        (s.crit_extension, "会心拡張"),
    ]
    out += [f"  {text}" for cond, text in flags if cond]
    for wid, delta in s.shinpu_cost_delta.items():
        out.append(f"  心府での{cat.weapons[wid].name}の活力 {delta:+d} (S-R32; 下限 S-R30)")
    for mid in s.maneuvers:
        out.append(f"  技法: {maneuver_summary(cat, cat.maneuvers[mid])}")
    return out + _provenance(s)


# ---------------------------------------------------------------- fixed topics

def grade_lines(cat: Catalog, opts: MaaiOptions) -> list[str]:
    """戦力 (S-R60, S-G03/S-G56) and base 防備 (S-R44, S-G55) per grade, from grades.py."""
    out = ["ユニット等級 (S-G03 戦力, S-G55 防備):", "  等級  戦力    基本防備"]
    for g in Grade:
        wounds = f"{base_wounds(g, 0, opts)}+體" if g.value in opts.wounds.add_tai_grades else str(
            base_wounds(g, 0, opts))
        out.append(f"  {g.label:<4}  {wounds:<6}  {base_defence(g, opts)}")
    out.append("  戦力: S-R60 (000:L340), S-G03/S-G56 — option wounds.by_grade / wounds.add_tai_grades")
    out.append(f"  基本防備 + 防具 (S-R44): option defense.grade_base; 最大活力 {max_vigor(0, 0, opts)}+技 (S-R24)")
    return out


def _option_rows(opts: MaaiOptions) -> Iterator[tuple[str, Any, str]]:
    """(dotted key, value, description) for every option, group by group."""
    for gname, ginfo in MaaiOptions.model_fields.items():
        group: BaseModel = getattr(opts, gname)
        prefix = ginfo.alias or gname
        for fname, finfo in type(group).model_fields.items():
            yield f"{prefix}.{fname}", getattr(group, fname), finfo.description or ""


def _option_matches(key: str, row: tuple[str, Any, str]) -> bool:
    name, _, desc = row
    if key == _norm(name) or key == _norm(name.split(".")[0]):
        return True
    ids = [_norm(w.strip(":,;()")) for w in desc.split() if w[:2] in ("S-", "s-")]
    return any(key in i.split("/") for i in ids)


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, str) else str(value)


def _option_line(row: tuple[str, Any, str]) -> str:
    name, value, desc = row
    return f"  {name} = {_fmt(value)}: {desc}"


def option_lines(cat: Catalog, opts: MaaiOptions) -> list[str]:
    """Every ruleset option with its (default) value and the gap id it settles."""
    return ["maai ruleset options (encounter key `options:`; defaults = the documented gap defaults):",
            *(_option_line(r) for r in _option_rows(opts))]


def improvised_lines(cat: Catalog, opts: MaaiOptions) -> list[str]:
    """S-R40/S-T19: the improvised price computed by :func:`improvised_cost`."""
    c = opts.costs
    table = ", ".join(f"{n}→{improvised_cost(n, opts)}" for n in range(1, 7))
    return [
        f"即興の反応 (予約なしの防御・反撃): 活力 × {c.improvised_multiplier_num}/{c.improvised_multiplier_den}、"
        "四捨五入 (S-R40, 000:L215)",
        f"  {table} (S-T19)",
        f"  基にする活力: {c.improvised_base} (S-G34: 心府・流派の修正と下限の後)",
        f"  予約済みの防御の発動: {reaction_cost(1, True, opts)} 活力 (前払い, S-R37/S-R39; S-T20)",
    ]


def _pipeline_doc() -> list[str]:
    """The numbered pipeline of defence.py's module docstring (the engine's own statement)."""
    doc = defence_mod.__doc__ or ""
    body = doc.split("Pipeline", 1)[-1].split(">>>", 1)[0]
    return ["  " + line.strip() if line.strip()[:2] in {f"{i}." for i in range(10)} else "     " + line.strip()
            for line in body.splitlines()[1:] if line.strip()]


def defence_lines(cat: Catalog, opts: MaaiOptions) -> list[str]:
    """How 防備 is computed (S-G42), with a worked run of :func:`compute_defence` showing
    every step and the rule it cites."""
    d = opts.defense
    out = ["防備の計算 (S-G42; 000 §3.5, 001 防御・貫通体系):", *_pipeline_doc()]
    out.append(f"  現在の数値: 無防備 −{d.defenseless_penalty} (S-R64), 下限 {d.global_floor} (S-G42), "
               f"[霊体] 基準 {opts.spirit.base_tn} (S-G05), 免除 {opts.spirit.immune_from_tier}以上")
    heavy = cat.armour["juukou"] if "juukou" in cat.armour else next(iter(cat.armour.values()))
    stances = sorted(cat.stances.values(), key=lambda s: -s.defence_bonus)[:2]
    b = compute_defence(
        base_defence(Grade.REN, opts), armour=[DefenceBonus(heavy.name, heavy.bonus, "armour")],
        bonuses=[DefenceBonus(s.name, s.defence_bonus, "stance") for s in stances],
        tags=[Tag.parse("pierce 2"), Tag.parse("direct 1")], defenceless=True, debuffs=[1], options=opts)
    out.append(f"  例: 練 + {heavy.name} + 構え {', '.join(s.name for s in stances)}、攻撃 [貫通 2][直撃 1]、"
               "無防備、防備 −1:")
    out += [f"    {s.label}: {s.delta:+d} → {s.value} ({s.rule})" for s in b.steps]
    out.append(f"    = {b.text}")
    sp = spirit_tn("入門", 2, opts)
    out.append(f"  [霊体] 例 (退魔入門, 霊体防備+2): {sp.text} ({', '.join(sp.rules)})")
    return out


#: gaps the engine settles with data rather than an option value: where the shipped default is
GAP_DATA: dict[str, str] = {
    "S-G04": "armour 防備 per catalog entry (data/armour.yaml: 軽甲2 重甲4 重装甲6 盾1, docs/maai-catalog.md)",
    "S-G07": "d100 tables: the placeholders in data/tables/d100.yaml (天命 narrative; 業報 武器落とし/構え崩し・"
             "足滑り/同士討ち/武器破損; 妖魔乱入 霧/火災/崩壊 effects, 援軍 = the encounter's reinforcements); "
             "an encounter gives its own under homebrew: tables:",
    "S-G11": "stat blocks and techniques: the catalog (data/*.yaml, homebrew:)",
    "S-G18": "fear sources: the [素養] 鬼気 (kiki, fear_aura) and 威嚇 (youma.ikaku, fear) in the catalog, and "
             "the GM ruling 恐怖>SOURCE (maai/fear.py); 制圧力/呪術/交渉: no mechanics (effect data only)",
    "S-G19": "毒/呪い/束縛 = built-in 防備 −N effects (maai/conditions.py), 出血 = −1 戦力 per 間合 until 止血, "
             "恐怖 = S-G18, 重傷 = the survival roll's flag only",
    "S-G05": "非実体: the [素養] 非実体 (hijittai) in the catalog (maai/noncorporeal.py)",
    "S-G24": "式神/傀儡 = units with `operator:`; 降臨/怪異物/威名 = breath-limit extensions in the catalog",
}
#: what the texts name but the combat engine does not play, each with why
NOT_IN_COMBAT: tuple[tuple[str, str], ...] = (
    ("S-G22", "ability growth (+1 per even 段) happens between sessions (progression.* fixed)"),
    ("S-G19", "重傷's state after the combat (戦力 1, rest or treatment) is outside a battle: only flagged"),
    ("S-G24", "学者 活力譲渡 and 陣営基盤 have no catalog entries yet (a GM uses `set` / `effect` rulings)"),
    ("S-G18", "制圧力オーラ (美), 呪術 (智) and 交渉: named uses of abilities without rules (GM rulings)"),
)


def unimplemented_lines(cat: Catalog, opts: MaaiOptions) -> list[str]:
    """What 000/001 leave unspecified ([MISSING]/[UNDEFINED] gaps of ANALYSIS), each with the
    default the engine ships (the options citing it at their values, or the data holding it),
    then what the combat engine does not play."""
    from ikusa.systems.rule_index import entries

    index = entries("maai")
    rows = list(_option_rows(opts))
    out = ["maai: what the texts leave unspecified, with the default shipped (ANALYSIS S-G, (invented) where "
           "the texts give nothing):"]
    for gid, e in index.items():
        head = e["text"].splitlines()[0]
        if not gid.startswith("S-G") or not head.startswith(("[MISSING]", "[UNDEFINED]")):
            continue
        title = head.split("] ", 1)[1].split(" — ")[0]
        out.append(f"  {gid} {title}:")
        if gid in GAP_DATA:
            out.append(f"    data: {GAP_DATA[gid]}")
        cited = [r for r in rows if re.search(rf"\b{gid}\b", r[2])]
        out += [f"    {name} = {_fmt(value)}" for name, value, _ in cited]
        if gid not in GAP_DATA and not cited:
            out.append("    (no option: `ikusa rules maai " + gid + "` gives the default)")
    out.append("Not played in a combat:")
    out += [f"  {gid}: {why}" for gid, why in NOT_IN_COMBAT]
    return out


_FIXED: dict[str, Callable[[Catalog, MaaiOptions], list[str]]] = {
    "grades": grade_lines, "options": option_lines, "improvised": improvised_lines, "defence": defence_lines,
    "unimplemented": unimplemented_lines,
}
