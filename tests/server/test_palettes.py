"""Chat palettes per table and unit (issue #9 §6): stored on the server, so they follow the
player to another device; written by the unit's owner or the GM; ``{var}`` filled from the
unit as the viewer sees it; hostile text refused at its limits or shown as text."""

from __future__ import annotations

import html
import re
from typing import Any

from fastapi.testclient import TestClient

from ikusa.server.palettes import MAX_CHARS, MAX_LINES
from tests.server.helpers import bearer, create, view

PALETTE = "//気合=3\n1D10+{活力} {name}の気合\n2D10+{気合}>=10 {名前}の判定\n<script>alert(1)</script>"


def _page(c: TestClient, t: dict[str, Any], token: str) -> str:
    r = c.get(f"/tables/{t['id']}", headers=bearer(token))
    assert r.status_code == 200, r.text
    return r.text


def _save(c: TestClient, t: dict[str, Any], token: str, unit: str, text: str) -> Any:
    return c.post(f"/tables/{t['id']}/palette", headers=bearer(token), data={"unit": unit, "text": text})


def _buttons(page: str, unit: str) -> list[str]:
    block = page.split(f'palette-block" data-unit="{unit}"', 1)[1].split("</details>", 1)[0]
    return [html.unescape(b) for b in re.findall(r'class="palette-line"[^>]*>([^<]*)</button>', block)]


def test_a_players_palette_is_stored_per_unit_and_follows_them(client: TestClient) -> None:
    """Runs on SQLite and PostgreSQL: the migration made the table on both."""
    t = create(client)
    alice = t["tokens"]["players"]["alice"]
    r = _save(client, t, alice, "genzaburo", PALETTE)
    assert r.status_code == 200, r.text
    # the answer is the editor again plus the buttons out of band
    assert 'id="palette" hx-swap-oob="innerHTML"' in r.text
    # "another device": a fresh request with only the link's token, no cookie of the first
    client.cookies.clear()
    page = _page(client, t, alice)
    assert _buttons(page, "genzaburo") == ["1D10+11 源三郎の気合", "2D10+3>=10 源三郎の判定",
                                           "<script>alert(1)</script>"]
    assert "<script>alert(1)</script>" not in page  # shown as text, never as markup
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    # the GM sees (and may edit) it too; bob, who does not own 源三郎, does not see it
    gm_page = _page(client, t, t["tokens"]["gm"])
    assert "1D10+11 源三郎の気合" in html.unescape(gm_page)
    bob_page = _page(client, t, t["tokens"]["players"]["bob"])
    assert "源三郎の気合" not in bob_page
    assert 'palette-block" data-unit="kuro"' in bob_page and 'palette-block" data-unit="genzaburo"' not in bob_page


def test_a_palette_line_is_sent_filled_with_its_own_variables(sqlite_client: TestClient) -> None:
    c = sqlite_client
    t = create(c)
    alice = t["tokens"]["players"]["alice"]
    assert _save(c, t, alice, "genzaburo", PALETTE).status_code == 200
    r = c.post(f"/tables/{t['id']}/chat", headers=bearer(alice),
               data={"line": "2D10+{気合}>=10 {名前}の判定", "speaker": "genzaburo"})
    assert r.status_code == 200, r.text
    said = view(c, t, alice)["chat"][-1]
    assert said["name"] == "源三郎" and said["text"] == "2D10+3>=10 源三郎の判定"
    assert said["result"] is not None and said["result"]["text"].startswith("(2D10+3>=10)")
    # bob may not speak as 源三郎, with or without a palette line
    r = c.post(f"/tables/{t['id']}/chat", headers=bearer(t["tokens"]["players"]["bob"]),
               data={"line": "1D10", "speaker": "genzaburo"})
    assert r.status_code == 403


def test_only_the_owner_and_the_gm_write_a_units_palette(sqlite_client: TestClient) -> None:
    c = sqlite_client
    t = create(c)
    tok = t["tokens"]
    for token, unit in ((tok["players"]["bob"], "genzaburo"), (tok["spectator"], "genzaburo"),
                        (tok["players"]["alice"], "yagyu"), (tok["players"]["alice"], "shinobi")):
        r = _save(c, t, token, unit, "1D6 奪った")
        assert r.status_code == 403, (unit, r.text)
        assert r.headers["HX-Retarget"] == "#flash"
    assert "奪った" not in _page(c, t, tok["players"]["alice"]) + _page(c, t, tok["gm"])
    # the GM writes an NPC's palette and a PC's; the owner sees the GM's version of her own
    assert _save(c, t, tok["gm"], "yagyu", "2D10+{活力} 槍").status_code == 200
    assert _save(c, t, tok["gm"], "genzaburo", "1D6 GMが用意").status_code == 200
    assert _buttons(_page(c, t, tok["players"]["alice"]), "genzaburo") == ["1D6 GMが用意"]
    assert "2D10+11 槍" in html.unescape(_page(c, t, tok["gm"]))
    # a forged link changes nothing
    assert _save(c, t, "forged-token", "genzaburo", "1D6 x").status_code == 403


def test_hostile_palettes_are_refused_at_their_limits_and_change_nothing(sqlite_client: TestClient) -> None:
    c = sqlite_client
    t = create(c)
    alice = t["tokens"]["players"]["alice"]
    assert _save(c, t, alice, "genzaburo", "1D6 元のまま").status_code == 200
    cases = {
        "x" * (MAX_CHARS + 1): f"at most {MAX_CHARS} characters",
        "\n".join(["1D6"] * (MAX_LINES + 1)): f"at most {MAX_LINES} lines",
        "1D6\n" + "2" * 401: "palette line 2: at most 400 characters",
        "1D6\x00ok": "palette line 1: control character U+0000",
    }
    for text, message in cases.items():
        r = _save(c, t, alice, "genzaburo", text)
        assert r.status_code == 422 and message in r.text, r.text[:300]
        # the error is shown at the unit's text box, which keeps what was typed
        assert 'aria-invalid="true"' in r.text and 'role="alert"' in r.text
    assert _buttons(_page(c, t, alice), "genzaburo") == ["1D6 元のまま"]
    # an empty palette goes back to the system's default
    assert _save(c, t, alice, "genzaburo", "  \n").status_code == 200
    assert _buttons(_page(c, t, alice), "genzaburo")[0] == "2D10+0>=10 源三郎の判定"
