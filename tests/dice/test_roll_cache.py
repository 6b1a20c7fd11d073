"""The command cache behind ``ikusa.roll`` (issue #12): answers exactly what the system's
evaluator answers, asks the dice source for exactly the same dice, hands out private
copies, and stays within its bounds."""

from __future__ import annotations

import copy

import pytest

import ikusa
from ikusa import api
from ikusa.dice import roll_cache
from ikusa.dice.result import RollResult
from ikusa.dice.roll_cache import RollCache
from ikusa.dice.source import DiceSource, ManualSource, RandomSource
from ikusa.engine.errors import DiceError, InputError

#: (system, command): sums, pools, rerolls (a variable number of draws), repeats, fate,
#: the systems' own checks, a calculation without dice and a non-command
COMMANDS: list[tuple[str | None, str]] = [
    (None, "2D6>=7"), (None, "1D100<=50"), (None, "2D6+1D4-2>=8"), (None, "3R6>=5"), (None, "3U6[6]"),
    (None, "x2 2D6>=7"), (None, "C(1+2*3)"), (None, "D66"), (None, "hello"), (None, "S2D6"),
    ("maai", "2D10+3>=11"), ("maai", "2D10+3>=11FB"), ("maai", "2D10-1>=9CE"), ("maai", "2D6>=7"),
    ("Sengensyou", "DP3+7>=12"), ("sengensyou", "SGS+2>=12"), ("fantasy", "2D6+5>=12"),
]


def _direct(system: str | None, command: str, dice: DiceSource) -> RollResult | None:
    return api._evaluator(system)(command, dice)


def _shape(r: RollResult | None) -> object:
    return None if r is None else (r.to_json(), r.extra)


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    api.clear_roll_cache()


@pytest.mark.parametrize(("system", "command"), COMMANDS)
def test_cached_rolls_are_the_evaluators_and_draw_the_same_dice(system: str | None, command: str) -> None:
    cached, direct = RandomSource(99), RandomSource(99)
    for _ in range(150):  # 2D6 has 36 outcomes: most of these rolls are cache hits
        assert _shape(ikusa.roll(command, system, dice=cached)) == _shape(_direct(system, command, direct))
    assert cached.roll(1000, 3) == direct.roll(1000, 3)  # the two streams are at the same place


def test_a_person_typing_dice_sees_the_same_prompts() -> None:
    def typist(log: list[tuple[int, int, str]]) -> ManualSource:
        def ask(sides: int, count: int, purpose: str) -> list[int]:
            log.append((sides, count, purpose))
            return [min(4, sides)] * count

        return ManualSource(ask)

    for system, command in COMMANDS:
        seen: list[tuple[int, int, str]] = []
        expected: list[tuple[int, int, str]] = []
        for _ in range(2):  # the second roll is a cache hit
            r = ikusa.roll(command, system, dice=typist(seen))
            assert _shape(r) == _shape(_direct(system, command, typist(expected)))
        assert seen == expected


def test_every_caller_gets_its_own_copy() -> None:
    first = ikusa.roll("2D10+3+3+2+2+2>=12", "maai", dice=[5, 5])
    assert first is not None
    pristine = copy.deepcopy(_shape(first))
    first.text = "changed"
    first.dice.append((1, 6))
    first.extra["warnings"].append("changed")
    first.extra["dice"][0] = 9
    again = ikusa.roll("2D10+3+3+2+2+2>=12", "maai", dice=[5, 5])
    assert _shape(again) == pristine
    assert len(api.ROLL_CACHE) == 1


def test_a_failing_source_fails_the_same_way_on_a_hit() -> None:
    class Flaky:
        def __init__(self, fail_at: int) -> None:
            self.calls = 0
            self.fail_at = fail_at

        def roll(self, sides: int, count: int = 1, purpose: str = "") -> list[int]:
            self.calls += 1
            if self.calls == self.fail_at:
                raise DiceError(f"no die #{self.calls}")
            return [1] * count

    ikusa.roll("x3 1D6", dice=Flaky(0))  # cache the all-ones path
    with pytest.raises(DiceError, match="no die #2"):
        ikusa.roll("x3 1D6", dice=Flaky(2))
    with pytest.raises(DiceError, match="no die #2"):
        _direct(None, "x3 1D6", Flaky(2))


def test_scripted_lists_must_still_fit() -> None:
    assert ikusa.roll("2D6>=7", dice=[3, 4]) is not None
    with pytest.raises(DiceError, match="left unused"):
        ikusa.roll("2D6>=7", dice=[3, 4, 5])  # a cache hit draws two dice, one is left
    with pytest.raises(DiceError, match="ran out"):
        ikusa.roll("2D6>=7", dice=[3])
    with pytest.raises(DiceError, match="outside 1..6"):
        ikusa.roll("2D6>=7", dice=[3, 7])


def test_errors_are_not_cached() -> None:
    for _ in range(2):
        with pytest.raises(InputError):
            ikusa.roll("2D6", system="nope")
        with pytest.raises(DiceError, match="too many dice"):
            ikusa.roll("1000000D6")
    assert len(api.ROLL_CACHE) == 0


def _agree(cache: RollCache, command: str, n: int, a: RandomSource, b: RandomSource) -> None:
    for _ in range(n):
        assert _shape(cache.run(None, command, a, api._evaluator)) == _shape(_direct(None, command, b))


def test_bounds_per_command_and_in_all(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(roll_cache, "MAX_LEAVES_PER_COMMAND", 20)
    monkeypatch.setattr(roll_cache, "MAX_LEAVES", 60)
    monkeypatch.setattr(roll_cache, "BYPASS_AFTER", 10**6)
    cache = RollCache()
    a, b = RandomSource(5), RandomSource(5)
    _agree(cache, "1D100", 300, a, b)  # 100 outcomes, 20 kept
    assert roll_cache.stats(cache) == {"commands": 1, "results": 20, "bypassed": 0}
    for n in range(1, 9):  # 8 more commands of 6 outcomes each: past 60 the oldest go
        _agree(cache, f"1D6+{n}", 40, a, b)
    assert len(cache) <= 60
    assert roll_cache.stats(cache)["commands"] < 9


def test_commands_that_mostly_miss_are_bypassed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(roll_cache, "BYPASS_AFTER", 30)
    cache = RollCache()
    a, b = RandomSource(8), RandomSource(8)
    _agree(cache, "5B6>=4", 200, a, b)  # 7,776 outcomes: hardly a hit in 30 rolls
    _agree(cache, "1D6", 200, a, b)  # 6 outcomes: all hits after a few rolls
    assert roll_cache.stats(cache) == {"commands": 2, "results": 6 + 29, "bypassed": 1}


def test_parsing_happens_once_per_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the cache is for: a command seen before is not parsed again."""
    calls: list[str] = []
    real = api._evaluator(None)

    def counting(command: str, dice: DiceSource) -> RollResult | None:
        calls.append(command)
        return real(command, dice)

    monkeypatch.setattr(api, "_evaluator", lambda system: counting)
    for v in range(1, 7):
        ikusa.roll("1D6>=4", dice=[v])
    for v in (6, 1, 3, 3):
        r = ikusa.roll("1D6>=4", dice=[v])
        assert r is not None and r.success == (v >= 4)
    assert len(calls) == 6


def test_threads_sharing_the_cache_get_the_evaluators_results() -> None:
    """One server process, several tables rolling at once."""
    from concurrent.futures import ThreadPoolExecutor

    def table(seed: int) -> bool:
        mine, ref = RandomSource(seed), RandomSource(seed)
        return all(_shape(ikusa.roll(c, s, dice=mine)) == _shape(_direct(s, c, ref))
                   for _ in range(40) for s, c in COMMANDS[:6])

    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(table, range(8)))
