"""G-R24 (003:L204, #13): when our side's spell-card ability range exceeds 30 m, attacks from
outside the normal effective range are treated as evaded (no damage, no graze)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ikusa.engine.events import Event
from ikusa.engine.runner import fight
from ikusa.systems.sengensyou.catalog import catalog

EX = Path(__file__).resolve().parents[3] / "examples" / "sengensyou" / "party_battle.yaml"


def _ambush(tmp_path: Path) -> Path:
    data = yaml.safe_load(EX.read_text("utf-8"))
    data["surprise"] = {"side": "scarlet", "range": "outside"}
    path = tmp_path / "ambush.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    return path


def _turn1_attacks_on_heroes(events: list[Event]) -> tuple[int, int]:
    """(attacks defended by heroes in turn 1, of those auto-evaded by range)."""
    turn = defended = evaded = 0
    for e in events:
        kind, data = e.kind, e.data
        if kind == "turn_start":
            turn = data["turn"]
        if turn == 1 and kind in ("evade", "no_defence", "range_evaded", "guard") and \
                data.get("who") in ("reimu", "youmu", "mystia"):
            defended += 1
            evaded += kind == "range_evaded"
    return defended, evaded


def test_a_long_range_card_evades_every_attack_from_beyond_30m(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = _ambush(tmp_path)
    before = _turn1_attacks_on_heroes(fight(path, seed=1).events)
    assert before[0] > 0 and before[1] == 0  # no card has a range: nothing changes (range_m 0)
    card = catalog().spellcards["musou_fuuin"]
    monkeypatch.setitem(catalog().spellcards, "musou_fuuin", card.model_copy(update={"range_m": 50}))
    events = fight(path, seed=1).events
    defended, evaded = _turn1_attacks_on_heroes(events)
    assert defended > 0 and evaded == defended, (defended, evaded)
    first = next(e for e in events if e.kind == "range_evaded")
    assert first.rule == "G-R24" and "50m > 30m" in first.text


def test_no_range_evasion_within_30m(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = yaml.safe_load(EX.read_text("utf-8"))
    data["surprise"] = {"side": "scarlet", "range": "within"}
    path = tmp_path / "near.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    card = catalog().spellcards["musou_fuuin"]
    monkeypatch.setitem(catalog().spellcards, "musou_fuuin", card.model_copy(update={"range_m": 50}))
    assert not any(e.kind == "range_evaded" for e in fight(path, seed=1).events)
