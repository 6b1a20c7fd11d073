"""Issue #10 §1: every case of BCDice 4.9.0's own test data for DiceBot and Sengensyou
(342 cases of the files None, AddDice, D66Dice, Repeat, UpperDice, calc, choice, tally_ty,
tally_tz, dummyBot, randomizer, Sengensyou) gives BCDice's exact text and flags through
the Python API, with the case's fixed dice.

The dice a command draws must be the case's ``rands`` in order with the same sides.  As in
BCDice's own harness (bcdice-js ``game_system_commands.test``), dice may be left over:
``c((1+2)/2F)`` carries a die that BCDice never draws either.
"""

from __future__ import annotations

from typing import Any

import ikusa
from ikusa.dice.source import RecordingSource, ScriptedSource
from tests.dice.bcdice_conformance import FLAGS, expected, label, load_cases, rands
from tests.services import bcdice_test_data


def _answer(case: dict[str, Any]) -> tuple[dict[str, Any] | None, list[tuple[int, int]]]:
    recorder = RecordingSource(ScriptedSource([v for v, _ in rands(case)]))
    result = ikusa.roll(case["input"], case["game_system"], dice=recorder)
    got = None if result is None else {"text": result.text, **{f: getattr(result, f) for f in FLAGS}}
    return got, recorder.drawn


def test_every_case_of_bcdice_test_data() -> None:
    cases = load_cases(bcdice_test_data())
    wrong: list[str] = []
    left_over = []
    for case in cases:
        try:
            got, drawn = _answer(case)
        except Exception as exc:  # one failing case must not hide the others
            wrong.append(f"{label(case)} raised {type(exc).__name__}: {exc}")
            continue
        want = rands(case)
        if got != expected(case):
            wrong.append(f"{label(case)}\n  BCDice: {expected(case)}\n  ikusa:  {got}")
        elif drawn != want[: len(drawn)]:
            wrong.append(f"{label(case)} drew {drawn}, not the case's {want}")
        elif len(drawn) < len(want):
            left_over.append(case["input"])
    assert not wrong, f"{len(wrong)} of {len(cases)} cases differ:\n" + "\n".join(wrong)
    assert left_over == ["c((1+2)/2F) 切り捨て"], left_over
