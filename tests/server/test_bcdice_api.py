"""Issue #10 §2-§3: the BCDice-API v2 of ``ikusa serve`` over HTTP, against a real uvicorn
on loopback: the shape, reason, status code and headers of every row of the contract, the
test-dice switch, and BCDice 4.9.0's own test data over HTTP (``--test-dice``)."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import ikusa
from tests.dice.bcdice_conformance import FLAGS, expected, label, load_cases, rands
from tests.services import bcdice_test_data

IKUSA = Path(sys.executable).with_name("ikusa")
SEMVER = re.compile(r"^v?\d+\.\d+\.\d+")
ADMIN = {"name": "戦の管理人", "url": "https://example.org/terms", "email": "gm@example.org"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Server:
    def __init__(self, tmp: Path, *, test_dice: bool, env: dict[str, str]) -> None:
        port = _free_port()
        cmd = [str(IKUSA), "serve", "--host", "127.0.0.1", "--port", str(port), "--db", f"sqlite:///{tmp}/x.db"]
        self.log = tmp / "serve.log"
        with self.log.open("wb") as log:  # a file, not a pipe: a chatty server can never block on it
            self.proc = subprocess.Popen(cmd + (["--test-dice"] if test_dice else []), env={**os.environ, **env},
                                         stdout=log, stderr=subprocess.STDOUT)
        self.client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)

    def wait(self, deadline: float) -> None:
        while True:
            try:
                if self.client.get("/healthz").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"ikusa serve did not start: {self.log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.1)

    def stop(self) -> None:
        self.client.close()
        self.proc.terminate()
        self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, httpx.Client]]:
    """Two servers, started side by side: ``api`` as a table runs it (no test dice, an admin
    set in the environment) and ``fixed`` started with ``--test-dice`` (no admin)."""
    admin = {f"IKUSA_ADMIN_{k.upper()}": v for k, v in ADMIN.items()}
    started = {
        "api": _Server(tmp_path_factory.mktemp("plain"), test_dice=False, env=admin),
        "fixed": _Server(tmp_path_factory.mktemp("fixed"), test_dice=True, env=dict.fromkeys(admin, "")),
    }
    try:
        deadline = time.monotonic() + 90
        for server in started.values():
            server.wait(deadline)
        yield {name: server.client for name, server in started.items()}
    finally:
        for server in started.values():
            server.stop()


@pytest.fixture(scope="module")
def api(servers: dict[str, httpx.Client]) -> httpx.Client:
    return servers["api"]


@pytest.fixture(scope="module")
def fixed(servers: dict[str, httpx.Client]) -> httpx.Client:
    return servers["fixed"]


def body(r: httpx.Response, status: int = 200) -> Any:
    """The JSON of a /v2 answer, after checking what every /v2 answer has: the status, the
    CORS and content-type headers, and compact UTF-8 JSON (keys in the order read)."""
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["access-control-allow-origin"] == "*"
    assert r.headers["content-type"] == "application/json"
    data = json.loads(r.content.decode("utf-8"))
    assert r.content == json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return data


def rands_header(dice: list[tuple[int, int]]) -> dict[str, str]:
    return {"X-Test-Rands": json.dumps([[v, s] for v, s in dice])}


# ------------------------------------------------------------------ the rows of the contract


def test_version(api: httpx.Client) -> None:
    data = body(api.get("/v2/version"))
    assert data == {"api": ikusa.__version__, "bcdice": "3.16.1"}
    assert list(data) == ["api", "bcdice"]
    assert SEMVER.match(data["api"]) and SEMVER.match(data["bcdice"])  # what bcdice/api-status reads


def test_admin_from_the_settings(api: httpx.Client, fixed: httpx.Client) -> None:
    data = body(api.get("/v2/admin"))
    assert data == ADMIN and list(data) == ["name", "url", "email"]
    assert body(fixed.get("/v2/admin")) == {"name": "", "url": "", "email": ""}


def test_game_system_list_sorted_by_sort_key(api: httpx.Client) -> None:
    data = body(api.get("/v2/game_system"))
    assert list(data) == ["game_system"]
    systems = data["game_system"]
    assert all(list(s) == ["id", "name", "sort_key"] for s in systems)
    assert [s["sort_key"] for s in systems] == sorted(s["sort_key"] for s in systems)
    by_id = {s["id"]: s for s in systems}
    assert by_id["DiceBot"] == {"id": "DiceBot", "name": "DiceBot", "sort_key": "*たいすほつと"}
    assert by_id["Sengensyou"] == {"id": "Sengensyou", "name": "千幻抄", "sort_key": "せんけんしよう"}
    assert by_id["Maai"]["name"] == "間合" and by_id["Fantasy"]["name"] == "ファンタジー特殊状況"
    assert [s["id"] for s in systems] == ["DiceBot", "Sengensyou", "Fantasy", "Maai"]


@pytest.mark.parametrize("sid", ["DiceBot", "Sengensyou", "Maai", "Fantasy"])
def test_game_system_info(api: httpx.Client, sid: str) -> None:
    data = body(api.get(f"/v2/game_system/{sid}"))
    assert list(data) == ["ok", "id", "name", "sort_key", "command_pattern", "help_message"]
    assert data["ok"] is True and data["id"] == sid and data["help_message"].strip()
    assert data["command_pattern"].startswith("^S?(")
    pattern = re.compile(data["command_pattern"], re.IGNORECASE)  # as clients compile it
    for command in ("2d6>=7", "s3b6", "c(1+2)", "Choice[a,b]", "x3 1D6", "d66", "5ty6", "3u6[6]"):
        assert pattern.match(command), command
    assert not pattern.match("こんにちは")
    assert pattern.match("SGS+2") if sid == "Sengensyou" else not pattern.match("SGS+2")


@pytest.mark.parametrize("path", ["/v2/game_system/dicebot", "/v2/game_system/Nope",
                                  "/v2/game_system/sengensyou/roll?command=SGS", "/v2/game_system/Nope/roll"])
def test_unknown_game_system_case_sensitive_and_checked_first(api: httpx.Client, path: str) -> None:
    assert body(api.get(path), 400) == {"ok": False, "reason": "unsupported game system"}
    if "/roll" in path:
        assert body(api.post(path), 400) == {"ok": False, "reason": "unsupported game system"}
    else:  # only GET reads a system's info (as Sinatra's routes)
        assert body(api.post(path), 404) == {"ok": False, "reason": "not found"}


ROLL_KEYS = ["ok", "text", "secret", "success", "failure", "critical", "fumble", "rands"]


def _roll_ok(data: dict[str, Any]) -> None:
    assert list(data) == ROLL_KEYS and data["ok"] is True
    assert all(list(r) == ["kind", "sides", "value"] and r["kind"] == "normal" and 1 <= r["value"] <= r["sides"]
               for r in data["rands"])


def test_roll_get_and_post_query_or_form(api: httpx.Client) -> None:
    url = "/v2/game_system/DiceBot/roll"
    answers = [
        body(api.get(url, params={"command": "2D6>=7 攻撃"})),
        body(api.post(url, data={"command": "2D6>=7"})),
        body(api.post(url, params={"command": "2D6>=7"})),  # query string, empty body (discord-bcdicebot)
        body(api.post(url, params={"command": "hello"}, data={"command": "2D6>=7"})),  # the body wins
    ]
    for data in answers:
        _roll_ok(data)
        values = [r["value"] for r in data["rands"]]
        assert [r["sides"] for r in data["rands"]] == [6, 6]
        ok = sum(values) >= 7
        assert data["text"] == f"(2D6>=7) ＞ {sum(values)}[{values[0]},{values[1]}] ＞ {sum(values)} ＞ " \
            + ("成功" if ok else "失敗")
        assert (data["success"], data["failure"], data["critical"], data["fumble"], data["secret"]) == \
            (ok, not ok, False, False, False)
    secret = body(api.get(url, params={"command": "S1D6"}))
    assert secret["secret"] is True and secret["text"].startswith("(1D6) ＞ ")


@pytest.mark.parametrize("params", [{}, {"command": ""}, {"command": "hello"}, {"command": "SGS>=5"},
                                    {"command": "1D6+" + "9" * 1001}, {"cmd": "1D6"}])
def test_roll_unsupported_command(api: httpx.Client, params: dict[str, str]) -> None:
    for sid in ("DiceBot", "Sengensyou"):
        url = f"/v2/game_system/{sid}/roll"
        assert body(api.get(url, params=params), 400) == {"ok": False, "reason": "unsupported command"}
        assert body(api.post(url, data=params), 400) == {"ok": False, "reason": "unsupported command"}


def test_systems_roll_their_own_checks(fixed: httpx.Client) -> None:
    maai = body(fixed.get("/v2/game_system/Maai/roll", params={"command": "2D10+3>=11"},
                          headers=rands_header([(7, 10), (7, 10)])))
    assert maai["text"] == "(2D10+3>=11) ＞ 14[7,7]+3 ＞ 17 ＞ 会心"
    assert maai["success"] and maai["critical"] and not maai["failure"]
    sgs = body(fixed.get("/v2/game_system/Sengensyou/roll", params={"command": "SGS+4+6"},
                         headers=rands_header([(5, 6), (5, 6), (6, 6)])))
    assert sgs["text"] == "(3D6+10) ＞ 16[5,5,6] ＞ 16+10 ＞ 26 ＞ クリティカル" and sgs["critical"]
    fantasy = body(fixed.get("/v2/game_system/Fantasy/roll", params={"command": "2D6+3>=20"},
                             headers=rands_header([(6, 6), (6, 6)])))
    assert fantasy["text"] == "(2D6+3>=20) ＞ 12[6,6]+3 ＞ 15 ＞ 自動成功" and fantasy["success"]
    assert [r["value"] for r in fantasy["rands"]] == [6, 6]


TABLE = "飲み物表\n1D6\n1:水\n2:緑茶\n3:麦茶\n4:コーラ\n5:オレンジジュース\n6:選ばれし者の知的飲料\n"


def test_original_table(api: httpx.Client, fixed: httpx.Client) -> None:
    data = body(fixed.post("/v2/original_table", data={"table": TABLE}, headers=rands_header([(4, 6)])))
    assert data == {"ok": True, "text": "飲み物表(4) ＞ コーラ", "rands": [{"kind": "normal", "sides": 6, "value": 4}]}
    # discord-bcdicebot: the table in the query string, an empty body
    data = body(fixed.post("/v2/original_table", params={"table": TABLE}, headers=rands_header([(6, 6)])))
    assert data["text"] == "飲み物表(6) ＞ 選ばれし者の知的飲料"
    data = body(api.post("/v2/original_table", data={"table": TABLE}))
    assert list(data) == ["ok", "text", "rands"] and data["text"].startswith("飲み物表(")
    for bad in ({"table": "飲み物表\n1D6\n1:水\n"}, {"table": "表"}, {"table": "表\n2D6\n1:x"}, {}):
        assert body(api.post("/v2/original_table", data=bad), 500) == {"ok": False}


@pytest.mark.parametrize(("method", "path"), [
    ("GET", "/v2/original_table"), ("GET", "/v2/nope"), ("GET", "/v2"), ("GET", "/v2/"),
    ("POST", "/v2/version"), ("PUT", "/v2/game_system/DiceBot/roll"), ("DELETE", "/v2/admin"),
    ("OPTIONS", "/v2/game_system/DiceBot/roll"), ("GET", "/v2/game_system/DiceBot/roll/extra"),
    ("GET", "/v2/game_system/"),
])
def test_any_other_v2_path_is_a_json_404(api: httpx.Client, method: str, path: str) -> None:
    assert body(api.request(method, path), 404) == {"ok": False, "reason": "not found"}


def test_the_404_and_cors_stay_under_v2(api: httpx.Client) -> None:
    r = api.get("/healthz")
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers
    r = api.get("/no-such-page")
    assert r.status_code == 404 and "access-control-allow-origin" not in r.headers
    assert r.content != b'{"ok":false,"reason":"not found"}'
    r = api.get("/v2x/version")
    assert r.status_code == 404 and "access-control-allow-origin" not in r.headers


# ------------------------------------------------------------------ test dice


def test_test_rands_header_is_ignored_without_the_flag(api: httpx.Client) -> None:
    url = "/v2/game_system/DiceBot/roll"
    values = set()
    for _ in range(3):
        data = body(api.get(url, params={"command": "1D10000"}, headers=rands_header([(1234, 10000)])))
        values.add(data["rands"][0]["value"])
    assert values != {1234}  # three random d10000 all showing 1234: once in 10^12 runs
    # a header that the flag would refuse is not even read
    for header in ("not json", "[[7, 6]]", "[[1, 20]]"):
        _roll_ok(body(api.get(url, params={"command": "1D6"}, headers={"X-Test-Rands": header})))


def test_test_rands_with_the_flag(fixed: httpx.Client) -> None:
    url = "/v2/game_system/DiceBot/roll"
    data = body(fixed.get(url, params={"command": "2D6>=7"}, headers=rands_header([(3, 6), (4, 6)])))
    assert data["text"] == "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功" and data["success"]
    assert data["rands"] == [{"kind": "normal", "sides": 6, "value": 3}, {"kind": "normal", "sides": 6, "value": 4}]
    wrong_sides = body(fixed.get(url, params={"command": "1D4"}, headers=rands_header([(2, 6)])), 500)
    assert wrong_sides["ok"] is False and "d6" in wrong_sides["reason"] and "d4" in wrong_sides["reason"]
    too_few = body(fixed.get(url, params={"command": "2D6"}, headers=rands_header([(2, 6)])), 500)
    assert too_few["ok"] is False and "ran out" in too_few["reason"]
    bad = body(fixed.get(url, params={"command": "1D6"}, headers={"X-Test-Rands": "[1, 2]"}), 400)
    assert bad["ok"] is False and "X-Test-Rands" in bad["reason"]
    # without the header the flagged server rolls random dice
    _roll_ok(body(fixed.get(url, params={"command": "1D6"})))


def test_bcdice_test_data_over_http(fixed: httpx.Client) -> None:
    """§1's 342 cases over HTTP: BCDice's text and flags, or 400 where BCDice answers
    nothing; the rands are the case's dice; the input matches the system's command_pattern
    (as BCDice's own harness checks)."""
    cases = load_cases(bcdice_test_data())
    patterns = {sid: re.compile(body(fixed.get(f"/v2/game_system/{sid}"))["command_pattern"], re.IGNORECASE)
                for sid in ("DiceBot", "Sengensyou")}
    wrong: list[str] = []
    for case in cases:
        want = expected(case)
        r = fixed.post(f"/v2/game_system/{case['game_system']}/roll", data={"command": case["input"]},
                       headers=rands_header(rands(case)))
        if want is None:
            if (r.status_code, r.content) != (400, b'{"ok":false,"reason":"unsupported command"}'):
                wrong.append(f"{label(case)}: BCDice answers nothing, ikusa {r.status_code} {r.text}")
            continue
        data = body(r)
        got = {"text": data["text"], **{f: data[f] for f in FLAGS}}
        drawn = [(d["value"], d["sides"]) for d in data["rands"]]
        if got != want:
            wrong.append(f"{label(case)}\n  BCDice: {want}\n  ikusa:  {got}")
        elif drawn != rands(case)[: len(drawn)]:
            wrong.append(f"{label(case)}: rands {drawn}, not {rands(case)}")
        elif not patterns[case["game_system"]].match(case["input"]):
            wrong.append(f"{label(case)}: not matched by command_pattern")
    assert not wrong, f"{len(wrong)} of {len(cases)} cases differ over HTTP:\n" + "\n".join(wrong)
