"""Movement (G-R08, G-G11) and escape (G-R09, G-G27).

Movement: up to 判定値 = 身体+〈回避〉 metres with no check and no DP; further with a roll of
any number ≥ 1 of DP (no cap), reaching 達成値 metres.  Escape: declared during the turn
(combinable with combat actions); at turn end an opposed 知性+〈飛行〉 check against the best
pursuer; optionally a running score (+1/−1) that must reach the GM's value (default 3).
"""

from __future__ import annotations

from functools import partial

from ikusa.engine.protocol import Option
from ikusa.systems.sengensyou.character import Fighter
from ikusa.systems.sengensyou.checks_flow import PoolRoll
from ikusa.systems.sengensyou.column_option import Column, column_option
from ikusa.systems.sengensyou.state import Flow, SengensyouState, ask
from ikusa.systems.sengensyou.status import move_block


def free_move(f: Fighter) -> int:
    """G-R08: metres reachable with no check (身体+〈回避〉)."""
    return f.stat("身体") + f.skill("回避")


#: G-R09: the escape declaration (the same option every time)
ESCAPE = Option("escape", "逃走を宣言 (ターン終了時に知性+〈飛行〉で対抗判定)")


def free_options(st: SengensyouState, f: Fighter, enemies: list[Fighter] | None = None) -> list[Option]:
    """Escape declaration, then movement (free first, rolled last: the longest list);
    ``enemies``: ``st.enemies(f)`` when the caller has it."""
    opts: list[Option] = []
    if st.fx.book.active and move_block(st, f.id) is not None:
        return opts  # G-R08/G-R09: immobile or confined (status.py)
    if not f.escaping and (st.enemies(f) if enemies is None else enemies):
        opts.append(ESCAPE)
    if not f.moved:
        opts += moves(st, free_move(f), f.dp)
    return opts


def moves(st: SengensyouState, metres: int, dp: int) -> tuple[Option, ...]:
    """移動 up to ``metres`` with no check, then 移動判定 with 1 … ``dp`` DP.  Issue #12: kept
    per distance on the encounter and made longer when a later move has more DP (the list for
    fewer DP is its beginning; a longer copy replaces the kept one)."""
    memo = st.grow_memo
    key = ("move", metres)
    got: tuple[Option, ...] = memo.get(key, ((), (), ()))[2]
    if len(got) <= dp:
        if not got:
            got = (Option.lazy("move:free", partial(_free_label, metres)),)
        col: Column = (_roll_label, (metres,))  # the label: _roll_label(metres, n, None)
        got += tuple(column_option(f"move:roll:{n}", col, n, None, {}) for n in range(len(got), dp + 1))
        memo[key] = ((), (), got)
    return got[:dp + 1]


def _free_label(metres: int) -> str:
    return f"移動 {metres}mまで (判定無し, DP不要)"


def _roll_label(metres: int, n: int, _odds: None) -> str:
    return f"移動判定 {n}DP 身体+〈回避〉{metres}+{n}D6 (m)"


def move(st: SengensyouState, f: Fighter, key: str) -> None:
    """G-R08 / G-G11."""
    f.moved = True
    if key == "move:free":
        st.emit("move", "G-R08,G-G11", f"{f.name} 移動 {free_move(f)}mまで (判定無し, DP消費無し)", who=f.id,
                metres=free_move(f))
        return
    n = int(key.split(":")[2])
    f.spend_dp(n)
    f.turn_dp_spent = True
    roll = st.check(f, free_move(f), n, f"{f.name} 移動")
    st.emit_lazy("move", "G-R08,G-G11", _move_text, (f.name, roll, f.dp), who=f.id, metres=roll.total, dp=n)


def _move_text(name: str, roll: PoolRoll, dp: int) -> str:
    return f"{name} 移動判定 身体+〈回避〉 {roll.show()} → {roll.total}m (DP→{dp})"


def declare_escape(st: SengensyouState, f: Fighter) -> None:
    f.escaping = True
    st.emit("escape_declared", "G-R09", f"{f.name} 逃走を宣言 (戦闘を続けつつターン終了時に対抗判定)", who=f.id)


def flight_base(f: Fighter) -> int:
    return f.stat("知性") + f.skill("飛行")


def track_step(score: int, escaper_won: bool, floor: int) -> int:
    """G-R09 / G-G27: +1 per escaper win, −1 per pursuer win, never below ``floor``."""
    return score + 1 if escaper_won else max(floor, score - 1)


def escape_contests(st: SengensyouState) -> Flow:
    """Turn end: each escaper against the single best pursuer (G-G27)."""
    for f in [g for g in st.active() if g.escaping]:
        pursuers = st.enemies(f)
        if not pursuers:
            continue
        p = max(pursuers, key=lambda g: flight_base(g))
        fo = [Option(f"escape_dp:{n}", f"逃走 知性+〈飛行〉{flight_base(f)}+{n}D6", cost=n) for n in range(f.dp + 1)]
        fk = yield from ask(f.id, "escape", f"{f.name}: 逃走の対抗判定に使うDP", fo)
        po = [Option(f"pursue_dp:{n}", f"追跡 知性+〈飛行〉{flight_base(p)}+{n}D6", cost=n) for n in range(p.dp + 1)]
        pk = yield from ask(p.id, "pursue", f"{p.name}: {f.name}の逃走を追う対抗判定に使うDP", po)
        fn, pn = int(fk.split(":")[1]), int(pk.split(":")[1])
        f.spend_dp(fn)
        p.spend_dp(pn)
        a = st.check(f, flight_base(f), fn, f"{f.name} 逃走")
        b = st.check(p, flight_base(p), pn, f"{p.name} 追跡")
        won = a.total > b.total  # ties keep the fight going (invented)
        text = f"{f.name} 逃走 {a.show()} 対 {p.name} 追跡 {b.show()} → {'逃走側' if won else '追跡側'}の勝ち"
        if st.opt.escape_track:
            f.escape_score = track_step(f.escape_score, won, st.opt.escape_track_floor)
            text += f" (逃走値 {f.escape_score}/{st.opt.escape_track_target})"
            escaped = f.escape_score >= st.opt.escape_track_target
        else:
            escaped = won
        st.emit("escape", "G-R09,G-G27", text, who=f.id, pursuer=p.id, escaper=a.total, chaser=b.total,
                score=f.escape_score)
        if escaped:
            f.escaped = True
            st.emit("escaped", "G-R09", f"{f.name} は戦闘から離脱した", who=f.id)
            if st.update_end():
                return
