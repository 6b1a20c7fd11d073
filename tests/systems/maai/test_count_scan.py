"""Small battles find the next unit to act by one scan of the units (count_ties.scan_group,
``SCAN_UNITS``; issue #12 target 1) instead of the count index: the scan gives, at every turn,
the same unit and the same S-G49 tie group as the full scan of S-R35 and as a fresh
:class:`CountIndex` — through seeded duels, small mixed battles (PCs, other 技 and 先攻: ties
across sides broken by 技, side and grade, S-T17/S-T18) and the shipped examples."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.bench_large import encounter_doc
from bench.bench_maai_duels import load
from ikusa.systems.maai import count_ties
from ikusa.systems.maai.count_index import CountIndex
from ikusa.systems.maai.count_ties import SCAN_UNITS, CountTieFlow, scan_group
from ikusa.systems.maai.encounter import MaaiEncounter, encounter_from_dict
from ikusa.systems.maai.policies import GreedyPolicy, RandomPolicy
from ikusa.systems.maai.units import Unit
from tests.systems.maai.mass_play import play_checking
from tests.systems.maai.test_count_index import mixed_doc, scanned

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "maai"


def small(units: int) -> MaaiEncounter:
    return encounter_from_dict(mixed_doc(units, wounds=2), "<small>")


@pytest.mark.pure_python  # patches a compiled method (CountTieFlow.next_actor)
@pytest.mark.parametrize("enc", [load(EXAMPLES / "duel.yaml"), load(EXAMPLES / "squad_battle.yaml"), small(6),
                                 small(SCAN_UNITS)], ids=["duel", "squad", "mixed6", "mixed-max"])
@pytest.mark.parametrize("policy", [GreedyPolicy(), RandomPolicy()], ids=["greedy", "random"])
def test_the_scan_agrees_with_the_index_and_the_rules(monkeypatch: pytest.MonkeyPatch, enc: MaaiEncounter,
                                                      policy: Any) -> None:
    assert len(enc.units) <= SCAN_UNITS
    seen = {"turns": 0, "ties": 0}
    real = CountTieFlow.next_actor

    def next_actor(self: Any) -> Unit | None:
        u = real(self)
        assert self.count_index is None  # a small battle keeps no index
        want = scanned(self)
        ids = [x.id for x in self.count_group]
        assert ids == [x.id for x in want] == [x.id for x in CountIndex(self.units, self.maai).group()]
        assert u is (want[0] if want else None)
        seen["turns"] += 1
        seen["ties"] += len(ids) > 1
        return u

    monkeypatch.setattr(CountTieFlow, "next_actor", next_actor)
    play_checking(enc, policy, range(1, 6), lambda st: 0)
    assert seen["turns"] >= 20


def test_a_larger_battle_keeps_the_index(monkeypatch: pytest.MonkeyPatch) -> None:
    enc = small(SCAN_UNITS + 2)
    kept: list[bool] = []

    def check(st: Any) -> int:
        kept.append(st.count_index is not None)
        return 0

    play_checking(enc, GreedyPolicy(), (1,), check)
    assert any(kept)
    monkeypatch.setattr(count_ties, "SCAN_UNITS", SCAN_UNITS + 2)
    kept.clear()
    play_checking(enc, GreedyPolicy(), (1,), check)
    assert not any(kept)


def test_scan_group_on_a_tie_and_at_the_end() -> None:
    """S-G49: a true tie is one side, equal count and 技; 技 beats side (S-T17), passed and spent
    units are out (S-G21); ``[]`` when ② is over."""
    from ikusa.systems.maai.state import MaaiState

    st = MaaiState(encounter_from_dict(encounter_doc(4), "<4>"))
    a0, a1, b0, b1 = st.units
    for u in st.units:
        u.vigor, u.first_bonus, u.passed = 5, 0, False
    assert scan_group(st.units) == [a0, a1]  # the ally side first, both tied
    b1.ab = {**b1.ab, "gi": 1}
    assert scan_group(st.units) == [b1]  # higher 技 before side
    b1.vigor = 4
    a0.passed = True
    assert scan_group(st.units) == [a1]
    a1.vigor = 0
    assert scan_group(st.units) == [b0]
    b0.incapacitated = True
    assert scan_group(st.units) == [b1]
    b1.vigor = 0
    assert scan_group(st.units) == []
