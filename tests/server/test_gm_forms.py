"""The GM page's ruling forms (issue #9 §4 "the GM can make rulings at any time"): one form
per core ruling, posted as a browser posts it; a refusal comes back into the form with the
field it names and changes nothing."""

from __future__ import annotations

import json
import re
from typing import Any

from fastapi.testclient import TestClient

from tests.server.helpers import act, bearer, create, view

RONIN = ("id: ronin\nname: 浪人\nside: 敵\ngrade: 雑\nfate: 0\n"
         "abilities: {勇: 0, 技: 0, 體: 0, 智: 0, 美: 0, 運: 0}\nweapons: [katana]\n")


def _rule(c: TestClient, t: dict[str, Any], token: str, **form: str) -> Any:
    v = view(c, t, t["tokens"]["gm"])
    return c.post(f"/tables/{t['id']}/ruling", headers=bearer(token), data={"version": str(v["version"]), **form})


def _unit(v: dict[str, Any], uid: str) -> dict[str, Any]:
    return next(u for u in v["units"] if u["id"] == uid)


def test_the_gm_page_has_a_form_for_every_core_ruling(sqlite_client: TestClient) -> None:
    c = sqlite_client
    t = create(c)
    page = c.get(f"/tables/{t['id']}", headers=bearer(t["tokens"]["gm"])).text
    ops = set(re.findall(r'data-op="(\w+)"', page)) | set(re.findall(r'name="op" value="(\w+)"', page))
    assert {"set", "effect", "remove_effect", "condition", "add_unit", "remove_unit", "skip_turn", "end_turn",
            "modifier", "override", "end", "note"} <= ops
    # the winner is picked from the table's sides; the effect's clocks are maai's
    assert '<option value="味方">味方</option>' in page and '<option value="maai">間合</option>' in page
    # a player's page has none of it
    alice = c.get(f"/tables/{t['id']}", headers=bearer(t["tokens"]["players"]["alice"])).text
    assert 'id="rulings"' not in alice and "/ruling" not in alice


def test_the_core_rulings_from_the_forms(sqlite_client: TestClient) -> None:
    c = sqlite_client
    t = create(c)
    gm = t["tokens"]["gm"]
    ok = {"HX-Retarget": "#flash"}
    r = _rule(c, t, gm, op="set", unit="genzaburo", resource="vigor", value="5", reason="転倒")
    assert r.status_code == 200 and r.headers["HX-Retarget"] == ok["HX-Retarget"], r.text
    assert _unit(view(c, t, gm), "genzaburo")["vigor"] == 5
    r = _rule(c, t, gm, op="effect", unit="genzaburo", name="霧", modifiers="defense=-1 check=+1", clock="maai", n="2")
    assert r.status_code == 200, r.text
    log = view(c, t, gm)["log"]
    assert "源三郎 に効果「霧」defense-1 check+1 (2間合)" in log[-1]["text"]
    assert _rule(c, t, gm, op="effect", unit="genzaburo", name="毒").status_code == 200  # built-in by name
    assert _rule(c, t, gm, op="remove_effect", unit="genzaburo", name="毒").status_code == 200
    assert _rule(c, t, gm, op="condition", unit="kuro", name="出血").status_code == 200
    assert _rule(c, t, gm, op="modifier", unit="kuro", value="2").status_code == 200
    assert _rule(c, t, gm, op="override", name="会心", reason="演出").status_code == 200
    r = _rule(c, t, gm, op="add_unit", add_unit=RONIN, reason="援軍")
    assert r.status_code == 200, r.text
    v = view(c, t, gm)
    assert _unit(v, "ronin")["name"] == "浪人"
    assert "浪人" in view(c, t, t["tokens"]["players"]["alice"])["log"][-1]["text"]  # a new unit is not hidden
    # a reinforcement is an NPC like the others: its numbers stay off the players' log (#9 secrecy)
    assert _rule(c, t, gm, op="set", unit="ronin", resource="vigor", value="4").status_code == 200
    assert "浪人 活力 10→4" in view(c, t, gm)["log"][-1]["text"]
    assert "活力 ?→?" in view(c, t, t["tokens"]["players"]["alice"])["log"][-1]["text"]
    assert _rule(c, t, gm, op="remove_unit", unit="ronin").status_code == 200
    assert _rule(c, t, gm, op="end_turn").status_code == 200
    texts = [i["text"] for i in view(c, t, gm)["log"]]
    for needle in ("活力 11→5", "効果「毒」を解除", "黒 出血 付与", "黒 の次の判定に +2", "浪人 (敵) 参戦"):
        assert any(needle in x for x in texts), (needle, texts[-10:])
    r = _rule(c, t, gm, op="end", winner="味方", reason="敵が降参")
    assert r.status_code == 200
    v = view(c, t, gm)
    assert v["pending"] is None and v["over"]
    assert "戦闘終了: 勝者 味方" in " ".join(i["text"] for i in v["log"][-2:])


def test_a_refused_ruling_comes_back_at_its_field_and_changes_nothing(sqlite_client: TestClient) -> None:
    c = sqlite_client
    t = create(c)
    gm = t["tokens"]["gm"]
    before = view(c, t, gm)
    cases = [
        ({"op": "set", "unit": "genzaburo", "resource": "wounds", "value": "99"}, "value", "S-R60"),
        ({"op": "set", "unit": "genzaburo", "resource": "vigor", "value": "多い"}, "value", "whole number"),
        ({"op": "effect", "unit": "genzaburo", "name": "x", "modifiers": "bogus=1"}, "modifiers", "bogus"),
        ({"op": "effect", "unit": "genzaburo", "name": "x", "modifiers": "defense"}, "modifiers", "KEY=N"),
        ({"op": "add_unit", "add_unit": "id: [x"}, "add_unit", "malformed YAML"),
        ({"op": "override", "name": "会心"}, "reason", "reason"),
        ({"op": "set", "unit": "nobody", "resource": "vigor", "value": "3"}, "unit", "nobody"),
    ]
    for form, field, words in cases:
        r = _rule(c, t, gm, **form)
        assert r.status_code == 422, (form, r.text)
        assert words in r.text and 'class="err"' in r.text, (form, r.text)
        assert "HX-Retarget" not in r.headers  # shown in the form that sent it
        assert json.loads(r.headers["HX-Trigger-After-Swap"]) == {"ikusa-field-error": {"field": field}}, form
    after = view(c, t, gm)
    assert after["version"] == before["version"] and after["log"] == before["log"]
    # a player's ruling: 403, nothing changes; a stale version: 409
    r = _rule(c, t, t["tokens"]["players"]["alice"], op="set", unit="genzaburo", resource="vigor", value="1")
    assert r.status_code == 403
    assert view(c, t, gm)["version"] == before["version"]
    assert _rule(c, t, gm, op="note", text="先に書いたメモ").status_code == 200
    r = c.post(f"/tables/{t['id']}/ruling", headers=bearer(gm), data={
        "version": str(before["version"]), "op": "set", "unit": "genzaburo", "resource": "vigor", "value": "1"})
    assert r.status_code == 409 and "卓が変わりました" in r.text
    assert _unit(view(c, t, gm), "genzaburo")["vigor"] == 11


def test_the_gm_rerolls_the_last_decision_from_the_page(sqlite_client: TestClient) -> None:
    """Honest reroll (docs/gm-control.md §4): new dice for the same decision, the old ones
    and the reason in the log; a player may not."""
    c = sqlite_client
    t = create(c, seed=3)
    gm = t["tokens"]["gm"]
    page = c.get(f"/tables/{t['id']}", headers=bearer(gm)).text
    assert 'id="reroll-form"' in page
    alice_page = c.get(f"/tables/{t['id']}", headers=bearer(t["tokens"]["players"]["alice"])).text
    assert "reroll" not in alice_page
    # nothing rolled yet: refused in one line, nothing changes
    v = view(c, t, gm)
    r = c.post(f"/tables/{t['id']}/reroll", headers=bearer(gm), data={"version": str(v["version"])})
    assert r.status_code == 422 and "nothing to reroll" in r.text
    # an attack by the GM's NPC (auto dice), then a reroll with a reason
    while True:
        v = view(c, t, gm)
        p = v["pending"]
        if p["kind"] == "dice":
            assert act(c, t, gm, version=v["version"], roll=True).status_code == 200
            continue
        attack = next((o["key"] for o in p["options"] if o["key"].startswith("use:") and ">" in o["key"]), None)
        if attack is not None and p["actor"] == "yagyu":
            break
        assert act(c, t, gm, version=v["version"], action=p["options"][-1]["key"]).status_code == 200
    assert act(c, t, gm, version=v["version"], action=attack).status_code == 200
    v = view(c, t, gm)
    r = c.post(f"/tables/{t['id']}/reroll", headers=bearer(t["tokens"]["players"]["alice"]),
               data={"version": str(v["version"]), "reason": "x"})
    assert r.status_code == 403
    r = c.post(f"/tables/{t['id']}/reroll", headers=bearer(gm),
               data={"version": str(v["version"]), "reason": "サイコロが机から落ちた"})
    assert r.status_code == 200 and "振り直しました" in r.text
    after = view(c, t, gm)
    assert after["version"] == v["version"] + 1
    attacks = [i["text"] for i in after["log"] if "刺し → 源三郎" in i["text"]]
    assert len(attacks) == 1, attacks  # the attack again, once, with its new dice
    log = c.get(f"/tables/{t['id']}/export.json", headers=bearer(gm)).text
    assert '"rerolled"' in log and "サイコロが机から落ちた" in log  # the old dice and the reason are kept
    # the table's log says it happened, for everyone (#8 §4: every reroll is in the log)
    line = [i["text"] for i in view(c, t, t["tokens"]["players"]["alice"])["log"] if "振り直し" in i["text"]]
    assert len(line) == 1 and "槍の将" in line[0] and "旧ダイス" in line[0] and "サイコロが机から落ちた" in line[0]
