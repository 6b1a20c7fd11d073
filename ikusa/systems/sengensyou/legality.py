"""Why an action is illegal: each refusal names the rule (ANALYSIS id + 003 section)."""

from __future__ import annotations

from ikusa.engine.errors import RuleViolation
from ikusa.engine.protocol import Decision
from ikusa.systems.sengensyou.bullets import homing_target_cap
from ikusa.systems.sengensyou.refusals import OVER, by_decision, key_kinds, within_decision
from ikusa.systems.sengensyou.state import SengensyouState

S_DP = "003 判定とDP"
S_ROW = "003 前衛と後衛"
S_DEF = "003 防御行動"


def _int(x: str) -> int | None:
    try:
        return int(x)
    except ValueError:
        return None


def explain(st: SengensyouState, action: str) -> RuleViolation:
    """Name the rule ``action`` breaks in the current decision (never raises)."""
    d = st.pending()
    if d is None:
        return RuleViolation(*OVER)
    owner = key_kinds(action)
    if owner and d.kind not in owner and action.split(":")[0] not in ("evade", "guard", "none", "cover"):
        return by_decision(d, action)  # a key of another decision: the pending decision's rule
    try:
        found = _explain(st, d, action)
    except (IndexError, ValueError, KeyError):  # a malformed key: fall back to the generic message
        found = None
    if found is None:
        found = within_decision(st, d, action)
    if found is not None:
        return found
    return by_decision(d, action)


def _explain(st: SengensyouState, d: Decision, action: str) -> RuleViolation | None:
    actor = st.fighters.get(d.actor)
    parts = action.split(":")
    head = parts[0]
    if head in ("evade", "guard", "cover") and d.kind == "barrage":
        return RuleViolation("G-R19", S_DEF, "弾幕 cannot be evaded or guarded: pay the DP reduction or take "
                             "the fixed damage (G-G07)")
    if head in ("evade", "guard", "none", "cover") and d.kind not in ("defence", "cover"):
        return RuleViolation("G-R05", S_DEF, "only one defence action per attack, declared after seeing its "
                             "達成値; no defence is pending now")
    if actor is not None:
        if head in ("move", "escape") and d.kind == "action":
            from ikusa.systems.sengensyou.status import move_block

            block = move_block(st, actor.id)
            if block is not None:
                return RuleViolation(block.rule, "003 移動に関して", f"{actor.name} is {block.name}: no 移動 or 逃走 "
                                     "while it lasts (G-R08/G-R09; sengensyou/status.py)")
        if head in ("shot", "melee", "spell", "other", "move", "evade", "guard") and len(parts) > 1:
            n = _int(parts[-1] if head in ("evade", "guard", "other") else
                     parts[2] if head in ("shot", "melee") else parts[-1])
            if n is not None and n <= 0 and head != "move":
                return RuleViolation("G-R03", S_DP, "combat actions and ability activation need at least one "
                                     "die (1 DP); a check without DP is impossible here (G-G10)")
            if n is not None and n > actor.dp:
                return RuleViolation("G-R01", S_DP, f"{actor.name} has {actor.dp} DP and cannot spend {n}")
        if head == "cover" and d.kind == "defence" and len(parts) > 1 and parts[1] in st.fighters:
            g = st.fighters[parts[1]]
            if g.row == "back":
                return RuleViolation("G-R10", S_ROW, f"{g.name} is in the back row (後衛) and cannot guard others")
            if g.guard_used:
                return RuleViolation("G-R19", S_DEF, f"{g.name} has already guarded this turn (ガードは1ターンに1回)")
        if action == "wait" and d.kind == "action" and actor.turn_dp_spent:
            return RuleViolation("G-G26", "003 待機", f"{actor.name} spent DP on its turn (a rolled move): that is "
                                 "not 待機 (no +2 next recovery); end the turn with 'end'")
        if action == "end" and d.kind == "action":
            return RuleViolation("G-R06", "003 待機", "a turn without an attack is 待機 ('wait'); 'end' is only for "
                                 "防御専念 or after spending DP on the turn")
        if head == "guard" and actor.guard_used:
            return RuleViolation("G-R19", S_DEF, f"{actor.name} has already guarded this turn (ガードは1ターンに1回)")
        if head == "guard" and d.kind == "barrage":
            return RuleViolation("G-R19", S_DEF, "ガード cannot be used against a 弾幕")
        if head in ("shot", "melee", "barrage", "homing", "spell", "sc") and actor.focus:
            return RuleViolation("G-R07", "003 防御専念", f"{actor.name} is in 防御専念 and cannot attack this turn")
        if head in ("shot", "melee") and d.kind == "action":
            if actor.row == "back":
                return RuleViolation("G-R10", S_ROW, f"{actor.name} is in the back row (後衛): no ショット/近接攻撃")
            t = st.fighters.get(parts[1]) if len(parts) > 1 else None
            if t is not None and t.row == "back":
                return RuleViolation("G-R10", S_ROW, f"{t.name} is in the back row (後衛) and cannot be the "
                                     "target of ショット/近接攻撃")
            if t is not None and t.hidden:
                return RuleViolation("G-R27", "003 GM 隠れている", f"{t.name} is hidden: only 弾幕 and area effects")
        if head == "melee" and len(parts) > 2 and _int(parts[2]) is not None and (_int(parts[2]) or 0) >= actor.dp:
            return RuleViolation("G-G10", S_DP, "近接攻撃 needs DP for both the approach and the hit check "
                                 "(at least one die each)")
        if head == "homing" and len(parts) > 2:
            k = len(parts[2].split(","))
            if k > homing_target_cap(actor):
                return RuleViolation("G-R16", "003 ホーミング", f"at most ceil(〈ホーミング〉/2) = "
                                     f"{homing_target_cap(actor)} targets")
            if not st.opt.homing_boost_repeatable and any(
                    (_int(x.partition("+")[2]) or 0) > 1 for x in parts[2].split(",")):
                return RuleViolation("G-G12", "003 ホーミング", "+10 per extra 2 DP at most once per target")
            return RuleViolation("G-R20", "003 ホーミング", f"ホーミング costs 2 DP per target (+2 per boost); "
                                 f"{actor.name} has {actor.dp} DP, or the target list is not legal")
        if head == "barrage" and actor.dp < 1:
            return RuleViolation("G-R20", "003 弾幕", "弾幕 costs 1 DP")
        if head in ("barrage", "shot", "homing") and d.kind == "action":
            return RuleViolation("G-G01", "003 攻撃行動の条件", f"{actor.name} lacks the bullet source or the "
                                 f"attack skill for {head} (conditions a/b)")
        if head == "other" and len(parts) > 1 and (_int(parts[1]) or 0) > st.opt.other_max_dice:
            return RuleViolation("G-R02", "003 その他の行動", f"other actions use at most {st.opt.other_max_dice}D")
        if head == "row" and action == "row:back":
            return RuleViolation("G-R10", S_ROW, "the back row (後衛) must be no larger than the front row (前衛)")
        if head == "focus" and action == "focus:yes":
            return RuleViolation("G-R07", "003 防御専念", "防御専念 needs the back row (後衛にいなければならない, X1)")
        if head == "declare":
            return RuleViolation("G-G04", "003 イニシアティブ", f"declare a DP between 0 and {actor.dp}")
        if head in ("sc", "deploy", "shoudan", "sc_defend"):
            return RuleViolation("G-R21", "003 スペルカード", "that spell card is not available (unknown or used)")
        if head == "graze":
            return RuleViolation("G-R12", "003 グレイズ", f"not enough graze ({actor.graze}) for {action}, or "
                                 "not its timing")
    return None
