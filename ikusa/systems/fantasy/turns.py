"""Rounds and turns (F-H07): initiative per round, surprise in round 1, turn start
bookkeeping (surprise cleared, cover ends, drowning), durations and the end of battle.

* F-R04/F-G03: in round 1 surprised characters roll no initiative and get no turn; every
  other character acts normally (no separate surprise round);
* F-R05/F-G01: the surprise penalty lasts until the character's first turn begins;
* F-R18/F-G15: without air underwater, after 肉体値 rounds, 1D fatigue on own turn each round;
* (invented) the battle ends as a draw after ``round_cap`` rounds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ikusa.dice.source import DiceSource
from ikusa.engine.events import Event
from ikusa.systems.fantasy import surprise
from ikusa.systems.fantasy.actions import apply_damage
from ikusa.systems.fantasy.character import Fighter
from ikusa.systems.fantasy.effects import gm_roll, tick_round
from ikusa.systems.fantasy.resolution import Check, roll_check

if TYPE_CHECKING:
    from ikusa.systems.fantasy.state import FantasyState


def begin(st: FantasyState, dice: DiceSource) -> list[Event]:
    """The 'start' decision: surprise checks (F-R01…F-R03), then round 1."""
    st.started = True
    events: list[Event] = [Event("battle", "F-R06",
                                 f"戦闘開始: 戦場 {st.field.name} ({st.field.rule_text()})",
                                 {"battlefield": st.field.id})]
    if st.enc.surprise is not None:
        sp = st.enc.surprise
        events.extend(surprise.resolve(sp.mode, set(sp.hiders), list(st.fighters.values()), st.opts, dice,
                                       st.mods))
    for f in st.fighters.values():
        if f.surprised:
            events.append(Event("surprised", "F-R04",
                                f"{f.name} は不意打ちを受けた: 第1ラウンドは陣形のみ、"
                                "イニシアティブ・行動・機会攻撃なし",
                                {"id": f.id}))
    # F-R04: the surprised first set their place in the formation (one decision each, no
    # dice); round 1 (initiative) starts after the last of them (state._place).  One who cannot
    # act at all (麻痺/睡眠/朦朧) stays where it is.
    st.placing = [f.id for f in st.fighters.values()
                  if f.surprised and not f.out and st.flag(f, "can_act") is None]
    if not st.placing:
        events.extend(start_round(st, dice))
    return events


_INITIATIVE = ("initiative",)


def start_round(st: FantasyState, dice: DiceSource) -> list[Event]:
    events: list[Event] = []
    if _check_end(st, events):
        return events
    if st.round >= st.opts.round_cap:
        st.over = True
        events.append(Event("end", "ROUND-CAP", f"第{st.round}ラウンドで上限 (round_cap={st.opts.round_cap}, "
                            "invented) に達した: 引き分け", {"round": st.round}))
        return events
    st.round += 1
    events.append(Event.lazy("round", "F-H07", "第{}ラウンド開始".format, (st.round,), {"round": st.round}))
    rolls: list[tuple[int, int, int, str]] = []
    for i, f in enumerate(st.fighters.values()):
        if f.out:
            continue
        if st.breathless(f):
            f.breathless_rounds += 1  # F-R18/F-G15: counts every round underwater, surprised or not
        if st.round == 1 and f.surprised:
            events.append(Event("initiative", "F-R04", f"{f.name}: 不意打ちを受けたため第1ラウンドはイニシアティブなし",
                                {"id": f.id, "initiative": None}))
            f.initiative = None
            continue
        mods = st.fx.mods(f.id, _INITIATIVE) if st.fx.book.active or st.fx.next_mod else ()  # GM effects only
        c = gm_roll(st, f, roll_check(dice, st.opts, "initiative", f.name, f.spec.values.initiative, mods))
        f.initiative = c.total
        rolls.append((-c.total, -f.spec.values.initiative, i, f.id))
        events.append(Event.lazy("initiative", "F-H07", _initiative_text, (f.name, c),
                                 {"id": f.id, "initiative": c.total}))
    st.order = [fid for *_k, fid in sorted(rolls)]
    names = tuple(st.fighters[x].name for x in st.order)
    events.append(Event.lazy("order", "F-H07", _order_text, (names,), {"order": list(st.order)}))
    events.extend(_next_turn(st, dice))
    return events


def _order_text(names: tuple[str, ...]) -> str:
    return f"行動順: {' → '.join(names)}"


def _initiative_text(name: str, c: Check) -> str:
    """An initiative line, made when first read (issue #12: an AI never reads it)."""
    return f"{name} {c.text()}"


def _next_turn(st: FantasyState, dice: DiceSource) -> list[Event]:
    """Start the next turn in the order, skipping those who cannot act; end the round when
    the order is exhausted."""
    events: list[Event] = []
    while st.order:
        fid = st.order.pop(0)
        f = st.fighters[fid]
        if f.out:
            continue
        events.extend(_turn_start(st, f, dice))
        if _check_end(st, events):
            return events
        if f.out:
            continue
        blocker = st.flag(f, "can_act")
        if blocker is not None:
            events.append(Event("skip", blocker.rule, f"{f.name} は{blocker.name}のため行動できない",
                                {"id": f.id, "condition": blocker.id}))
            continue
        st.current = fid
        f.actions = st.opts.actions_per_turn
        return events
    events.extend(_end_round(st, dice))
    return events


def _turn_start(st: FantasyState, f: Fighter, dice: DiceSource) -> list[Event]:
    events: list[Event] = []
    if f.surprised and not f.acted:
        events.append(Event("surprise_end", "F-R05,F-G01",
                            f"{f.name} の手番が来た: 不意打ちのペナルティ(回避・ST−2)終了", {"id": f.id}))
    f.acted = True
    if f.has("cover"):
        f.remove("cover")
        events.append(Event.lazy("cover_end", "F-H08", "{} の遮蔽が終わる".format, (f.name,), {"id": f.id}))
    if st.breathless(f) and f.breathless_rounds > f.spec.body:
        (v,) = dice.roll(st.opts.die_sides, 1, f"{f.name} 溺れ 疲労1D", roller=f.id)
        f.fatigue += v
        events.append(Event("drowning", "F-R18,F-G15",
                            f"{f.name} 水中で呼吸できず{f.breathless_rounds}ラウンド目 (肉体値{f.spec.body}超過): "
                            f"疲労ダメージ 1D[{v}]={v} (疲労計{f.fatigue}, 水から出て休むまで回復不可)",
                            {"id": f.id, "damage": v, "round_underwater": f.breathless_rounds}))
        events.extend(apply_damage(st, f, v, "疲労"))
    return events


def _end_round(st: FantasyState, dice: DiceSource) -> list[Event]:
    """Durations count down at the end of each round; a condition reaching 0 ends (F-H12)."""
    events: list[Event] = []
    st.current = None
    for f in st.fighters.values():
        if f.out:
            continue
        keep = []
        for c in f.conds:
            if c.rounds is not None:
                c.rounds -= 1
                if c.rounds <= 0:
                    d = st.table[c.id]
                    events.append(Event("condition_end", "F-H12," + d.rule, f"{f.name} の{d.name}が回復した (期間終了)",
                                        {"id": f.id, "condition": c.id}))
                    continue
            keep.append(c)
        f.conds = keep
    if st.fx.book.active:  # issue #8: N-round effects end like conditions (F-H12)
        events.extend(tick_round(st))
    events.extend(start_round(st, dice))
    return events


def after_action(st: FantasyState, dice: DiceSource) -> list[Event]:
    """After an action: check the end of battle; end the turn when the actor is out of
    actions (or out of the battle, or chose to end); otherwise continue the turn."""
    events: list[Event] = []
    if _check_end(st, events):
        return events
    assert st.current is not None
    f = st.fighters[st.current]
    if f.out or f.actions <= 0 or st.flag(f, "can_act") is not None:
        events.extend(_next_turn(st, dice))
    return events


def _check_end(st: FantasyState, events: list[Event]) -> bool:
    if st.over:
        return True
    first: str | None = None
    for f in st.fighters.values():  # two sides still standing: the battle goes on (one pass, issue #12)
        if not (f.down or f.fallen):
            if first is None:
                first = f.side
            elif f.side != first:
                return False
    st.over = True  # one side left (or nobody)
    st.current = None
    st.winner = first
    txt = f"戦闘終了: 勝者 {st.winner}" if st.winner else "戦闘終了: 全員戦闘不能 (引き分け)"
    events.append(Event("end", "F-H07", txt, {"winner": st.winner, "round": st.round}))
    return True
