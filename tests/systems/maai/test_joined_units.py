"""Units that join by a GM ruling (``add_unit``, and 妖魔乱入's reinforcements) keep the costs the
rules give them in every state of the encounter (S-R30/S-R31).

The encounter's memos (maneuver costs, the breath cache, 防備) are keyed by the identity of the
maneuver objects.  A unit resolved anew in each state freed its maneuvers with that state, and a
later state's new objects could take their addresses and read another maneuver's cost (刺し at 1
instead of 2 was seen).  Many short-lived states of one shared encounter, as a server replaying a
table or the lab's search makes them, each add a unit with other weapons."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from ikusa.engine.rulings import parse_ruling
from ikusa.engine.runner import load_encounter

DUEL = str(Path(__file__).resolve().parents[3] / "examples" / "maai" / "duel.yaml")
WEAPONS = (["槍"], ["打刀"], ["斬馬刀"], ["短刀"], ["忍者刀"])


def _spec(weapons: list[str]) -> dict[str, Any]:
    return {"id": "oni", "name": "鬼", "side": "敵", "grade": "卒",
            "abilities": {"勇": 1, "技": 1, "体": 1, "智": 0, "美": 0, "運": 0},
            "weapons": weapons, "armour": ["なし"]}


def _costs(enc: Any, weapons: list[str]) -> list[tuple[str, int]]:
    state = enc.new_combat().state
    state.apply_ruling(parse_ruling({"op": "add_unit", "unit": _spec(weapons), "reason": "増援"}), None)
    u = state.by_id["oni"]
    return [(m.id, state.move_cost(u, m)) for m in u.moves]


def test_a_joined_units_costs_are_its_own_in_every_state_of_one_encounter() -> None:
    expected = {tuple(w): _costs(load_encounter(DUEL), w) for w in WEAPONS}  # each on a fresh encounter
    assert len({tuple(c for _, c in v) for v in expected.values()}) > 1  # the weapons' costs differ
    shared = load_encounter(DUEL)
    for i in range(200):
        w = WEAPONS[i % len(WEAPONS)]
        assert _costs(shared, w) == expected[tuple(w)], (i, w)
        if i % 7 == 0:
            gc.collect()
