"""The rule behind a decision: what each kind of 千幻抄 decision settles, which ANALYSIS id
governs it, and which decision each option key belongs to.

``legality.explain`` first looks for the specific rule an action breaks (DP, rows, 防御専念 …);
when there is none, the refusal cites the rule of the decision pending now: a key of another
decision (``'wait'`` while declaring initiative) is refused with that decision's rule (G-G04),
and a key of this decision that is not open now with the same rule and the legal keys.
No refusal of an action cites only ``ENGINE``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ikusa.engine.errors import RuleViolation
from ikusa.engine.protocol import Decision

if TYPE_CHECKING:
    from ikusa.systems.sengensyou.state import SengensyouState

#: decision kind → (ANALYSIS id, 003 section, what the decision settles)
KIND_RULES: dict[str, tuple[str, str, str]] = {
    "action": ("G-G05", "003 1ターンの行動", "its action this turn (one attack action, 待機 or 行動終了, "
               "plus free actions)"),
    "initiative": ("G-G04", "003 イニシアティブ", "its initiative DP declaration"),
    "row": ("G-R10", "003 前衛と後衛", "its row (前衛/後衛) for this turn"),
    "focus": ("G-R07", "003 防御専念", "whether to declare 防御専念"),
    "defence": ("G-R05", "003 防御行動", "its one defence against this attack"),
    "cover": ("G-G16", "003 防御行動 ガード", "whether to guard an ally (one guard per turn)"),
    "barrage": ("G-G07", "003 弾幕", "paying the 弾幕's DP reduction or taking its fixed damage"),
    "melee_hit": ("G-G15", "003 近接攻撃", "the DP of the melee hit check"),
    "resist": ("G-G21", "003 抵抗", "the DP of its resistance check (max 3D)"),
    "graze_resist": ("G-R12", "003 グレイズ", "graze spent on its resistance (3 per +1)"),
    "graze_boost": ("G-R12", "003 グレイズ", "graze spent on the damage"),
    "sc_defence": ("G-R21", "003 スペルカード", "whether to defend with a consumed spell card"),
    "tekagen": ("G-R22", "003 手加減", "気絶 or 手加減 (HP 1, out of the fight)"),
    "escape": ("G-R09", "003 逃走", "the DP of its escape check"),
    "pursue": ("G-R09", "003 逃走", "the DP of its pursuit check"),
    "gm_turn": ("G-R12", "003 戦闘シーン", "whether the battle goes on this turn"),
    "scene_end": ("G-R12", "003 グレイズ", "declaring the combat scene over (all graze is lost)"),
}

#: the battle is over: no decision remains (the GM declared the scene over, G-R12)
OVER = ("G-R12", "003 グレイズ", "the combat scene is over; no decision is pending")

_ACTION_HEADS = ("wait", "end", "shot", "melee", "homing", "spell", "sc", "other", "move", "escape")


def key_kinds(action: str) -> tuple[str, ...]:
    """The decision kinds whose options ``action`` could be (empty: no decision has such a key)."""
    parts = action.split(":")
    head = parts[0]
    sub = parts[1] if len(parts) > 1 else ""
    if head == "barrage":
        return ("barrage",) if sub in ("pay", "take") else ("action",)
    if head == "graze":
        if sub == "reiryoku":
            return ("action",)
        if sub == "resist":
            return ("graze_resist",)
        if sub == "reigeki":
            return ("barrage",)
        return ("graze_boost",)
    if head in ("deploy", "shoudan"):
        return ("action", "defence", "barrage")
    if head == "guard":
        return ("defence", "cover")
    simple = {"declare": "initiative", "row": "row", "focus": "focus", "evade": "defence", "none": "defence",
              "cover": "defence", "decline": "cover", "hit": "melee_hit", "resist": "resist",
              "accept": "sc_defence", "sc_defend": "sc_defence", "tekagen": "tekagen",
              "escape_dp": "escape", "pursue_dp": "pursue", "continue": "gm_turn"}
    if head in simple:
        return (simple[head],)
    if head == "end_scene":
        return ("gm_turn", "scene_end")
    if head in _ACTION_HEADS:
        return ("action",)
    return ()


def _num(x: str) -> int | None:
    try:
        return int(x)
    except ValueError:
        return None


def _max_n(d: Decision, head: str) -> int:
    return max((_num(k.split(":")[-1]) or 0 for k in d.keys() if k.startswith(head + ":")), default=0)


def within_decision(st: SengensyouState, d: Decision, action: str) -> RuleViolation | None:
    """The specific rule for a key of the pending decision's own kind that is not open now."""
    from ikusa.systems.sengensyou.bullets import can_melee

    f = st.fighters.get(d.actor)
    if f is None:
        return None
    parts = action.split(":")
    head = parts[0]
    n = _num(parts[-1]) if len(parts) > 1 else None
    if head in ("hit", "escape_dp", "pursue_dp", "resist") and n is not None:
        if n > f.dp:
            return RuleViolation("G-R01", "003 判定とDP", f"{f.name} has {f.dp} DP and cannot spend {n}")
        if n < (1 if head in ("hit", "resist") else 0):
            return RuleViolation("G-R03", "003 判定とDP", f"{head} needs at least one die (G-G10)")
    if d.kind == "defence" and head in ("evade", "guard") and n is not None and 0 < n <= f.dp:
        if not any(k.startswith("evade:") for k in d.keys()):
            return RuleViolation("G-R24", "003 GM 不意打ち", f"{f.name} is completely surprised: no evasion "
                                 "or guard against this attack")
        cap = _max_n(d, "evade")
        if n > cap:
            return RuleViolation("G-R24", "003 GM 不意打ち", f"{f.name} is surprised: at most {cap} dice on "
                                 "this defence")
        if head == "guard":
            return RuleViolation("G-G16", "003 防御行動 ガード", f"ガード needs 〈【近接武器】〉 (Lv ≥ 1); "
                                 f"{f.name} has none")
    if head == "cover" and d.kind == "defence":
        who = parts[1] if len(parts) > 1 else ""
        return RuleViolation("G-G16", "003 防御行動 ガード", f"{who!r} is no ally who can guard {f.name} now "
                             "(front row, 〈【近接武器】〉, DP, not hidden, not yet guarded or declined)")
    if d.kind != "action":
        return None
    if head == "move" and f.moved:
        return RuleViolation("G-R08", "003 移動", f"{f.name} has already moved this turn (one movement per "
                             "turn, combinable with the action; engine default, G-G11)")
    if head == "move" and len(parts) == 3 and n is not None and n < 1:
        return RuleViolation("G-G11", "003 移動", "a rolled move spends at least 1 DP (up to 身体+〈回避〉 m "
                             "is 'move:free')")
    if head == "escape" and f.escaping:
        return RuleViolation("G-R09", "003 逃走", f"{f.name} has already declared its escape this turn")
    if head == "wait" and f.focus:
        return RuleViolation("G-R07", "003 防御専念", f"{f.name} is in 防御専念: end the turn with 'end'")
    if head == "melee":
        if not can_melee(f):
            return RuleViolation("G-G01", "003 攻撃行動の条件", f"近接攻撃 needs a melee weapon skill "
                                 f"〈【近接武器】〉 and [鍛錬]; {f.name} lacks them")
        return RuleViolation("G-G10", "003 近接攻撃", "近接攻撃 needs a front-row target and DP for the "
                             "approach and the hit check (at least one die each); this one is not open")
    if head == "spell":
        return RuleViolation("G-G22", "003 スペル", f"{action!r}: the spell is not {f.name}'s, its ability, "
                             f"霊力 ({f.reiryoku}) or target is lacking, or the dice exceed "
                             f"{st.opt.other_max_dice}D (G-G33)")
    if head == "other":
        return RuleViolation("G-R02", "003 その他の行動", f"other actions use 1…{st.opt.other_max_dice}D "
                             f"within {f.name}'s DP ({f.dp}), and not in 防御専念")
    return None


def _legal(d: Decision) -> str:
    return ", ".join(d.keys()[:10]) + (" …" if len(d.options) > 10 else "")


def by_decision(d: Decision, action: str) -> RuleViolation:
    """The refusal citing the rule of the pending decision ``d`` (used when no more specific
    rule applies)."""
    rule, section, what = KIND_RULES.get(d.kind, ("G-G05", "003 1ターンの行動", f"its {d.kind}"))
    owner = key_kinds(action)
    if owner and d.kind not in owner:
        other = KIND_RULES.get(owner[0], ("", "", owner[0]))[2]
        return RuleViolation(rule, section, f"{d.actor} must decide {what} now ({d.kind}); {action!r} "
                             f"is a choice of another decision ({other}); legal: {_legal(d)}")
    if not owner:
        return RuleViolation(rule, section, f"{d.actor} must decide {what} now ({d.kind}); {action!r} "
                             f"is no option of any 千幻抄 decision; legal: {_legal(d)}")
    return RuleViolation(rule, section, f"{action!r} is not open to {d.actor} now ({what}); "
                         f"legal: {_legal(d)}")
