"""A sengensyou and a fantasy table, each played in the browser through a full round: a
player (ask dice: 「振って」) and the GM, the NPCs on ``ai:greedy``; the board shows the
system's own numbers (HP, DP, graze, 霊力 / formation, HP, conditions)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from tests.browser.conftest import Server
from tests.browser.driver import Seat, step
from tests.browser.encounters import SENGENSYOU

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _open(browser: Any, url: str, width: int, name: str) -> Seat:
    mobile = width < 500
    ctx = browser.new_context(viewport={"width": width, "height": 844 if mobile else 900},
                              has_touch=mobile, is_mobile=mobile, locale="ja-JP")
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_selector("#clock")
    return Seat(name, page)


def _prefer(keys: list[str]) -> str:
    """A player who acts rather than waits."""
    for k in keys:
        if not k.startswith(("wait", "pass", "delay", "end")):
            return k
    return keys[0]


def _play_round(seats: list[Seat], clock_next: str, max_steps: int = 80) -> int:
    def act(seat: Seat) -> None:
        if seat.dice_request() is not None:
            seat.roll_for_me()
            return
        d = seat.decision()
        assert d is not None, seat.text("#pending")
        seat.choose(_prefer(d[2]))

    steps = 0
    while clock_next not in seats[0].text("#clock") and step(seats, act):
        steps += 1
        assert steps < max_steps, f"no {clock_next} after {steps} steps: {seats[0].text('#turn')}"
    return steps


def test_sengensyou_table_plays_a_full_turn(server: Server, browser: Any, artifacts: Path) -> None:
    created = server.create(SENGENSYOU, seed=3)
    t = created["tokens"]
    gm = _open(browser, server.join(t["gm"]), 1280, "gm")
    player = _open(browser, server.join(t["players"]["霊夢の中の人"]), 390, "player")
    board = player.text("#board")
    assert "博麗霊夢" in board and "霧雨魔理沙" in board
    assert "ターン1" in player.text("#clock")
    row = gm.page.locator('#board tr[data-unit="reimu"]')
    assert row.locator('td[data-label="DP"]').inner_text().strip() == "22/22"
    steps = _play_round([gm, player], "ターン2")
    assert steps >= 2
    # the player sees their own numbers, not the NPC's (NPC numbers stay with the GM)
    assert player.page.locator('#board tr[data-unit="reimu"] td[data-label="HP"]').inner_text().strip().isdigit()
    assert player.page.locator('#board tr[data-unit="marisa"] td[data-label="HP"]').inner_text().strip() == "?"
    assert gm.page.locator('#board tr[data-unit="marisa"] td[data-label="HP"]').inner_text().strip().isdigit()
    assert "G-R" in gm.text("#log")
    gm.page.screenshot(path=str(artifacts / "sengensyou_gm_1280.png"), full_page=True)
    player.page.screenshot(path=str(artifacts / "sengensyou_player_390.png"), full_page=True)


def test_fantasy_table_plays_a_full_round(server: Server, browser: Any, artifacts: Path) -> None:
    doc = yaml.safe_load((EXAMPLES / "fantasy" / "corridor_ambush.yaml").read_text("utf-8"))
    doc["control"] = {"sides": {"party": "ai:greedy", "goblins": "ai:greedy"},
                      "units": {"lina": {"controller": "player:リナの中の人", "dice": "ask"}}}
    created = server.create(yaml.safe_dump(doc, allow_unicode=True), seed=5)
    t = created["tokens"]
    gm = _open(browser, server.join(t["gm"]), 1280, "gm")
    player = _open(browser, server.join(t["players"]["リナの中の人"]), 390, "player")
    seats = [gm, player]
    # the GM starts the combat (戦闘開始), then the round runs to ラウンド2
    steps = _play_round(seats, "ラウンド2")
    assert steps >= 1
    for side in ("party", "goblins"):
        assert gm.page.locator(f'#board .front[data-side="{side}"]').count() == 1
    assert "前衛" in gm.text("#board") and "後衛" in gm.text("#board")  # the formation's ranks
    assert "リナ" in player.text("#board")
    assert "F-R" in gm.text("#log")
    gm.page.screenshot(path=str(artifacts / "fantasy_gm_1280.png"), full_page=True)
    player.page.screenshot(path=str(artifacts / "fantasy_player_390.png"), full_page=True)
