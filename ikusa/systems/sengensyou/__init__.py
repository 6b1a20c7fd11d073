"""千幻抄 (sengensyou): the Touhou dice-pool combat engine of text 003 (ANALYSIS Part 3).

Exposes the :class:`~ikusa.systems.registry.SystemModule` interface.

Decision kinds and option keys (stable: they are the save format)::

    initiative   declare:N                      G-G04 DP declared for the order (N ≤ DP)
    row          row:front | row:back           G-R10 (only asked when both are legal)
    focus        focus:yes | focus:no           G-R07 (back row only)
    action       barrage:SRC                    G-R18 1 DP, every enemy
                 shot:TARGET:N:SRC              G-R15 N DP = N d6 (SRC gun-w = judged with 〈【射撃武器】〉)
                 homing:SRC:T1,T2+1             G-R16 2 DP per target, "+1" = +2 DP for +10
                 melee:TARGET:N                 G-R17 N DP on the approach, then melee_hit
                 spell:ID:TARGET:N              G-G22 ≤ 3D, costs 霊力
                 sc:CARD[:TARGET]               G-R21 消費型 card as the action
                 other:N | wait | end           G-R02 / G-R06 / end: 防御専念, or DP spent this turn (G-G26)
                 move:free | move:roll:N | escape | deploy:CARD | shoudan:CARD | graze:reiryoku:K
                                                free actions (G-R08, G-R09, G-R21, G-R12)
    melee_hit    hit:N
    defence      none | evade:N | guard:N | cover:ALLY | deploy:CARD | shoudan:CARD | sc_defend:CARD
    cover        guard:N | decline              G-G16 (the asked front-row ally)
    barrage      barrage:pay | barrage:take | graze:reigeki:K | (spell cards)
    graze_boost  graze:shot:K | graze:melee:K   G-R12 after the damage roll (K = +damage)
    resist       resist:N ; graze_resist graze:resist:K
    sc_defence   accept | sc_defend:CARD        G-R21 after the damage roll
    tekagen      tekagen:faint | tekagen:spare  G-R22
    escape       escape_dp:N ; pursue pursue_dp:N
    scene_end    end_scene  (actor "GM")        G-R12 all graze is lost
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ikusa.engine.protocol import GameState, Policy
from ikusa.systems.sengensyou.encounter import Encounter
from ikusa.systems.sengensyou.encounter import encounter_from_dict as _encounter_from_dict
from ikusa.systems.sengensyou.policies import GreedyPolicy, RandomPolicy

SYSTEM_ID = "sengensyou"

POLICIES: dict[str, Callable[[], Policy]] = {"random": RandomPolicy, "greedy": GreedyPolicy}


def encounter_from_dict(data: Mapping[str, Any], source: str) -> Encounter:
    """Validate an encounter document (InputError naming file + field + rule)."""
    return _encounter_from_dict(data, source)


def new_state(encounter: Encounter) -> GameState:
    """A fresh battle state for a validated encounter."""
    from ikusa.systems.sengensyou.state import SengensyouState

    return SengensyouState(encounter)
