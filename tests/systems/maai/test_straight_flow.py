"""The straight-line check (FlowBase.roll_check, issue #12) against the general path: a seeded
RandomSource draws through RandomSource.pair with no purpose, any other source through roll()
with the purpose shown to a person.  The same numbers through either path must give the same
battle, event for event and decision for decision (fate questions asked at the same rolls), and
the purposes must read as before ("源三郎 横斬り 命中")."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from ikusa.dice.source import RandomSource
from ikusa.engine.encounter import read_document, split_document
from ikusa.systems.maai.check import Check
from ikusa.systems.maai.effects import gm_check
from ikusa.systems.maai.encounter import MaaiEncounter, encounter_from_dict
from ikusa.systems.maai.policies import GreedyPolicy, RandomPolicy
from ikusa.systems.maai.state import MaaiState

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "maai"


class Relay:
    """The same draws as a RandomSource, seen by the flow as another kind of source."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomSource(seed)
        self.purposes: list[tuple[str, str]] = []

    def roll(self, sides: int, count: int = 1, purpose: str = "", roller: str = "") -> list[int]:
        self.purposes.append((purpose, roller))
        return self.inner.roll(sides, count, purpose, roller)


class DirectState(MaaiState):
    """The check as it was before the straight path: every roll goes through roll() and
    offer_fate with a continuation (offer_fate decides alone whether to ask)."""

    def roll_check(self, unit: Any, modifier: int, target: int, what: str, suffix: str, crit_extension: bool,
                   relevance: str, then: Callable[..., None], args: tuple[Any, ...]) -> Check | None:
        assert self.dice is not None
        purpose = f"{what}{suffix}"
        d = self.dice.roll(10, 2, f"{unit.name} {purpose}", roller=unit.id)
        cont = partial(then, *args)
        if self.fx.next_mod or self.fx.override:
            modifier, forced = gm_check(self, unit, (d[0], d[1]), modifier, target, purpose, crit_extension)
            if forced is not None:
                cont(forced)
                return None
        self.offer_fate(unit, Check((d[0], d[1]), modifier, target, crit_extension), cont, own=True,
                        relevance=relevance)
        return None


def load(name: str) -> MaaiEncounter:
    path = EXAMPLES / name
    return encounter_from_dict(split_document(read_document(path), str(path)).body, str(path))


def play(enc: MaaiEncounter, policy: GreedyPolicy | RandomPolicy, dice: object, seed: int,
         make: type[MaaiState] = MaaiState) -> list[object]:
    rng = random.Random(seed)
    st = make(enc)
    out: list[object] = [e.to_json() for e in st.ev]
    d = st.pending()
    while d is not None:
        out.append((d.actor, d.kind, d.prompt, [(o.key, o.label, o.cost, o.odds, o.data) for o in d.options]))
        key = policy.choose(st, d, rng)
        out.extend(e.to_json() for e in st.apply(key, dice))  # type: ignore[arg-type]
        d = st.pending()
    out.append(st.summary())
    return out


@pytest.mark.pure_python  # subclasses the compiled MaaiState (DirectState)
@pytest.mark.parametrize("name", ["duel.yaml", "squad_battle.yaml"])
def test_both_dice_paths_give_the_same_battles(name: str) -> None:
    enc = load(name)
    asked_fate = 0
    for seed in range(12):
        policy = GreedyPolicy() if seed % 2 else RandomPolicy()
        fast = play(enc, policy, RandomSource(seed), seed)
        relay = Relay(seed)
        slow = play(enc, policy, relay, seed)
        assert fast == slow
        assert fast == play(enc, policy, RandomSource(seed), seed, DirectState)
        asked_fate += sum(1 for x in fast if isinstance(x, tuple) and x[1] == "fate")
        for purpose, roller in relay.purposes:
            assert purpose and roller  # every roll says what it is for and who rolls it
    assert asked_fate > 0  # the seeds reach the fate questions the straight path must not skip


def test_purposes_read_as_before() -> None:
    enc = load("duel.yaml")
    relay = Relay(3)
    play(enc, GreedyPolicy(), relay, 3)
    names = {u.id: u.name for u in MaaiState(enc).units}
    hits = [p for p, _ in relay.purposes if p.endswith(" 命中")]
    assert hits and all(p.split(" ")[0] in names.values() for p in hits)
    for p, roller in relay.purposes:
        if roller in names:
            assert p.startswith(names[roller] + " ")
