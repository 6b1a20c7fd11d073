"""The flow's kept end test (FlowBase.two_sides_able, issue #12): while it says two sides are
able the flow skips the scan, so at every decision of seeded battles, through random GM rulings
(units downed, removed, revived, added) and through the squad rout, the kept answer must agree
with a scan: never "two sides able" when fewer are."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import yaml

from ikusa.dice.source import RandomSource
from ikusa.engine.encounter import read_document, split_document
from ikusa.systems.maai.encounter import encounter_from_dict
from ikusa.systems.maai.policies import GreedyPolicy, RandomPolicy
from tests.systems.maai.mass_play import play_checking, rule_or_act
from tests.systems.maai.test_count_index import mixed_doc
from tests.systems.ruling_driver import Session

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "maai"


def agrees(st: Any) -> int:
    if st.two_sides_able:
        assert st.sides_able_count() >= 2, "the kept end test missed a fall (S-R61)"
    return int(st.two_sides_able)


def test_kept_end_test_through_seeded_battles() -> None:
    kept = 0
    for name in ("duel.yaml", "squad_battle.yaml", "gaps.yaml"):
        path = EXAMPLES / name
        enc = encounter_from_dict(split_document(read_document(path), str(path)).body, str(path))
        for policy in (GreedyPolicy(), RandomPolicy()):
            n, _ = play_checking(enc, policy, range(6), agrees)
            kept += n
    kept += play_checking(encounter_from_dict(mixed_doc(20), "<test>"), GreedyPolicy(), (1, 2), agrees)[0]
    assert kept > 300


def _downs_and_revivals(s: Session, rng: random.Random, raw: dict[str, Any]) -> dict[str, Any]:
    ids = [u.id for u in s.state.units]
    pick = rng.random()
    if pick < 0.2:
        return {"op": "remove_unit", "unit": rng.choice(ids)}
    if pick < 0.5:  # 戦力 to 0 and back (a fall and a revival by ruling)
        return {"op": "set", "unit": rng.choice(ids), "resource": "戦力", "value": rng.randint(0, 2)}
    return raw


def test_kept_end_test_through_random_gm_rulings(tmp_path: Path) -> None:
    path = tmp_path / "mass.yaml"
    path.write_text(yaml.safe_dump({"system": "maai", **mixed_doc(6, wounds=2)}, allow_unicode=True),
                    encoding="utf-8")
    ops: set[str] = set()
    ended = 0
    for seed in range(8):
        rng = random.Random(seed)
        s = Session(str(path))
        dice = RandomSource(seed + 1)
        for _ in range(300):
            if s.state.pending() is None:
                ended += 1
                break
            agrees(s.state)
            if op := rule_or_act(s, rng, dice, 0.3, _downs_and_revivals):
                ops.add(op)
    assert {"remove_unit", "set"} <= ops
    assert ended >= 4
