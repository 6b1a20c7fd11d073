"""A GM and two players, each in their own browser, play a whole maai battle (issue #9).

太郎 (源三郎, manual dice) types his dice on a phone-sized page; 花子 (お初, ask) lets the
server roll or types; the GM acts for the NPCs.  On the way: a hidden unit unknown to the
players until the GM reveals it, a GM-only note, a defence prompt that reaches only the
defender, a secret roll revealed by its roller, an undo, and a ``kill -9`` of the server
while 太郎's roll is half typed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ikusa.engine.combat import LOG_FORMAT
from tests.browser.conftest import Server
from tests.browser.driver import Seat, faces_cycle, spent_of, step, sync
from tests.browser.encounters import MAAI, choose_maai

NOTE = "GMだけのメモ: 忍びは後で出す"


def _open(browser: Any, url: str, width: int, name: str, mobile: bool = False) -> Seat:
    ctx = browser.new_context(viewport={"width": width, "height": 900 if width > 500 else 844},
                              has_touch=mobile, is_mobile=mobile, locale="ja-JP")
    page = ctx.new_page()
    page.on("dialog", lambda d: (_ for _ in ()).throw(AssertionError(f"a dialog opened: {d.message}")))
    page.goto(url)
    page.wait_for_selector("#clock")
    return Seat(name, page)


def test_gm_and_two_players_play_a_whole_maai_battle(server: Server, browser: Any, artifacts: Path) -> None:
    created = server.create(MAAI, seed=7)
    t = created["tokens"]
    gm = _open(browser, server.join(t["gm"]), 1280, "gm")
    taro = _open(browser, server.join(t["players"]["太郎"]), 390, "taro", mobile=True)
    hanako = _open(browser, server.join(t["players"]["花子"]), 1280, "hanako")
    seats = [gm, taro, hanako]
    players = [taro, hanako]
    assert taro.page.url.endswith(f"/tables/{created['id']}")  # the token left the address bar
    assert "プレイヤー: 太郎" in taro.text("#whoami")

    # the hidden unit: the GM sees it, the players do not know it exists (not in the HTML at all)
    assert "忍びの影" in gm.text("#board")
    for p in players:
        html = p.page.content()
        assert "忍びの影" not in html and "shinobi" not in html

    # a GM-only note
    _rule(gm, seats, "note", text=NOTE)
    assert NOTE in gm.text("#log")
    # 太郎's chat palette is kept on the server, for his unit, with {var} from his unit
    _save_palette(taro, "genzaburo", "1D10+{運命} {name}の運試し")

    dice_taro = faces_cycle(10)
    events = {"defence_only_to_defender": False, "secret": False, "undo": False, "restart": False,
              "revealed": False, "typed_by_taro": 0, "rolled_for_hanako": 0, "effect_expired": False,
              "set": False, "effect": False, "added": False}

    def act(seat: Seat) -> None:
        req = seat.dice_request()
        if req is not None:
            if seat is taro:
                faces = [next(dice_taro) if req["sides"] == 10 else 42 for _ in range(req["count"])]
                if not events["restart"] and req["count"] == 2 and req["sides"] == 10:
                    _restart_mid_roll(server, seats, taro, faces)
                    events["restart"] = True
                else:
                    seat.type_dice(faces)
                events["typed_by_taro"] += 1
            else:
                seat.roll_for_me()
                events["rolled_for_hanako"] += 1
                if not events["undo"] and not seat.dice_request():
                    _undo_hanakos_attack(gm, seats, hanako)
                    events["undo"] = True
            return
        d = seat.decision()
        assert d is not None, f"{seat.name} has the banner but no decision: {seat.text('#pending')}"
        kind, actor, keys, prompt = d
        if kind == "reaction" and actor == "genzaburo" and not events["defence_only_to_defender"]:
            _defence_reaches_only_the_defender(gm, taro, hanako, keys)
            events["defence_only_to_defender"] = True
        target = "yagyu" if actor in ("genzaburo", "ohatsu") else "genzaburo"
        if actor in ("genzaburo", "ohatsu") and events["revealed"] and not _alive(gm, "yagyu"):
            target = "shinobi"
        key = choose_maai(kind, keys, spent_of(prompt), target)
        trail.append(f"{seat.name}:{kind}:{actor}:{key}")
        seat.choose(key)

    trail: list[str] = []
    steps = 0
    needed = ("defence_only_to_defender", "secret", "undo", "restart", "revealed", "set", "effect", "added",
              "effect_expired")
    while step(seats, act):
        steps += 1
        assert steps < 200, "the battle did not end"
        _secrecy_scan(players)
        # rulings at any time (the units they name must not be answering a reaction just then)
        if steps >= 2 and not events["set"] and _breath_pending(gm, seats):
            _set_resource(gm, seats, taro)
            events["set"] = True
        if steps >= 3 and not events["effect"] and _breath_pending(gm, seats):
            _effect_until_next_breath(gm, seats, taro)
            events["effect"] = True
        if steps >= 5 and not events["added"] and _breath_pending(gm, seats):
            _add_combatant(gm, seats, taro)
            events["added"] = True
        if events["effect"] and not events["effect_expired"] and "源三郎 の効果「気合」が終了" in taro.text("#log"):
            assert "気合" not in taro.text('#board tr[data-unit="genzaburo"]')  # it went by itself
            events["effect_expired"] = True
        if all(events[k] for k in needed) and steps > 8:
            _rule(gm, seats, "end", winner="味方", reason="敵が退いた")
            break
        if not events["revealed"]:
            for p in players:
                assert "忍びの影" not in p.page.content()
            if steps == 6:
                _reveal(gm, seats)
                events["revealed"] = True
                assert "忍びの影" in taro.text("#board")
        if steps == 4 and not events["secret"]:
            _secret_roll(gm, taro, hanako, seats)
            events["secret"] = True
        if steps == 8:
            gm.page.screenshot(path=str(artifacts / "maai_gm_1280.png"), full_page=True)
            taro.page.screenshot(path=str(artifacts / "maai_player_390.png"), full_page=True)
            hanako.page.screenshot(path=str(artifacts / "maai_player_1280.png"), full_page=True)

    sync(seats)
    assert all(events[k] for k in needed), ({k: v for k, v in events.items() if not v}, trail[-6:])
    assert events["typed_by_taro"] >= 2 and events["rolled_for_hanako"] >= 1, events
    for s in seats:
        assert "戦闘終了: 勝者 味方" in s.text("#turn")
        # the aria-live region carries the turn's words (announced once per change)
        assert s.page.get_attribute("#announce", "aria-live") == "polite"
        assert "戦闘終了: 勝者 味方" in (s.page.text_content("#announce") or "")
        assert s.page.locator("#banner .banner-turn").count() == 0
    # every die 太郎 typed is in the log with who typed it
    assert "（入力: 太郎）" in gm.text("#log") and "（入力: 太郎）" in hanako.text("#log")
    gm.page.screenshot(path=str(artifacts / "maai_gm_end_1280.png"), full_page=True)
    taro.page.screenshot(path=str(artifacts / "maai_player_end_390.png"), full_page=True)
    _check_390_layout(taro)
    _rule_ids_toggle(taro)
    _export(gm, hanako, created["id"], server)


def _rule(gm: Seat, seats: list[Seat], op: str, **fields: str) -> None:
    """The GM fills the ruling form of ``op`` (selects and inputs by name) and sends it."""
    if gm.page.get_attribute("#rulings", "open") is None:
        gm.page.click("#rulings > summary")
    if gm.page.get_attribute(f'#rulings details[data-op="{op}"]', "open") is None:
        gm.page.click(f'#rulings details[data-op="{op}"] > summary')
    form = gm.page.locator(f'#rulings form[data-op="{op}"]')
    for name, value in fields.items():
        field = form.locator(f'[name="{name}"]')
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    before = gm.version()
    form.locator("button[type=submit]").click()
    for s in seats:
        s.wait_version(before + 1)
    sync(seats)
    assert "裁定しました" in gm.text("#flash")


def _breath_pending(gm: Seat, seats: list[Seat]) -> bool:
    sync(seats)
    d = gm.decision()
    return d is not None and d[0] == "breath"


def _secrecy_scan(players: list[Seat]) -> None:
    """Nothing GM-only in a player's page: no note, no GM panel or ruling form, no link admin."""
    for p in players:
        html = p.page.content()
        assert NOTE not in html, "a GM note reached a player"
        for gm_only in ('id="rulings"', 'id="gm"', "/ruling", "/undo", "/links", "reveal-unit", "export.json"):
            assert gm_only not in html, f"{gm_only} reached {p.name}"


def _save_palette(seat: Seat, unit: str, text: str) -> None:
    seat.page.click("#palette-editor > summary")
    form = seat.page.locator(f'#palette-editor form[data-unit="{unit}"]')
    form.locator("textarea").fill(text)
    form.locator("button[type=submit]").click()
    seat.page.wait_for_selector(f'#palette .palette-block[data-unit="{unit}"] button.palette-line')


def _set_resource(gm: Seat, seats: list[Seat], taro: Seat) -> None:
    """The GM sets 源三郎's 運命 to 0: every board shows it, and 太郎's palette button, filled
    from his unit, follows live."""
    _rule(gm, seats, "set", unit="genzaburo", resource="fate", value="0", reason="天の怒り")
    for s in seats:
        assert s.text('#board tr[data-unit="genzaburo"] td[data-label="運命"]').strip() == "0"
    button = taro.page.locator('#palette .palette-block[data-unit="genzaburo"] button.palette-line').first
    assert button.inner_text() == "1D10+0 源三郎の運試し"
    before = taro.version()
    button.click()
    taro.wait_version(before + 1)
    assert "(1D10+0)" in taro.text("#chat")


def _effect_until_next_breath(gm: Seat, seats: list[Seat], taro: Seat) -> None:
    """An effect until 源三郎's next breath: on the board now, gone by itself then."""
    _rule(gm, seats, "effect", unit="genzaburo", name="気合", modifiers="attack=+1", clock="breath")
    assert "気合" in taro.text('#board tr[data-unit="genzaburo"]')
    assert "源三郎 に効果「気合」attack+1 (次の呼吸まで)" in taro.text("#log")


def _add_combatant(gm: Seat, seats: list[Seat], taro: Seat) -> None:
    """A combatant joins: written as in the encounter file; every page's board shows it."""
    ronin = ("id: ronin\nname: 浪人\nside: 敵\ngrade: 雑\nfate: 0\n"
             "abilities: {勇: 0, 技: 0, 體: 0, 智: 0, 美: 0, 運: 0}\nweapons: [katana]\n")
    _rule(gm, seats, "add_unit", add_unit=ronin, reason="援軍")
    for s in seats:
        assert s.page.locator('#board tr[data-unit="ronin"]').count() == 1
    # the GM's ruling forms can name it at once
    assert gm.page.locator('#rulings form[data-op="set"] select[name="unit"] option[value="ronin"]').count() == 1


def _alive(gm: Seat, unit: str) -> bool:
    row = gm.page.locator(f'#board tr[data-unit="{unit}"]')
    return row.count() > 0 and "out" not in (row.get_attribute("class") or "")


def _defence_reaches_only_the_defender(gm: Seat, taro: Seat, hanako: Seat, keys: list[str]) -> None:
    """太郎 (the defender's owner) has the options; 花子 sees only that 源三郎 is deciding."""
    assert keys and any(k == "noreact" or k.startswith(("improv:", "react:")) for k in keys), keys
    assert hanako.decision() is None and not hanako.my_turn()
    assert "源三郎 の防御（反応）を待っています" in hanako.text("#pending")
    assert hanako.page.locator("#pending button").count() == 0
    for k in keys:
        assert k not in hanako.page.content()
    assert gm.decision() is not None  # the GM may act for anyone


def _secret_roll(gm: Seat, taro: Seat, hanako: Seat, seats: list[Seat]) -> None:
    before = hanako.version()
    hanako.page.fill("#chat-form input[name=text]", "S2D10+3>=11 秘密の判定")
    hanako.page.click("#chat-form button[type=submit]")
    for s in seats:
        s.wait_version(before + 1)
    assert "（シークレットダイス）" in taro.text("#chat")
    assert "2D10" not in taro.text("#chat") and "秘密の判定" not in taro.page.content()
    assert "2D10" in gm.text("#chat") and "2D10" in hanako.text("#chat")
    before = hanako.version()
    hanako.page.click("#chat button.reveal")
    for s in seats:
        s.wait_version(before + 1)
    assert "2D10" in taro.text("#chat") and "公開済み" in taro.text("#chat")


def _reveal(gm: Seat, seats: list[Seat]) -> None:
    gm.page.click("#gm details.more > summary")
    before = gm.version()
    gm.page.click('#gm button.reveal-unit[data-unit="shinobi"]')
    for s in seats:
        s.wait_version(before + 1)
    sync(seats)


def _vigor(seat: Seat, unit: str) -> str:
    return seat.text(f'#board tr[data-unit="{unit}"] td[data-label="活力"]').strip()


def _undo_hanakos_attack(gm: Seat, seats: list[Seat], hanako: Seat) -> None:
    """The GM takes back 花子's attack once its dice are in: her 活力 comes back and the
    attack leaves the log; it is hers to answer again."""
    sync(seats)
    assert _vigor(gm, "ohatsu") == "9", _vigor(gm, "ohatsu")
    attacks = gm.text("#log").count("お初 横斬り")
    before = gm.version()
    gm.page.click("#undo")
    for s in seats:
        s.wait_version(before + 1)
    sync(seats)
    assert _vigor(gm, "ohatsu") == "11" and _vigor(hanako, "ohatsu") == "11"
    assert gm.text("#log").count("お初 横斬り") < attacks
    assert hanako.decision() is not None or hanako.dice_request() is not None, hanako.text("#pending")


def _restart_mid_roll(server: Server, seats: list[Seat], taro: Seat, faces: list[int]) -> None:
    """太郎 taps one die of two, the server is killed (-9) and restarted: the roll still waits,
    his typed die is still there, and the second tap sends it."""
    taro.tap_faces(faces[:1])
    assert taro.page.input_value("#dice-typed") == str(faces[0])
    before = taro.version()
    server.kill()
    for s in seats:
        s.page.wait_for_selector("#conn", state="visible", timeout=10_000)
    assert "再接続中…" in taro.text("#conn")
    server.start()
    for s in seats:
        s.page.wait_for_selector("#conn", state="hidden", timeout=20_000)
    assert taro.dice_request() is not None
    taro.page.reload()
    taro.page.wait_for_selector("#pending .dice-request")
    assert taro.page.input_value("#dice-typed") == str(faces[0])  # kept across the reload
    taro.tap_faces(faces[1:])
    taro.wait_version(before + 1)


def _check_390_layout(taro: Seat) -> None:
    """Single column at 390 px: nothing wider than the screen, tap targets ≥ 44 px."""
    width = taro.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide at 390px"
    small = taro.page.evaluate("""() => [...document.querySelectorAll(
            'a, button, select, input[type=text], input[type=number], textarea, summary, label.check')]
        .filter(e => e.offsetParent !== null)
        .map(e => e.getBoundingClientRect())
        .filter(r => r.height < 44 || r.width < 44).length""")
    assert small == 0, f"{small} tap targets smaller than 44px"


def _rule_ids_toggle(seat: Seat) -> None:
    """The log's rule ids can be hidden; the choice survives a reload."""
    rule = seat.page.locator("#log .rule").first
    assert rule.is_visible() and re.fullmatch(r"[SGF]-[RGT]\d+.*|GM.*", rule.inner_text())
    seat.page.click("label.check:has(#show-rules)")
    assert not rule.is_visible()
    seat.page.reload()
    seat.page.wait_for_selector("#clock")
    assert not seat.page.is_checked("#show-rules") and not seat.page.locator("#log .rule").first.is_visible()
    seat.page.click("label.check:has(#show-rules)")
    assert seat.page.locator("#log .rule").first.is_visible()


def _export(gm: Seat, hanako: Seat, table_id: str, server: Server) -> None:
    page = gm.page.context.new_page()
    page.goto(f"{server.base}/tables/{table_id}/export.html")
    body = page.inner_text("body")
    assert "戦闘ログ" in body and "S-R35" in body and "（入力: 太郎）" in body
    assert page.locator("script").count() == 0 and page.locator("link[rel=stylesheet]").count() == 0
    r = gm.page.request.get(f"{server.base}/tables/{table_id}/export.json")
    assert r.status == 200 and r.json()["format"] == LOG_FORMAT
    assert hanako.page.request.get(f"{server.base}/tables/{table_id}/export.json").status == 403
    page.close()
