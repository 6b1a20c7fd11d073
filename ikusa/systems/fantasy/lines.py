"""Lines of fire, running, breathing, ammunition and spell reach on the rows/fronts model
(#13; F-H05, F-H06, F-H08, F-H11, F-R08, F-R09, F-R16…F-R18, F-G13).

002 names four movement-type actions whose cost water doubles (F-R16/F-R17): 移動,
射線の確保, 遮蔽を取る and 全力移動.  On the rows/fronts model (formation.py):

* 射線の確保 (``aim``): with ``options.line_of_fire: screened`` (invented) a ranged attack or a
  single-target spell at an enemy in the back row is blocked while that unit holds a front;
  securing a line of fire (cost_line_of_fire × water) opens it while the shooter stays where it
  took it (until it moves: 移動, 全力移動 or being led).
  The cliff's own rule (F-R09: no line from back row to enemy back row) is never opened.
* 全力移動 (``run:<front>``): a front-row character runs straight to its unit's other front
  (fore ↔ rear) where the battlefield has two (F-R08), drawing opportunity attacks like a
  withdrawal; the arrival front must have room (F-R08).  An ordinary 移動 passes the back row.
* 「呼吸を整える」 (``breathe``): impossible underwater (F-R18).  002 gives it no effect, so
  it is refused unless ``options.breathe_fatigue_dice`` ≥ 1 (invented host default): the whole
  turn, recovering that many dice of fatigue (疲労) and the HP lost to it, out of the water only.
* ammunition (``WeaponSpec.ammo``, F-H05) and spell reach (``SpellSpec.range_m``, F-H06).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ikusa.dice.source import DiceSource
from ikusa.engine.errors import RuleViolation
from ikusa.engine.events import Event
from ikusa.systems.fantasy.cand import HOST, Cand, cost_reason, reach_if
from ikusa.systems.fantasy.character import Fighter, SpellSpec, WeaponSpec

if TYPE_CHECKING:
    from ikusa.systems.fantasy.state import FantasyState

SEC_LOF = "002 不利な環境 [水場]/[水中] 射線の確保 (F-R16, host F-H08)"


def screened(st: FantasyState, f: Fighter, t: Fighter) -> RuleViolation | None:
    """``line_of_fire: screened``: ``t`` in the back row behind a held front of its unit, and
    ``f`` has not secured a line of fire this turn (F-H08, invented)."""
    if st.opts.line_of_fire != "screened" or t.row != "back" or has_line(f):
        return None
    form = st.formation
    if not any(form.held((t.unit, fr)) for fr in ("fore", "rear")):
        return None
    return RuleViolation("F-H08", SEC_LOF, f"{t.name} は前衛の陰 (後衛): 射線が通らない; 先に「射線の確保」"
                         f"({st.action_cost(f, 'line_of_fire')}アクション) が必要 (options.line_of_fire=screened)")


def _screened_targets(st: FantasyState, f: Fighter) -> list[Fighter]:
    form = st.formation
    if not (any(w.kind != "melee" for w in f.spec.weapons) or any(s.target == "single" and not s.ally
                                                                   for s in f.spec.spells)):
        return []
    return [t for t in st.fighters.values() if t.side != f.side and not t.out and form.line_of_fire(f, t)
            and screened(st, f, t) is not None]


def aim_cand(st: FantasyState, f: Fighter) -> Cand | None:
    """射線の確保: offered only while it would open a line of fire (line_of_fire: screened)."""
    if st.opts.line_of_fire != "screened" or has_line(f):
        return None
    targets = _screened_targets(st, f)
    if not targets:
        return None
    cost = st.action_cost(f, "line_of_fire")
    return Cand("aim", f"射線の確保 ({cost}アクション; {'、'.join(t.name for t in targets)} を狙える)", cost,
                cost_reason(cost, f), None, {"action": "aim", "opens": len(targets)})


def has_line(f: Fighter) -> bool:
    """射線の確保 holds while the shooter stays where it took it (no 移動/全力移動 since)."""
    return f.aimed is not None and f.aimed == (f.row, f.front)


def run_cands(st: FantasyState, f: Fighter, swim_block: RuleViolation | None) -> list[Cand]:
    """全力移動 to the other front of the unit (F-R08 two fronts only)."""
    if not st.field.two_fronts or f.row != "front":
        return []
    other = "rear" if f.front == "fore" else "fore"
    cost = st.action_cost(f, "run")
    why: RuleViolation | None = None
    if not st.formation.has_room((f.unit, other)):
        why = RuleViolation("F-R08", "002 特殊な場所での戦闘 例2/例3",
                            f"{st.field.name}: 前衛に立てるのは{st.formation.cap}人まで")
    why = why or swim_block or cost_reason(cost, f)
    where = "後ろ" if other == "rear" else "前"
    return [Cand(f"run:{other}", f"全力移動: {where}の前衛へ走る ({cost}アクション, 機会攻撃あり)", cost, why, None,
                 {"action": "run", "front": other, "reach": reach_if(st, f, "front", other)})]


def breathe_cand(st: FantasyState, f: Fighter, legal_only: bool = False) -> Cand | None:
    """「呼吸を整える」: F-R18 underwater never; otherwise options.breathe_fatigue_dice (None:
    forbidden, with ``legal_only``)."""
    o = st.opts
    if legal_only and (o.breathe_fatigue_dice == 0 or f.fatigue <= 0 or f.actions < o.actions_per_turn):
        return None  # forbidden whatever the water (issue #12: no refusal written for nobody)
    water = next((d for _c, d in st.effective(f) if d.breath), None)
    why: RuleViolation | None = None
    if water is not None:
        why = RuleViolation("F-R18", f"002 不利な環境 [{water.name}]",
                            f"{water.name}においては「呼吸を整える」ことは不可能")
    elif o.breathe_fatigue_dice == 0:
        why = RuleViolation("F-H11", HOST, "「呼吸を整える」の効果は 002 に定義がない (options."
                            "breathe_fatigue_dice: 0; set it ≥ 1 for the host default)")
    elif f.fatigue <= 0:
        why = RuleViolation("F-H11", HOST, f"{f.name} に回復する疲労がない")
    elif f.actions < o.actions_per_turn:
        why = RuleViolation("F-H11,F-H07", HOST, "「呼吸を整える」は手番の全アクションを使う (この手番はもう行動した)")
    if why is not None and legal_only:
        return None
    return Cand("breathe", f"呼吸を整える (手番全て, 疲労{o.breathe_fatigue_dice}D回復; 疲労{f.fatigue})",
                o.actions_per_turn, why, None, {"action": "breathe", "fatigue": f.fatigue})


def ammo_block(f: Fighter, w: WeaponSpec) -> RuleViolation | None:
    """F-H05: no shots (or thrown weapons) left."""
    if w.kind == "melee" or w.ammo is None or f.shots.get(w.id, 0) < w.ammo:
        return None
    what = "投げる武器" if w.kind == "thrown" else "矢弾"
    return RuleViolation("F-H05", HOST, f"{f.name} の{w.name}は{what}が尽きた ({w.ammo}発使用済み)")


def spell_reach(st: FantasyState, f: Fighter, sp: SpellSpec, target: str) -> RuleViolation | None:
    """F-H06: a spell not centred on self reaches ``range_m`` metres (nearest member of an area)."""
    if sp.range_m is None or sp.center == "self" or sp.ally:
        return None
    form = st.formation
    if sp.target == "single":
        t = st.fighters.get(target)
        members = [t] if t is not None else []
    elif "." in target:
        unit, fr = target.split(".", 1)
        members = form.front_members((unit, fr))
    else:
        members = form.unit_members(target)
    if not members:
        return None
    dist = min(form.distance(f, m) for m in members)
    if dist <= sp.range_m:
        return None
    return RuleViolation("F-H06", HOST, f"{sp.name}の射程は{sp.range_m}m、対象まで{dist}m")


def perform(st: FantasyState, f: Fighter, key: str, dice: DiceSource) -> list[Event] | None:
    """The actions of this module (aim, run, breathe); None for any other key."""
    from ikusa.systems.fantasy.actions import cost_text, opportunity

    head, _, rest = key.partition(":")
    if head == "aim":
        cost = st.action_cost(f, "line_of_fire")
        rule, how = cost_text(st, f, "line_of_fire")
        f.actions -= cost
        f.aimed = (f.row, f.front)
        return [Event("aim", f"F-H08,{rule}", f"{f.name} 射線の確保 ({how}): 移動するまで前衛の陰の後衛を狙える",
                      {"id": f.id, "cost": cost})]
    if head == "run":
        cost = st.action_cost(f, "run")
        rule, how = cost_text(st, f, "run")
        f.actions -= cost
        events = opportunity(st, f, dice)
        if not f.out:
            f.front = rest
            where = "後ろ" if rest == "rear" else "前"
            events.append(Event("run", f"F-R08,{rule}", f"{f.name} 全力移動: {where}の前衛へ ({how})",
                                {"id": f.id, "cost": cost, "front": rest}))
        return events
    if head == "breathe":
        n = st.opts.breathe_fatigue_dice
        rolled = dice.roll(st.opts.die_sides, n, f"{f.name} 呼吸を整える {n}D", roller=f.id)
        got = min(sum(rolled), f.fatigue)
        f.fatigue -= got
        before = f.hp
        f.hp = min(f.spec.hp, f.hp + got)
        f.actions = 0
        faces = ",".join(str(x) for x in rolled)
        return [Event("breathe", "F-H11,F-R18", f"{f.name} 呼吸を整える: {n}D[{faces}] → 疲労{got}回復 "
                      f"(HP {before}→{f.hp}, 疲労残り{f.fatigue}; invented host default)",
                      {"id": f.id, "recovered": got, "hp": f.hp, "fatigue": f.fatigue})]
    return None


def use_ammo(f: Fighter, w: WeaponSpec) -> None:
    """F-H05: a ranged/thrown attack uses one shot when the weapon counts them."""
    if w.kind != "melee" and w.ammo is not None:
        f.shots[w.id] = f.shots.get(w.id, 0) + 1


def ammo_label(f: Fighter, w: WeaponSpec) -> str:
    return "" if w.kind == "melee" or w.ammo is None else f" [残り{w.ammo - f.shots.get(w.id, 0)}]"

