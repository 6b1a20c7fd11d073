"""Driving a table page like a person: read the banner, click an option, tap dice faces."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from typing import Any

#: how long one step may take to reach every page (the SSE round trip), in ms
STEP_MS = 15_000


class Seat:
    """One person's browser page at the table."""

    def __init__(self, name: str, page: Any) -> None:
        self.name = name
        self.page = page

    def version(self) -> int:
        raw = self.page.get_attribute("#clock", "data-version")
        return int(raw) if raw else -1

    def wait_version(self, at_least: int) -> None:
        self.page.wait_for_function(
            "v => { const c = document.getElementById('clock'); return c && +c.dataset.version >= v; }",
            arg=at_least, timeout=STEP_MS)

    def over(self) -> bool:
        return self.page.get_attribute("#clock", "data-over") == "1"

    def my_turn(self) -> bool:
        return bool(self.page.locator("#banner .banner-turn").count())

    def dice_request(self) -> dict[str, Any] | None:
        loc = self.page.locator("#pending .dice-request")
        if not loc.count():
            return None
        return {"sides": int(loc.get_attribute("data-sides") or 0), "count": int(loc.get_attribute("data-count") or 0),
                "roller": loc.get_attribute("data-roller")}

    def decision(self) -> tuple[str, str, list[str], str] | None:
        """(kind, actor, option keys, prompt) of the decision this page may answer."""
        form = self.page.locator("#pending form[data-kind]")
        if not form.count():
            return None
        keys = self.page.eval_on_selector_all("#pending button[name=action]", "bs => bs.map(b => b.value)")
        prompt = self.page.inner_text("#pending .prompt")
        return str(form.get_attribute("data-kind")), str(form.get_attribute("data-actor")), list(keys), prompt

    def choose(self, key: str) -> None:
        before = self.version()
        btn = self.page.locator(f'#pending button[name=action][value="{key}"]')
        if not btn.is_visible():  # behind 「ほかの選択肢」
            self.page.click("#pending details.more > summary")
        btn.click()
        self.wait_version(before + 1)

    def tap_faces(self, faces: list[int]) -> None:
        """Tap one keypad button per die (the last tap sends the roll)."""
        for f in faces:
            self.page.click(f'#pending .keypad button[data-face="{f}"]')

    def type_dice(self, faces: list[int]) -> None:
        before = self.version()
        req = self.dice_request()
        assert req is not None
        if req["sides"] <= 20:
            self.tap_faces(faces)
        else:
            self.page.fill("#dice-typed", " ".join(str(f) for f in faces))
            self.page.click("#pending button[value=typed]")
        self.wait_version(before + 1)

    def roll_for_me(self) -> None:
        before = self.version()
        self.page.click("#pending button.roll-for-me")
        self.wait_version(before + 1)

    def text(self, selector: str = "body") -> str:
        return str(self.page.inner_text(selector))


def sync(seats: list[Seat]) -> int:
    """Wait until every page shows the same (newest) version; return it."""
    deadline = time.monotonic() + STEP_MS / 1000
    while True:
        vs = [s.version() for s in seats]
        if len(set(vs)) == 1 and vs[0] >= 0:
            time.sleep(0.05)  # the other fragments of the same version land together
            if [s.version() for s in seats] == vs:
                return vs[0]
        if time.monotonic() > deadline:
            named = dict(zip([s.name for s in seats], vs, strict=True))
            raise AssertionError(f"pages disagree on the version: {named}")
        time.sleep(0.05)


def spent_of(prompt: str) -> bool:
    m = re.search(r"消費(\d+)", prompt)
    return bool(m and int(m.group(1)) > 0)


def faces_cycle(sides: int) -> Iterator[int]:
    """Deterministic 'physical' dice: a fixed walk over the faces."""
    i = 0
    while True:
        yield (i * 7 + 3) % sides + 1
        i += 1


def whose_turn(seats: list[Seat]) -> Seat | None:
    for s in seats:
        if s.my_turn():
            return s
    return None


def step(seats: list[Seat], act: Callable[[Seat], None]) -> bool:
    """One step of play: the page whose banner says 「あなたの手番」 acts; False when over."""
    sync(seats)
    if seats[0].over():
        return False
    seat = whose_turn(seats)
    assert seat is not None, "nobody has 「あなたの手番」: " + " | ".join(s.text("#turn") for s in seats)
    act(seat)
    return True
