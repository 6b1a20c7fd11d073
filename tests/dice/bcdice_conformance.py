"""BCDice 4.9.0's own test data (``lib/bcdice/test_data.json`` of the npm package) for the
systems ikusa serves: which cases, and how one answer is compared (issue #10 §1).

Shared by the in-process test (tests/dice/test_bcdice_conformance.py) and the HTTP test
(tests/server/test_bcdice_api_conformance.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: the data files whose system ikusa serves (DiceBot or Sengensyou)
FILES = ("None", "AddDice", "D66Dice", "Repeat", "UpperDice", "calc", "choice", "tally_ty", "tally_tz",
         "dummyBot", "randomizer", "Sengensyou")
SYSTEMS = ("DiceBot", "Sengensyou")
#: how many cases those files hold for those systems in bcdice 4.9.0
EXPECTED_CASES = 342
FLAGS = ("success", "failure", "critical", "fumble", "secret")


def load_cases(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    cases = [dict(c, file=f) for f in FILES for c in data[f]["test"] if c["game_system"] in SYSTEMS]
    assert len(cases) == EXPECTED_CASES, f"{len(cases)} cases, not {EXPECTED_CASES}: another test_data.json?"
    return cases


def expected(case: dict[str, Any]) -> dict[str, Any] | None:
    """BCDice's answer: ``None`` for no answer, else the text and the five flags."""
    if case["output"] == "":
        return None
    return {"text": case["output"], **{f: bool(case.get(f, False)) for f in FLAGS}}


def rands(case: dict[str, Any]) -> list[tuple[int, int]]:
    """The case's fixed dice as ``(value, sides)`` in order."""
    return [(r["value"], r["sides"]) for r in case["rands"]]


def label(case: dict[str, Any]) -> str:
    return f"{case['file']}: {case['game_system']} {case['input']!r}"
