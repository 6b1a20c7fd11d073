"""``ikusa rules sengensyou TOPIC``: how the 千幻抄 engine applies text 003, for a GM at the table.

Every number printed comes from the objects the engine itself uses: the bullet catalogue and
the variant builder (bullets.py: the 003 damage table), the cost constants (bullets.py:
G-R20), the graze gains and rates (graze.py: G-R11/G-R12), spell cards and spells
(data/*.yaml via catalog.py), the ruleset options (options.py: every G-G default with its id)
and the list of rules the engine does not apply (options.NOT_IMPLEMENTED).  Nothing is
restated by hand.

Topics: ``attacks`` (or one attack type: 弾幕, ショット, ホーミング, 近接攻撃, スペル),
``bullets`` (or one bullet id/name), ``defence``, ``graze``, ``spellcards`` (or one card),
``spells`` (or one spell), ``dp``, ``rows``, ``surprise``, ``options`` (or one option key),
``unimplemented``, or a rule id (G-R16, G-G12 …: every topic and option citing it).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable

from ikusa.engine.errors import InputError
from ikusa.systems.sengensyou import graze
from ikusa.systems.sengensyou.attacks import RESIST_TN_FALLBACK_BASE
from ikusa.systems.sengensyou.bullets import (
    ATTACK_JA,
    ATTACK_SKILL,
    BARRAGE_DP,
    HOMING_BOOST_BONUS,
    HOMING_BOOST_DP,
    HOMING_DP_PER_TARGET,
    HOMING_FIXED_BONUS,
    MIN_COMBAT_DICE,
    Variant,
    barrage_numbers,
    round_up_half,
)
from ikusa.systems.sengensyou.catalog import Bullet, Catalog, Spell, SpellCard, catalog
from ikusa.systems.sengensyou.check import fixed_dice_value
from ikusa.systems.sengensyou.gm import REINFORCEMENT_DP_FACTOR
from ikusa.systems.sengensyou.options import NOT_IMPLEMENTED, SengensyouOptions
from ikusa.systems.sengensyou.spellcards import SC_RECOVERY_FLOOR

DEFAULT_OPTIONS = SengensyouOptions()
#: levels shown in the per-level tables (homing dice, 弾幕 numbers)
SAMPLE_LEVELS = range(1, 7)

FIXED_TOPICS = ("attacks", "bullets", "defence", "graze", "spellcards", "spells", "dp", "rows", "surprise",
                "reinforcements", "conditions", "options", "unimplemented")
_ALIASES = {"攻撃": "attacks", "攻撃行動": "attacks", "弾": "bullets", "弾種": "bullets", "defense": "defence",
            "防御": "defence", "防御行動": "defence", "回避": "defence", "ガード": "defence", "グレイズ": "graze",
            "スペルカード": "spellcards", "sc": "spellcards", "スペル": "spells", "ダイスプール": "dp",
            "前衛": "rows", "後衛": "rows", "隊列": "rows", "不意打ち": "surprise", "偷袭": "surprise",
            "増援": "reinforcements", "reinforcement": "reinforcements",
            "option": "options", "未実装": "unimplemented", "missing": "unimplemented",
            "状態異常": "conditions", "status": "conditions", "condition": "conditions"}
_ATTACK_ALIASES = {"barrage": "barrage", "弾幕": "barrage", "shot": "shot", "ショット": "shot", "homing": "homing",
                   "ホーミング": "homing", "melee": "melee", "近接攻撃": "melee", "待機": "wait", "wait": "wait",
                   "防御専念": "focus", "focus": "focus", "移動": "move", "move": "move", "その他": "other",
                   "other": "other", "逃走": "escape", "escape": "escape"}


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip().lower()


def topics(cat: Catalog | None = None) -> list[str]:
    """The fixed topics, the attack types, then every bullet, spell card and spell id."""
    c = cat or catalog()
    return [*FIXED_TOPICS, *dict.fromkeys(_ATTACK_ALIASES.values()), *c.bullets, *c.spellcards, *c.spells]


def describe(topic: str, cat: Catalog | None = None, options: SengensyouOptions | None = None) -> list[str]:
    """The lines for one topic.  Unknown → :class:`InputError` naming close matches."""
    c = cat or catalog()
    opt = options or DEFAULT_OPTIONS
    key = _norm(topic)
    key = _ALIASES.get(key, key)
    fixed: dict[str, Callable[[Catalog, SengensyouOptions], list[str]]] = {
        "attacks": attacks_lines, "bullets": bullets_lines, "defence": defence_lines, "graze": graze_lines,
        "spellcards": spellcards_lines, "spells": spells_lines, "dp": dp_lines, "rows": rows_lines,
        "surprise": surprise_lines, "reinforcements": reinforcement_lines, "conditions": conditions_lines,
        "options": options_lines,
        "unimplemented": unimplemented_lines}
    if key in fixed:
        return fixed[key](c, opt)
    if key in _ATTACK_ALIASES:
        return attack_lines(_ATTACK_ALIASES[key], c, opt)
    for b in c.bullets.values():
        if key in (_norm(b.id), _norm(b.name)):
            return bullet_lines(b, opt)
    for sc in c.spellcards.values():
        if key in (_norm(sc.id), _norm(sc.name)):
            return spellcard_lines(sc, opt)
    for sp in c.spells.values():
        if key in (_norm(sp.id), _norm(sp.name)):
            return spell_lines(sp, opt)
    def cites(line: str) -> bool:
        return key.startswith("g-") and re.search(re.escape(key) + r"(?!\d)", _norm(line)) is not None

    rows = [name for name, field in SengensyouOptions.model_fields.items()
            if key == _norm(name) or cites(field.description or "")]
    out: list[str] = []
    if key.startswith("g-"):  # a rule id: every topic whose heading cites it, then the options
        for t in [*FIXED_TOPICS[:-2], *dict.fromkeys(_ATTACK_ALIASES.values())]:
            lines = describe(t, c, opt)
            if cites(lines[0]):
                out += [*lines, ""]
        out += [f"{rid}: left open by 003 — {why}" for rid, why in NOT_IMPLEMENTED if _norm(rid) == key]
    if rows:
        out += [f"sengensyou options matching {topic!r} (encounter key `options:`):",
                *(_option_line(name, opt) for name in rows)]
    if out:
        return out
    known = [*topics(c), *_ALIASES, *_ATTACK_ALIASES, *SengensyouOptions.model_fields]
    close = difflib.get_close_matches(key, [_norm(k) for k in known], n=6, cutoff=0.5)
    hint = f"close matches: {', '.join(close)}" if close else "known: " + ", ".join(FIXED_TOPICS)
    raise InputError(f"unknown sengensyou topic {topic!r}; {hint} (`ikusa rules sengensyou` lists all topics)",
                     field="TOPIC")


# ---------------------------------------------------------------- attacks

def attack_lines(kind: str, cat: Catalog, opt: SengensyouOptions) -> list[str]:
    """One attack or turn action as the engine resolves it (G-R20 reference row)."""
    sources = [b.name for b in cat.bullets.values() if kind in b.attacks]
    src = f"  弾: {', '.join(sources)} (ikusa rules sengensyou bullets)" if sources else ""
    skill = f"  〈{ATTACK_SKILL[kind]}〉Lv ≥ 1 が必要 (G-G01 条件b, require_attack_skill={opt.require_attack_skill})" \
        if kind in ATTACK_SKILL else ""
    if kind == "barrage":
        lines = ["弾幕 (G-R18, G-R20, G-G06, G-G07)",
                 f"  DP消費{BARRAGE_DP}。敵全員 (後衛・潜伏中も含む) がそれぞれ DP減少数を支払う (グレイズ獲得) か"
                 "固定ダメージを受ける。回避・ガード不可",
                 "  DPが減少数に満たない対象は命中 (DPはそのまま、グレイズ無し)",
                 "  防御専念の対象: DP減少数とダメージを半減 (切り上げ) → 霊撃 → 支払うか受けるか (G-G07, G-G25)"]
    elif kind == "shot":
        lines = ["ショット (G-R15, G-R20)",
                 f"  DP自由消費 (最低{MIN_COMBAT_DICE}D): 消費したDP分のダイスで命中判定",
                 "  対象は前衛の、発見済みの敵のみ (G-R10, G-R27)",
                 "  後衛からは使えない (展開中のスペルカードが隊列制限を無視する場合を除く)",
                 f"  回避されたら回避側にグレイズ (攻撃のダイス数 + 回避のダイス数); "
                 f"グレイズ{graze.BOOST_RATE['shot']}点でダメージ+1"]
    elif kind == "homing":
        lines = ["ホーミング (G-R16, G-R20, G-G12, G-G13, G-G14, G-G34)",
                 f"  DP消費 = 対象数 × {HOMING_DP_PER_TARGET}; 対象は最大 〈ホーミング〉÷2 (切り上げ) 体、後衛も可",
                 f"  達成値は固定値 (判定値 + {HOMING_FIXED_BONUS}); 対象1体ごとに {HOMING_BOOST_DP}DP 追加で達成値+"
                 f"{HOMING_BOOST_BONUS} (" + ("何度でも" if opt.homing_boost_repeatable else "1体につき1回")
                 + ", homing_boost_repeatable)",
                 "  ダメージのダイス数は弾のLv÷2 (切り上げ): "
                 + ", ".join(f"Lv{lv}→{round_up_half(lv)}D" for lv in SAMPLE_LEVELS),
                 "  各対象が自分への達成値に対して1回ずつ防御",
                 f"  回避したらグレイズ = 回避ダイス × {graze.HOMING_EVADE_FACTOR}",
                 "  武器のホーミングはアイテム[業物]が必要 (G-R04)"]
    elif kind == "melee":
        lines = ["近接攻撃 (G-R17, G-R20, G-G15)",
                 f"  DP自由消費を2回 (それぞれ最低{MIN_COMBAT_DICE}D): まず接近判定 感覚+〈回避〉+nD ≥ "
                 f"{opt.melee_approach_base} + 対象の身体 + max(〈回避〉,〈弾幕〉) (melee_approach_base)",
                 f"  接近成功: 攻撃側がグレイズ (接近ダイス数 × {graze.APPROACH_FACTOR})",
                 "  接近失敗: 攻撃は中止 (DPは消費済み, グレイズ無し)",
                 "  次に命中判定 身体+〈【近接武器】〉+nD; ダメージ ([鍛錬]Lv)D + 身体 + 〈【近接武器】〉Lv",
                 f"  近接攻撃の回避ではグレイズを得ない; グレイズ{graze.BOOST_RATE['melee']}点でダメージ+1",
                 "  〈【近接武器】〉と[鍛錬]が必要 (G-G01); 対象・使用者とも前衛のみ (G-R10)"]
    elif kind == "wait":
        lines = ["待機 (G-R06, G-G26)",
                 f"  DP消費無し。攻撃しない; 次ターンのDP回復 +{opt.wait_recovery_bonus} (wait_recovery_bonus)",
                 "  判定無しの移動は可。自分の手番でDPを使った (移動判定など) 場合は待機にならず「行動終了」"]
    elif kind == "focus":
        lines = ["防御専念 (G-R07, G-G25, X1)",
                 "  ターン開始時、イニシアティブ決定後に宣言。後衛のみ。そのターンは攻撃行動不可",
                 f"  回避・ガード・抵抗 +{opt.focus_bonus} (focus_bonus); 弾幕のDP減少数とダメージを半減 (切り上げ)",
                 "  霊撃は半減の後に適用"]
    elif kind == "move":
        lines = ["移動 (G-R08, G-G11)",
                 "  身体+〈回避〉 m までは判定無し・DP不要; それ以上は身体+〈回避〉+nD (n ≥ 1, 上限無し) の達成値 m",
                 "  他の行動と同時に可 (手番を使わない)"]
    elif kind == "escape":
        lines = ["逃走 (G-R09, G-G27)",
                 "  手番中に宣言 (他の行動と同時に可); ターン終了時に知性+〈飛行〉で最も高い追跡者と対抗判定",
                 f"  escape_track={opt.escape_track}: 逃走側の勝ち+1, 追跡側の勝ち-1, "
                 f"{opt.escape_track_target} で逃げ切り (下限 {opt.escape_track_floor})"]
    else:  # other
        lines = ["その他の行動 (G-R02, G-G33)",
                 f"  DP自由消費 (最大{opt.other_max_dice}D, other_max_dice); 結果はGMが決める"]
    return [*lines, *(x for x in (skill, src) if x)]


def attacks_lines(cat: Catalog, opt: SengensyouOptions) -> list[str]:
    out = ["攻撃行動は1ターンに1回 (G-G05); 移動・逃走宣言・展開型/消弾スペルカード・グレイズ→霊力は手番を使わない"]
    for kind in ("barrage", "shot", "homing", "melee"):
        out += ["", *attack_lines(kind, cat, opt)]
    out += ["", "スペル (G-R20, G-G22)",
            f"  DP自由消費 (最大{opt.other_max_dice}D); 霊力を消費して発動判定 (ikusa rules sengensyou spells)"]
    for kind in ("other", "wait", "focus", "move", "escape"):
        out += ["", *attack_lines(kind, cat, opt)]
    return out


# ---------------------------------------------------------------- bullets (003 damage table)

def _level(b: Bullet) -> str:
    return f"[{b.level_name}]Lv"


def _stats(b: Bullet) -> str:
    if b.combined_bonus:
        return (f"特性値 (他スキルと組み合わせた場合そのスキルの特性値で判定値+{b.combined_bonus}, "
                "組み合わせなしは知性, G-G19)")
    return " or ".join(b.stats)


def bullet_lines(b: Bullet, opt: SengensyouOptions) -> list[str]:
    """One row group of the 003 damage table, as bullets.py builds its variants."""
    req = [*(f"[{a}]" for a in b.requires.abilities), *(f"特技[{x}]" for x in b.requires.feats),
           *(f"〈{s}〉" for s in b.requires.skills)]
    out = [f"{b.name} ({b.id}) — 必要: {', '.join(req) or 'なし'} (G-G01 条件a); 攻撃: "
           + ", ".join(ATTACK_JA[k] for k in b.attacks)]
    fixed = f" + 〈{b.fixed_damage_skill}〉Lv (固定値)" if b.fixed_damage_skill else ""
    if "shot" in b.attacks:
        out.append(f"  ショット: 判定値 {_stats(b)} + 〈ショット〉; ダメージ ({_level(b)})D + 特性値{fixed} (G-R15)")
        if b.shot_needs_skills:
            out.append("    必要スキル: " + ", ".join(f"〈{s}〉" for s in (*b.requires.skills, *b.shot_needs_skills))
                       + " の両方 (G-R15)")
        if b.weapon_skill:
            out.append(f"    〈【{b.weapon_skill}】〉で判定も可: 判定値 {_stats(b)} + 〈【{b.weapon_skill}】〉, "
                       f"ダメージに + 〈【{b.weapon_skill}】〉Lv (固定値) (G-G20)")
    if "homing" in b.attacks:
        item = f"; アイテム[{b.homing_needs_item}]が必要 (G-R04)" if b.homing_needs_item else ""
        out.append(f"  ホーミング: 達成値 {_stats(b)} + 〈ホーミング〉 + {HOMING_FIXED_BONUS} (固定値); ダメージ "
                   f"({_level(b)}÷2 切り上げ)D + 特性値{item} (G-R16, G-G14)")
    if "barrage" in b.attacks:
        nums = []
        for lv in SAMPLE_LEVELS:
            x, dmg = barrage_numbers(Variant(b.id, b, "barrage", b.stats[0], "弾幕", 0, lv, 0, 0),
                                     opt.barrage_base_damage)
            nums.append(f"Lv{lv}→{x}/{dmg}")
        out.append(f"  弾幕: DP減少数 = {_level(b)} (最低1), 固定ダメージ = {_level(b)} + 基本ダメージ"
                   f"{opt.barrage_base_damage} (G-G06 invented; DP減少/ダメージ: {', '.join(nums)})")
    return out


def bullets_lines(cat: Catalog, opt: SengensyouOptions) -> list[str]:
    out = ["弾の種別 (G-R13..G-R18): 弾幕・ショット・ホーミングは弾を指定する (data/bullets.yaml)"]
    for b in cat.bullets.values():
        out += ["", *bullet_lines(b, opt)]
    return out


# ---------------------------------------------------------------- defence, graze, DP, rows, surprise

def defence_lines(cat: Catalog, opt: SengensyouOptions) -> list[str]:
    tie = "防御側" if opt.defence_tie == "defender" else "攻撃側"
    return ["防御行動 (G-R05, G-R19, G-G09, G-G16)",
            "  自分への攻撃1つにつき防御行動は1回; 攻撃の達成値を見てから宣言し、DPもそのとき決める",
            f"  成功: 防御の達成値 ≥ 攻撃の達成値 (同値は{tie}の勝ち, defence_tie={opt.defence_tie})",
            "  防御しない・DP0・完全な不意打ち → 命中",
            f"  回避: 感覚+〈回避〉+nD (n ≥ {MIN_COMBAT_DICE}); 弾幕は回避不可",
            f"  ガード: 身体+〈【近接武器】〉+nD; 1ターンに1回; 弾幕には不可; 失敗しても"
            f"ダメージ −{opt.guard_reduction_per_lv}×〈【近接武器】〉Lv (guard_reduction_per_lv); グレイズ無し",
            "  他人へのガード: 前衛のキャラクターのみ; その攻撃の防御行動1回分を使う (対象は回避できない)",
            f"  防御専念: 回避・ガード・抵抗 +{opt.focus_bonus}",
            f"  抵抗 (G-G21): 意志+〈精神抵抗〉 or 耐久+〈肉体抵抗〉, 最大{opt.resist_max_dice}D; "
            f"グレイズ{graze.RESIST_RATE}点で達成値+1",
            "  消費型スペルカードで防御: いつでも (回避・ダメージ判定の後でも); 自分への効果を全て無効化 (G-R21)"]


def graze_lines(cat: Catalog, opt: SengensyouOptions) -> list[str]:
    out = ["グレイズ (G-R11, G-R12, G-G18)", "得られる状況:"]
    out += [f"  {what}: {who}が {formula} ({rule})" for what, who, formula, rule in graze.GAINS]
    out += ["使用法 (ダイスを振った後):",
            f"  霊力回復: {graze.REIRYOKU_RATE}点ごとに霊力+1 (手番中; 最大値を超えない, invented)",
            f"  ショットの強化: {graze.BOOST_RATE['shot']}点ごとにダメージ+1 (ダメージロールの後)",
            f"  近接攻撃の強化: {graze.BOOST_RATE['melee']}点ごとにダメージ+1 (ダメージロールの後)",
            f"  抵抗ボーナス: {graze.RESIST_RATE}点ごとに抵抗の達成値+1 (判定の後)",
            f"  霊撃: {graze.REIGEKI_RATE}点ごとに自分への弾幕のDP減少数-1 (防御専念の半減の後、支払う前)",
            "  複数の対象へのダメージ強化は対象ごとに支払う (G-T06)",
            "  同じやり取りで得たグレイズはそのやり取りの後から使える (G-G18)",
            "  GMが戦闘シーン終了を宣言した時点でグレイズは全て無くなる"]
    return out


def dp_lines(cat: Catalog, opt: SengensyouOptions) -> list[str]:
    return ["ダイスプール (G-R01, G-R03, G-G03, G-G04, G-G35)",
            "  n DPを消費して n D6 を振る; 達成値 = 判定値 (特性値 + スキルLv + 修正) + 出目の合計",
            f"  戦闘行動と能力の発動は最低{MIN_COMBAT_DICE}D; 移動と感知はDP不要 (達成値 = 判定値)",
            f"  DP最大値 = {opt.dp_max_base} + 身体 + 耐久 + 意志 (dp_max_base)",
            f"  DP回復数 = max({opt.dp_recovery_min}, (知性+感覚)÷{opt.dp_recovery_divisor} 切り上げ); "
            f"毎ターン開始時 (第2ターンから); 最大値を超えない={opt.dp_cap_recovery}",
            f"  戦闘開始時: {opt.dp_start} (dp_start)",
            "  イニシアティブ: 回復後に各自DPを宣言 (低く宣言して遅らせられる); 高い順, 同値は感覚, 次にPC",
            f"  増援: DP = DP回復数 × {REINFORCEMENT_DP_FACTOR} で参戦 (G-R28)",
            f"  簡易処理 (simplified={opt.simplified}): NPCのリーダーよりDPが多いPC → NPC → 少ないPC (G-R30, G-G32)",
            f"  GMの固定値 (npc_fixed_dice={opt.fixed_npc_dice}): NPCの判定はダイス数×3.5, "
            f"{opt.fixed_roll_rounding} (G-R29, G-G30): "
            + ", ".join(f"{n}D→{_fixed(n, opt)}" for n in range(1, 5))]


def _fixed(n: int, opt: SengensyouOptions) -> int:
    return fixed_dice_value(n, "ceil" if opt.fixed_roll_rounding == "ceil" else "floor")


def rows_lines(cat: Catalog, opt: SengensyouOptions) -> list[str]:
    return ["前衛と後衛 (G-R10, G-G28)",
            "  パーティーごとにターン開始時に決める; 後衛の人数 ≤ 前衛の人数",
            "  後衛はショット・近接攻撃の対象にならない; 後衛はショット・近接攻撃・他人へのガードを使えない",
            "  防御専念は後衛のみ (X1); 展開型スペルカードの効果で制限を無視できる (ignore_rows)",
            "  簡易処理では接敵機動/回避機動と呼ぶ (G-R30)"]


def surprise_lines(cat: Catalog, opt: SengensyouOptions) -> list[str]:
    return ["不意打ち (G-R24, G-R27, G-G29; 戦闘1ターン目の `surprise:` 側, または潜伏中の攻撃者)",
            "  30m以内 (within): 身体+〈隠密〉 対 感覚+〈感知〉; 気付かれず警戒もしていない → 回避不可",
            f"    警戒していた / [警報術][識域結界]の範囲内 → 回避 −{opt.surprise_unaware_penalty}, "
            f"最大{opt.surprise_max_dice}D",
            f"  30m外 (outside): 攻撃側は最大{opt.surprise_max_dice}D; 警戒していれば感覚+〈感知〉−"
            f"{opt.surprise_outside_penalty} 対 身体+〈隠密〉に勝てば最大{opt.surprise_max_dice}Dで回避"
            " ([警報術][識域結界]の範囲内なら自動成功)",
            f"  100m以上 (far): さらに命中に GMの目標値 {opt.surprise_far_tn} が必要 (surprise_far_tn)",
            "  潜伏中のキャラクター: 弾幕と範囲の効果以外の対象にならない; 毎ターン身体+〈隠密〉 対 感覚+〈感知〉",
            f"  攻撃した潜伏者は発見される: {opt.hidden_revealed_after_attack} (hidden_revealed_after_attack)"]


def reinforcement_lines(cat: Catalog, opt: SengensyouOptions) -> list[str]:
    from ikusa.systems.sengensyou.gm import REINFORCEMENT_DP_FACTOR

    return ["増援 (G-R28; encounter key `reinforcements: [{turn: N, character: {...}}]`, N ≥ 2)",
            f"  第Nターン開始時、DP回復の後に参戦: DP = DP回復数 × {REINFORCEMENT_DP_FACTOR} (DP最大値まで)",
            "  参戦前は対象にならない; 到着予定の増援がいる陣営は全員が倒れても戦闘を続ける",
            f"  ただし max_turns ({opt.max_turns}) より後に到着する増援は来ないものとして扱う",
            "  簡易処理 (G-R30) のリーダーは1ターン目からいる NPC (増援は不可)"]


def conditions_lines(cat: Catalog, opt: SengensyouOptions) -> list[str]:
    from ikusa.systems.sengensyou.status import status_lines

    lines = status_lines()
    dice = f"(G-G03/G-G08/G-R02; 回復判定のダイス {opt.resist_max_dice}D;"
    lines[0] = lines[0].replace("(G-G03/G-G08/G-R02;", dice, 1)
    return lines


# ---------------------------------------------------------------- spell cards and spells

def spellcard_lines(sc: SpellCard, opt: SengensyouOptions) -> list[str]:
    rec = (f"max([能力]Lv, {SC_RECOVERY_FLOOR})" if opt.sc_recovery == "max_lv_3"
           else f"[能力]Lv (能力が無ければ{SC_RECOVERY_FLOOR})")
    ability = f"[{sc.ability}]" if sc.ability else "なし"
    out = [f"{sc.name} ({sc.id}) — {'展開型' if sc.type == 'deploy' else '消費型'}, 能力 {ability}; "
           f"使うたびに弾消しでDP回復 {rec} (G-R21, G-G24, sc_recovery={opt.sc_recovery})"]
    if sc.type == "deploy":
        out.append(f"  いつでも展開; 展開中に受けるダメージはカードのHP {sc.hp} が肩代わり (ブレイク時の超過は消える)")
        if sc.ignore_rows:
            out.append("  展開中は前衛/後衛の制限を無視 (G-R10)")
    else:
        if sc.damage_dice:
            who = "敵全員" if sc.targets == "all" else "敵1体"
            out.append(f"  自分の行動として: {who}に {sc.damage_dice}D + {sc.stat}; 達成値 (固定値) = {sc.stat} + "
                       f"能力Lv + {sc.hit_bonus}; 回避・ガード可")
        out.append("  いつでも: 消弾 (味方全員DP回復, 効果無し) または 防御 (自分への効果を全て無効化, 自分のDP回復)")
    return out


def spellcards_lines(cat: Catalog, opt: SengensyouOptions) -> list[str]:
    out = ["スペルカード (G-R21, G-G24; data/spellcards.yaml; 各カードは戦闘中1回)"]
    for sc in cat.spellcards.values():
        out += ["", *spellcard_lines(sc, opt)]
    return out


def spell_lines(sp: Spell, opt: SengensyouOptions) -> list[str]:
    resist = (f"対象は〈{sp.resist}〉で抵抗 (目標値 "
              + (str(sp.resist_tn) if sp.resist_tn is not None else f"{RESIST_TN_FALLBACK_BASE} + 術者の能力Lv, G-G21")
              + ")"
              if sp.resist else "対象は発動の達成値に対して回避・ガード")
    return [f"{sp.name} ({sp.id}) — [{sp.ability}]; 霊力{sp.reiryoku}; 発動 {sp.stat} + [{sp.ability}]Lv + nD "
            f"(最大{opt.other_max_dice}D) ≥ {sp.tn}; 効果 {sp.damage_dice}D + {sp.damage_stat}; {resist} (G-G22)"]


def spells_lines(cat: Catalog, opt: SengensyouOptions) -> list[str]:
    return ["スペル (G-R20, G-G22; data/spells.yaml)", *(line for sp in cat.spells.values()
                                                       for line in spell_lines(sp, opt))]


# ---------------------------------------------------------------- options, unimplemented

def _option_line(name: str, opt: SengensyouOptions) -> str:
    field = SengensyouOptions.model_fields[name]
    return f"  {name} = {getattr(opt, name)!r}: {field.description}"


def options_lines(cat: Catalog, opt: SengensyouOptions) -> list[str]:
    return ["sengensyou options (encounter key `options:`; every G-G default, ANALYSIS G.B):",
            *(_option_line(name, opt) for name in SengensyouOptions.model_fields)]


def unimplemented_lines(cat: Catalog, opt: SengensyouOptions) -> list[str]:
    return ["What 003 leaves unspecified or gives no numbers for, with the default the engine ships:",
            *(f"  {rid}: {why}" for rid, why in NOT_IMPLEMENTED)]
