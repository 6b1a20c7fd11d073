"""Opening a table from the pages: paste an encounter, an error shown at its unit, fixed,
started; a unit name and a chat line with HTML/script shown as text, never run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.conftest import Server

EVIL = "<script>alert(1)</script>"
ENCOUNTER = f"""
system: maai
title: "卓を開く試験"
sides: [味方, 敵]
units:
  - {{id: hero, name: 源三郎, side: 味方, grade: PC, abilities: {{勇: 2, 技: 1, 體: 1, 智: 0, 美: 0, 運: 1}},
     skills: {{剣術: 免許}}, weapons: [katana]}}
  - {{id: evil, name: "{EVIL}", side: 敵, grade: 卒, fate: 0, abilities: {{勇: 1, 技: 0, 體: 0, 智: 0, 美: 0, 運: 0}},
     weapons: [katana]}}
"""


def test_open_a_table_from_the_pages(server: Server, browser: Any, artifacts: Path) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(server.base + "/")
    page.fill("#text", ENCOUNTER)
    page.click("button[type=submit].primary")
    page.wait_for_selector("#unit-1")
    # break unit 2's data: the error is shown at that unit, not elsewhere
    page.fill("#body-1", "id: evil\nside: 敵\ngrade: 卒\nabilities: {勇: zzz}\nweapons: [katana]\n")
    page.click("button[value=check]")
    page.wait_for_selector("#unit-1.has-error")
    err = page.inner_text("#err-1")
    assert "abilities" in err
    assert page.locator("#unit-0.has-error").count() == 0
    page.screenshot(path=str(artifacts / "setup_error_390.png"), full_page=True)
    # fix it, give 源三郎 to a player, start
    page.fill("#body-1", "id: evil\nside: 敵\ngrade: 卒\nfate: 0\n"
              "abilities: {勇: 1, 技: 0, 體: 0, 智: 0, 美: 0, 運: 0}\nweapons: [katana]\n")
    page.select_option("select[name=ctl_0]", "player")
    page.fill("input[name=player_0]", "太郎")
    page.click("button[value=start]")
    page.wait_for_selector("#gm-link")
    assert page.locator(".player-link[data-player='太郎']").count() == 1
    page.click("#gm-link")
    page.wait_for_selector("#clock")
    board = page.inner_text("#board")
    assert EVIL in board  # the name shown as text …
    assert page.locator("#board script").count() == 0  # … never as markup
    page.fill("#chat-form input[name=text]", '<img src=x onerror="alert(2)"> 1D6')
    before = int(page.get_attribute("#clock", "data-version") or 0)
    page.click("#chat-form button[type=submit]")
    page.wait_for_function("v => +document.getElementById('clock').dataset.version > v", arg=before)
    assert '<img src=x onerror="alert(2)">' in page.inner_text("#chat")
    assert page.locator("#chat img").count() == 0
    assert dialogs == []
    page.screenshot(path=str(artifacts / "open_table_gm_390.png"), full_page=True)
    ctx.close()
