"""Every check in every example's narrated log shows its modifiers, each with the condition
or situation and the rule behind it (brief; F-H01), and every refused check names its rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ikusa.engine.runner import fight

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = sorted((ROOT / "examples/fantasy").glob("*.yaml"))


def _checks(data: Any) -> list[dict[str, Any]]:
    """Every check record (resolution.Check.to_json) anywhere in an event's data."""
    out: list[dict[str, Any]] = []
    if isinstance(data, dict):
        if {"kind", "mods", "total", "dice"} <= data.keys():
            out.append(data)
        for v in data.values():
            out.extend(_checks(v))
    elif isinstance(data, list):
        for v in data:
            out.extend(_checks(v))
    return out


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize(("seed", "ai"), [(1, "greedy"), (2, "random"), (5, "random")])
def test_every_check_shows_its_modifiers(path: Path, seed: int, ai: str) -> None:
    combat = fight(path, seed=seed, ai=ai)
    seen = 0
    for e in combat.events:
        for c in _checks(e.data):
            seen += 1
            assert f"={c['total']}" in e.text or c["blocked"], e.text
            for m in c["mods"]:
                assert f"{m['value']:+d}({m['source']} {m['rule']})" in e.text, (m, e.text)
            if c["blocked"]:
                assert f"不可({c['blocked']})" in e.text, e.text
    assert seen > 0


def test_examples_show_the_002_modifiers_they_are_about() -> None:
    """The example logs narrate the conditions they exercise, with rule ids."""
    texts = {p.stem: "\n".join(e.text for e in fight(p, seed=1).events) for p in EXAMPLES}
    assert "(不意打ち F-R04)" in texts["corridor_ambush"] and "(不意打ち) 陣形を決定" in texts["corridor_ambush"]
    assert "(視界不良 F-R14)" in texts["cliff_ledge"] and "目標値12" in texts["cliff_ledge"]
    assert "(水中 F-R17)" in texts["water_fight"]
