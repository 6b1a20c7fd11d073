"""The 護衛態勢 fast path (S-G61, speed only): the holder search is skipped only when no unit of
the encounter can ever hold a stance granting the auto-counter."""

from __future__ import annotations

from pathlib import Path

from ikusa.engine.encounter import read_document, split_document
from ikusa.systems.maai.encounter import encounter_from_dict
from ikusa.systems.maai.state import MaaiState

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "maai"


def _state(name: str) -> MaaiState:
    path = EXAMPLES / name
    doc = split_document(read_document(path), str(path))
    return MaaiState(encounter_from_dict(doc.body, str(path)))


def test_guard_possible_only_with_a_guard_stance_s_g61() -> None:
    assert _state("gaps.yaml").guard_possible()  # its 侍 starts in 護衛態勢
    duel = _state("duel.yaml")  # 先の態度 / 不動の陣: no auto-counter
    assert not duel.guard_possible()
    assert all(duel.guard_stance(u) is None for u in duel.units)
