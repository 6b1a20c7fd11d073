"""Dice sources (S-R02 ranges; injectable dice everywhere)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ikusa.dice.source import (
    DiceError,
    ManualSource,
    RandomSource,
    RecordingSource,
    ScriptedSource,
    parse_dice_list,
)
from ikusa.engine.rounding import round_half_up


def test_scripted_in_order_and_exhaustion() -> None:
    s = ScriptedSource([4, 1, 3])
    assert s.roll(6, 2) == [4, 1]
    assert s.roll(6) == [3]
    with pytest.raises(DiceError, match="ran out"):
        s.roll(6)


def test_scripted_value_out_of_range() -> None:
    with pytest.raises(DiceError, match="outside 1..6"):
        ScriptedSource([7]).roll(6)


def test_scripted_fallback() -> None:
    s = ScriptedSource([2], fallback=ScriptedSource([9]))
    assert s.roll(10, 2) == [2, 9]


@given(st.integers(0, 2**32), st.integers(1, 100), st.integers(1, 50))
def test_random_source_in_range_and_seeded(seed: int, sides: int, n: int) -> None:
    a = RandomSource(seed).roll(sides, n)
    assert a == RandomSource(seed).roll(sides, n)
    assert all(1 <= v <= sides for v in a)


def test_limits() -> None:
    with pytest.raises(DiceError):
        RandomSource(1).roll(10_001)
    with pytest.raises(DiceError):
        RandomSource(1).roll(6, 201)


def test_manual_source_reasks_on_bad_values() -> None:
    answers = iter([[11, 3], [3], [10, 3]])
    prompts: list[str] = []

    def ask(sides: int, count: int, purpose: str) -> list[int]:
        prompts.append(purpose)
        return next(answers)

    assert ManualSource(ask).roll(10, 2, "hit") == [10, 3]
    assert "1..10" in prompts[1] and "exactly 2" in prompts[2]


def test_recording_source() -> None:
    r = RecordingSource(ScriptedSource([7, 7, 3]))
    r.roll(10, 2)
    r.roll(6)
    assert r.take() == [(7, 10), (7, 10), (3, 6)]
    assert r.take() == []


def test_parse_dice_list() -> None:
    assert parse_dice_list("4,1,3") == [4, 1, 3]
    with pytest.raises(DiceError):
        parse_dice_list("4,x")


def test_round_half_up_s_t03() -> None:
    """S-T03 (000 §3.1 L30, §3.4 L215): 1.5 → 2; 3.0 → 3; 4.5 → 5 (round(4.5) would be 4)."""
    assert [round_half_up(x) for x in (1.5, 3.0, 4.5)] == [2, 3, 5]
    assert round(4.5) == 4  # the trap the helper avoids
