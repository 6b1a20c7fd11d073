"""A character's own action (G-G05): the legal options and the dispatch.

One attack action per turn (弾幕, ショット, ホーミング, 近接攻撃, スペル, 消費型スペルカード,
その他) or 待機 (G-R06); a character in 防御専念 may not attack (G-R07).  Free actions that do
not end the turn: 移動 (G-R08), 逃走 declaration (G-R09), 展開型/消弾 spell cards (G-R21),
graze → 霊力 (G-R12).
"""

from __future__ import annotations

from ikusa.engine.protocol import Decision, Option
from ikusa.systems.sengensyou import attacks, gm, graze, movement, spellcards
from ikusa.systems.sengensyou.attack_options import (
    attack_cap,
    barrage_options,
    homing_options,
    ignores_rows,
    melee_options,
    shot_options,
    shot_targets,
    spell_options,
)
from ikusa.systems.sengensyou.bullets import MIN_COMBAT_DICE
from ikusa.systems.sengensyou.character import Fighter
from ikusa.systems.sengensyou.effects import GM_END, GM_REFRESH
from ikusa.systems.sengensyou.state import Flow, SengensyouState

FREE_PREFIXES = ("move:", "escape", "deploy:", "shoudan:", "graze:reiryoku:")


def attack_options(st: SengensyouState, f: Fighter, enemies: list[Fighter] | None = None) -> list[Option]:
    """Every legal attack action for ``f`` now, with odds where they are known (``enemies``:
    ``st.enemies(f)`` when the caller has it).

    Order (the short lists first; keys are unchanged): 弾幕, ホーミング, 消費型スペルカード,
    スペル, ショット (every target at 1 DP, then 2 DP …), 近接攻撃 (likewise)."""
    if enemies is None:
        enemies = st.enemies(f)
    visible = tuple((t.id, t.name) for t in enemies if not t.hidden)  # (id, name): the options' keys and labels
    cap = attack_cap(st, f)
    opts = [*barrage_options(st, f), *homing_options(st, f, visible), *spellcards.attack_options(st, f, visible),
            *spell_options(st, f, cap, visible)]
    if f.row == "front" or ignores_rows(f):  # G-R10: ショット / 近接攻撃 from the front row
        front = shot_targets(st, f, enemies)
        opts += shot_options(st, f, cap, front)
        opts += melee_options(st, f, cap, front)
    return opts


def other_options(st: SengensyouState, f: Fighter) -> tuple[Option, ...]:
    """G-R02 / G-G33: その他 with at most 3 dice."""
    most = st.opt.other_max_dice
    top = min(most, f.dp)
    return st.options(("other", most, top), _other_options, most, top)


def _other_options(most: int, top: int) -> list[Option]:
    return [Option(f"other:{n}", f"その他の行動 {n}DP (最大{most}D, 結果はGM裁定)", n, None, {"kind": "other", "dp": n})
            for n in range(MIN_COMBAT_DICE, top + 1)]


def _turn_end_options(bonus: int) -> list[Option]:
    """The three ways an action decision can end the turn, in this order: 防御専念 (G-R07),
    after spending DP (G-G26), 待機 (G-R06)."""
    return [Option("end", "防御専念中: 行動終了", None, None, {"kind": "end"}),
            Option("end", "行動終了 (DPを使ったので待機ボーナス無し)", None, None, {"kind": "end"}),
            Option("wait", f"待機 (次ターンDP回復 +{bonus})", None, None, {"kind": "wait"})]


def action_options(st: SengensyouState, f: Fighter) -> list[Option]:
    """The action decision: 待機 / 行動終了, attack actions (unless 防御専念), その他, free actions
    (spell cards, graze → 霊力, escape, movement: the long rolled-move list last).

    G-G26: 待機 means no attack and no DP-spent on the own turn; after a rolled move
    (DP spent) the turn can only end without the 待機 bonus."""
    bonus = st.opt.wait_recovery_bonus
    focus, spent, wait = st.options(("turn_end", bonus), _turn_end_options, bonus)
    enemies = st.enemies(f)
    if f.focus:
        opts = [focus]
    else:
        opts = [spent if f.turn_dp_spent else wait, *attack_options(st, f, enemies), *other_options(st, f)]
    opts += spellcards.free_options(st, f)
    if f.graze >= graze.REIRYOKU_RATE:
        opts += graze.reiryoku_options(f)
    opts += movement.free_options(st, f, enemies)
    return opts


def take_action(st: SengensyouState, f: Fighter, pending: Decision | None = None) -> Flow:
    """The character's action: free actions first, then one attack action, 待機 or 終了.
    ``pending``: a clone resumes here with its action decision already asked (turn.battle)."""
    # issue #8: the GM skipped this turn (sengensyou/rulings.py)
    if pending is None and st.fx.skip and f.id in st.fx.skip:
        st.fx.skip.discard(f.id)
        f.acted = True
        st.emit("skip", "GM", f"{f.name} の手番はGM裁定で飛ばされた", who=f.id)
        return
    while True:
        if pending is not None:
            key = yield pending  # "action" is REFRESHED: ask() would return any key as it is
            pending = None
        else:
            # "action" is REFRESHED: the decision is yielded here, not through ask() (issue #12)
            key = yield Decision.lazy(f.id, "action", _action_prompt, (f.name, f.dp, f.dp_max, f.hp, f.graze),
                                      tuple(action_options(st, f)))
        if key == GM_REFRESH:  # a GM ruling changed what the options depend on
            continue
        if key == GM_END:
            f.acted = True
            return
        if key.startswith(FREE_PREFIXES):
            free_action(st, f, key)
            if not f.active:
                return
            continue
        break
    f.acted = True
    if key in ("wait", "end"):
        if key == "wait":
            f.waited = True
            f.wait_bonus = st.opt.wait_recovery_bonus
            st.emit("wait", "G-R06,G-G26", f"{f.name} 待機 (次ターンのDP回復 +{st.opt.wait_recovery_bonus})",
                    who=f.id)
            gm.hidden_check(st, f, acting=False)
        elif f.focus:
            st.emit("end", "G-R07", f"{f.name} 防御専念のため攻撃しない", who=f.id)
            gm.hidden_check(st, f, acting=False)
        else:
            st.emit("end", "G-G26", f"{f.name} 行動終了 (移動にDPを使ったので待機ではない)", who=f.id)
            gm.hidden_check(st, f, acting=False)
        return
    gm.hidden_check(st, f, acting=True)
    yield from attacks.resolve(st, f, key)
    if st.opt.hidden_revealed_after_attack and f.hidden:
        f.hidden = False
        st.emit("revealed", "G-R27", f"{f.name} は攻撃したため発見される", who=f.id)


def _action_prompt(name: str, dp: int, dp_max: int, hp: int, graze: int) -> str:
    return f"{name}の行動 (DP {dp}/{dp_max}, HP {hp}, グレイズ {graze})"


def free_action(st: SengensyouState, f: Fighter, key: str) -> None:
    """Actions that do not use up the turn (G-R08, G-R09, G-R21, G-R12)."""
    if key.startswith("move:"):
        movement.move(st, f, key)
    elif key == "escape":
        movement.declare_escape(st, f)
    elif key.startswith(("deploy:", "shoudan:")):
        spellcards.use_free(st, f, key)
    else:
        graze.spend_reiryoku(st, f, int(key.split(":")[2]))
