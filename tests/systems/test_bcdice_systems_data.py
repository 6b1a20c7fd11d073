"""Runs the BCDice-shaped data files in tests/data/bcdice_systems/*.toml through
``ikusa.api.roll``: same input + same dice (sides checked) → the same text and flags."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from ikusa import api
from ikusa.engine.errors import DiceError

DATA = Path(__file__).resolve().parent.parent / "data" / "bcdice_systems"
FLAGS = ("success", "failure", "critical", "fumble", "secret")


class CheckedSource:
    """Hands out the file's ``rands`` in order and checks each die's sides."""

    def __init__(self, rands: list[dict[str, int]]) -> None:
        self.rands = list(rands)
        self.pos = 0

    def roll(self, sides: int, count: int = 1, purpose: str = "") -> list[int]:
        out = []
        for _ in range(count):
            if self.pos >= len(self.rands):
                raise DiceError(f"test data ran out of dice at d{sides}")
            want = self.rands[self.pos]
            assert want["sides"] == sides, f"die #{self.pos + 1}: data says d{want['sides']}, command rolled d{sides}"
            out.append(want["value"])
            self.pos += 1
        return out


def _cases() -> list[Any]:
    cases = []
    for path in sorted(DATA.glob("*.toml")):
        for i, case in enumerate(tomllib.loads(path.read_text(encoding="utf-8"))["test"]):
            cases.append(pytest.param(case, id=f"{path.stem}-{i}-{case['input']}"))
    return cases


def test_data_files_present() -> None:
    assert {p.stem for p in DATA.glob("*.toml")} >= {"Sengensyou", "maai", "fantasy"}


@pytest.mark.parametrize("case", _cases())
def test_bcdice_case(case: dict[str, Any]) -> None:
    source = CheckedSource(case.get("rands", []))
    result = api.roll(case["input"], system=case["game_system"], dice=source)
    if case["output"] == "":
        assert result is None
        return
    assert result is not None
    assert result.text == case["output"]
    for flag in FLAGS:
        assert getattr(result, flag) == bool(case.get(flag, False)), flag
    assert source.pos == len(source.rands), "every die in the data was used"
