"""qa2: ``ikusa play --dice manual``: the in-game commands at a dice prompt.  Before, 'undo',
'quit' and 'dice auto' typed while the table waited for dice were read as malformed dice; the
GM had to type garbage until the retries ran out to back out of an action."""

from __future__ import annotations

import json
from pathlib import Path

from ikusa.cli.play import PlaySession
from ikusa.dice.source import RandomSource
from ikusa.engine.runner import load_encounter, load_log

GAPS = Path(__file__).resolve().parents[2] / "examples" / "maai" / "gaps.yaml"


def _session(lines: list[str]) -> PlaySession:
    combat = load_encounter(GAPS).new_combat()
    it = iter(lines)
    return PlaySession(combat, RandomSource(1), manual=True, ask=lambda _p: next(it))


def test_undo_at_a_dice_prompt_cancels_the_action_only() -> None:
    """S-R41 attack roll pending: 'undo' backs out of the attack (nothing recorded, 活力 not
    spent); the earlier count-tie choice stays."""
    s = _session(["first:samurai", "use:katana.yokogiri>oni1", "help", "undo", "quit"])
    s.run()
    assert [e.action for e in s.combat.record] == ["first:samurai"]
    vigor = {u["id"]: u["vigor"] for u in s.combat.state.summary()["units"]}
    assert vigor["samurai"] == 11
    assert s.manual


def test_dice_auto_at_a_dice_prompt_rolls_this_and_later_dice(tmp_path: Path) -> None:
    log = tmp_path / "log.json"
    s = _session(["first:samurai", "use:katana.yokogiri>oni1", "dice auto", f"save {log}", "quit"])
    s.run()
    assert not s.manual
    assert [e.action for e in s.combat.record] == ["first:samurai", "use:katana.yokogiri>oni1"]
    assert len(s.combat.record[1].dice) == 2
    # the saved log replays to the same state
    assert load_log(log).state.summary() == s.combat.state.summary()
    assert json.loads(log.read_text("utf-8"))["entries"][1]["action"] == "use:katana.yokogiri>oni1"


def test_quit_at_a_dice_prompt_leaves_without_applying() -> None:
    s = _session(["first:samurai", "use:katana.yokogiri>oni1", "quit", "never read"])
    s.run()
    assert s.done
    assert [e.action for e in s.combat.record] == ["first:samurai"]
