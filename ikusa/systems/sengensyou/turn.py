"""The turn of 千幻抄 (ANALYSIS G.C turn model): DP recovery (G-G03, G-R06), initiative by
declared DP (G-G04) or the simplified order (G-R30), rows (G-R10), 防御専念 (G-R07), one
attack action per character (G-G05), escape contests at turn end (G-R09), and the GM ending
the scene (G-R12: graze is lost)."""

from __future__ import annotations

from ikusa.engine.protocol import Decision, Option
from ikusa.systems.sengensyou.character import ROW_JA, Fighter
from ikusa.systems.sengensyou.effects import GM_REFRESH, recovery_parts, tick_turn
from ikusa.systems.sengensyou.state import Flow, SengensyouState, ask, ask_lazy


def battle(st: SengensyouState, resume: tuple[list[str], int, Decision] | None = None) -> Flow:
    """The whole battle, turn after turn, then the GM's scene end.

    ``resume`` = (the turn's order, the index of the acting character, its pending action
    decision): the flow of a :meth:`SengensyouState.clone` taken at an action decision
    (issue #11), which yields that decision first and goes on exactly as the original would.
    Everything else the flow needs is the state's data; ``st.cursor`` records where it is."""
    from ikusa.systems.sengensyou.actions import take_action
    from ikusa.systems.sengensyou.movement import escape_contests

    if resume is None:
        st.emit("battle_start", "G-H04", f"戦闘開始: {st.enc.title or '千幻抄'}",
                sides=list(st.sides))
    while resume is not None or not st.update_end():
        if resume is None:
            st.turn += 1
            if st.turn > st.opt.max_turns:
                st.turn = st.opt.max_turns
                st.finished = True
                st.winner = None
                st.emit("turn_cap", "invented:max_turns",
                        f"{st.opt.max_turns}ターン経過: GMが戦闘を打ち切る (勝者なし)", max_turns=st.opt.max_turns)
                break
            if st.opt.gm_turn_prompt and st.turn > 1:
                key = yield from ask("GM", "gm_turn", f"第{st.turn}ターン開始前: 戦闘を続けるか",
                                     [Option("continue", "続ける"), Option("end_scene", "戦闘シーン終了を宣言")])
                if key == "end_scene":
                    st.finished = True
                    st.winner = None
                    end_scene(st)
                    return
            yield from turn_start(st)
            order, start = list(st.order), 0
        else:  # a clone: inside take_action of order[start], its decision pending
            order, start, pending = resume
            resume = None
            st.cursor = (order, start)
            yield from take_action(st, st.f(order[start]), pending)
            start += 1
        for i in range(start, len(order)):
            f = st.f(order[i])
            if f.active and not f.acted and not st.update_end():
                st.cursor = (order, i)
                yield from take_action(st, f)
        st.cursor = None
        if st.update_end():
            break
        yield from escape_contests(st)
        if st.fx.book.active:  # issue #8: N-turn effects count down as the turn ends
            tick_turn(st)
    yield from scene_end(st)


def turn_start(st: SengensyouState) -> Flow:
    """Turn start: arrivals, DP recovery, initiative, rows, 防御専念."""
    st.emit("turn_start", "G-G04", f"── 第{st.turn}ターン ──", turn=st.turn)
    from ikusa.systems.sengensyou.gm import arrive_reinforcements, simplified_order

    if st.turn > 1:
        for f in st.active():
            recover(st, f)
    if st.arrivals:
        arrive_reinforcements(st)  # after recovery: they enter with DP回復数 × 2 (G-R28)
    act = st.active()
    for f in act:
        f.acted = f.guard_used = f.focus = f.moved = f.escaping = f.waited = f.turn_dp_spent = False
    if st.opt.simplified:
        st.order = simplified_order(st)
    else:
        ask_dp = st.opt.ask_declarations
        for f in act:
            if ask_dp:
                yield from declare(st, f)
            else:
                f.declared = f.dp
        st.order = initiative_order(st)
    fs = st.fighters
    st.emit_lazy("initiative", "G-G04", _initiative_text, (tuple((fs[i].name, fs[i].declared) for i in st.order),),
                 order=list(st.order))
    yield from choose_rows(st)
    for fid in st.order:
        f = fs[fid]
        if f.row == "back" and f.active:
            yield from declare_focus(st, f)


def _initiative_text(names: tuple[tuple[str, int], ...]) -> str:
    return "イニシアティブ: " + " > ".join(f"{name}({dp})" for name, dp in names)


def recover(st: SengensyouState, f: Fighter) -> None:
    """G-G03 / G-R06: DP回復数 (+2 after 待機), capped at DP最大値."""
    n = f.dp_recovery + f.wait_bonus
    bonus = f" (待機 +{f.wait_bonus})" if f.wait_bonus else ""
    if st.fx.book.active:  # issue #8: DP回復 effects; a condition stopping it (G-G03/G-G08)
        add, text, stopped = recovery_parts(st, f)
        n = 0 if stopped else max(0, n + add)
        bonus += text + (" DP回復停止" if stopped else "")
    before = f.dp
    got = f.gain_dp(n, cap=st.opt.dp_cap_recovery)
    st.emit_lazy("dp_recovery", "G-G03,G-R06", _recovery_text, (f.name, f.dp_recovery, bonus, got, before, f.dp,
                                                                   f.dp_max), who=f.id, recovery=n, gained=got, dp=f.dp)
    f.wait_bonus = 0


def _recovery_text(name: str, rec: int, bonus: str, got: int, before: int, dp: int, dp_max: int) -> str:
    return f"{name} DP回復 {rec}{bonus} → +{got} (DP {before}→{dp}/{dp_max})"


def declare(st: SengensyouState, f: Fighter) -> Flow:
    """G-G04: declare a DP value (≤ current DP; lower = delay) for the initiative order."""
    while True:  # asked anew when a GM ruling changes the DP (issue #8 §2)
        opts = st.options(("declare", f.dp), _declarations, f.dp)  # shared per DP (issue #12)
        # "initiative" is REFRESHED: the decision is yielded here, not through ask() (issue #12)
        key = yield Decision.lazy(f.id, "initiative", _declare_prompt, (f.name, f.dp), opts)
        if key != GM_REFRESH:
            break
    f.declared = int(key[8:])  # "declare:<n>"


def _declare_prompt(name: str, dp: int) -> str:
    return f"{name}: イニシアティブのDP宣言 (現在DP {dp})"


def _declarations(dp: int) -> list[Option]:
    return [Option(f"declare:{n}", f"DP {n} を宣言" + ("" if n == dp else " (遅らせる)"), None, None, {"dp": n})
            for n in range(dp, -1, -1)]


def initiative_order(st: SengensyouState) -> list[str]:
    """G-G04: descending declared DP; ties: higher 感覚, then PCs (invented), then listing."""
    pcs = st.pcs
    act = [(-g.declared, -g.stat("感覚"), 0 if g.side == pcs else 1, i, g.id)
           for i, g in enumerate(st.fighters.values()) if g.active]
    act.sort()  # (the listing index is unique: the id never decides)
    return [t[4] for t in act]


def back_allowed(members: list[Fighter], i: int, front: int, back: int) -> bool:
    """G-R10: choosing 後衛 for members[i] keeps 後衛 ≤ 前衛 reachable."""
    remaining = len(members) - i - 1
    return back + 1 <= front + remaining


SIMPLE_ROW_JA = {"front": "接敵機動", "back": "回避機動"}


def choose_rows(st: SengensyouState) -> Flow:
    """G-R10 (003:L104-110): at turn start each party splits into 前衛/後衛, back ≤ front.
    In the simplified rules (G-R30) the same split is called 接敵機動/回避機動: 回避機動 can
    neither make nor receive ショット/近接攻撃."""
    simple = st.opt.simplified
    names = SIMPLE_ROW_JA if simple else ROW_JA
    rows = st.options(("rows", simple), _row_options, names)
    for side in st.sides:
        members = [g for g in st.fighters.values() if g.active and g.side == side]
        if not members:
            continue
        front = back = 0
        for i, g in enumerate(members):
            if back_allowed(members, i, front, back):
                key = yield from ask_lazy(g.id, "row", _row_prompt,
                                          (g.name, names["front"], names["back"], front, back), rows)
            else:
                key = "row:front"
            if key == "row:back":
                g.row = "back"
                back += 1
            else:
                g.row = "front"
                front += 1
        st.emit_lazy("rows", "G-R10,G-R30" if simple else "G-R10", _rows_text,
                     (side, tuple(g.name for g in members), tuple(g.row for g in members), front, back, simple),
                     side=side, front=front, back=back)


def _row_prompt(name: str, front_ja: str, back_ja: str, front: int, back: int) -> str:
    return f"{name}: {front_ja}か{back_ja}か ({front_ja}{front}/{back_ja}{back} 決定済み)"


def _row_options(names: dict[str, str]) -> list[Option]:
    """The two row choices (kept per naming: they never change)."""
    return [Option("row:front", names["front"], None, None, {"row": "front"}),
            Option("row:back", names["back"], None, None, {"row": "back"})]


def _rows_text(side: str, names: tuple[str, ...], rows: tuple[str, ...], front: int, back: int, simple: bool) -> str:
    ja = SIMPLE_ROW_JA if simple else ROW_JA
    shown = ", ".join(f"{name}={ja[row]}" for name, row in zip(names, rows, strict=True))
    return f"隊列 {side}: {shown} ({ja['front']}{front} ≥ {ja['back']}{back})"


def declare_focus(st: SengensyouState, f: Fighter) -> Flow:
    """G-R07: 防御専念 after initiative, back row only (X1)."""
    bonus = st.opt.focus_bonus
    opts = st.options(("focus", bonus), _focus_options, bonus)  # (the same two all battle)
    key = yield from ask_lazy(f.id, "focus", _focus_prompt, (f.name,), opts)
    if key == "focus:yes":
        f.focus = True
        st.emit("focus", "G-R07", f"{f.name} 防御専念 (回避/ガード/抵抗 +{st.opt.focus_bonus}, 弾幕効果半減・切り上げ)",
                who=f.id)


def _focus_options(bonus: int) -> list[Option]:
    return [Option("focus:no", "防御専念しない"),
            Option("focus:yes", f"防御専念 (攻撃不可, 回避/ガード/抵抗 +{bonus}, 弾幕半減)")]


def _focus_prompt(name: str) -> str:
    return f"{name}: 防御専念を宣言するか"


def scene_end(st: SengensyouState) -> Flow:
    """G-R12 (003:L146): when the GM declares the scene over, all graze is lost."""
    who = st.winner if st.winner is not None else "なし"
    key = yield from ask("GM", "scene_end", f"戦闘終了 (勝者: {who})。GMが戦闘シーン終了を宣言する",
                         [Option("end_scene", "戦闘シーン終了を宣言 (グレイズは全て消える)")])
    assert key == "end_scene"
    end_scene(st)


def end_scene(st: SengensyouState) -> None:
    """G-R12 (003:L146): all graze is lost when the GM declares the scene over."""
    who = st.winner if st.winner is not None else "なし"
    lost = {f.id: f.graze for f in st.fighters.values() if f.graze}
    for f in st.fighters.values():
        f.graze = 0
    st.scene_over = True
    text = ", ".join(f"{st.f(i).name} {n}" for i, n in lost.items()) or "なし"
    st.emit("scene_end", "G-R12", f"GMが戦闘シーン終了を宣言: グレイズ消滅 ({text}) / 勝者: {who}",
            lost=lost, winner=st.winner)
