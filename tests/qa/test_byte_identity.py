"""Byte-identity guard (issue #12): speed work must not change what the engines and the dice
bot print.  Fixtures under ``tests/data/identity/`` were recorded from the code before the
speed work; every case here recomputes its output and compares it with the fixture:

* ``fights.json``: sha256 of the seeded ``ikusa fight FILE --seed S --ai A --json`` output of
  every example (both AIs, a few seeds), with its event count and winner for a readable diff;
* ``bench.json``: sha256 of every decision and event of the state-driven battles the bench
  scripts run (initial state, ``state.apply(policy.choose(...), dice)``), and of the
  ``ikusa sim --json`` report of a few small runs;
* ``roll.json``: the ``ikusa roll --json`` line of a representative command set (seeded);
* ``odds.json``: the ``ikusa odds --json`` output of a representative command set.

A rule that deliberately changes an output re-records the fixture it touches and says so in
its commit: ``python -m tests.qa.test_byte_identity --record [fights|bench|roll|odds]``.
Each fixture file holds one case per line, so branches touching different cases merge.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "data" / "identity"
EXAMPLES = sorted((ROOT / "examples").glob("*/*.yaml"))
AIS = ("random", "greedy")
FIGHT_SEEDS = (1, 2)
BENCH_SEEDS = (11, 12)
SIM_CASES = (("maai/duel.yaml", "greedy", 12), ("sengensyou/spellcard_duel.yaml", "random", 6),
             ("fantasy/water_fight.yaml", "greedy", 6))

#: (system, command) for ``ikusa roll --json``, each rolled with seeds 1…3
ROLL_COMMANDS: tuple[tuple[str | None, str], ...] = (
    (None, "2D6>=7"), (None, "2D6"), (None, "1D100<=50"), (None, "2D6+1D4-2>=8"), (None, "5B6>=4"),
    (None, "3U6[6]"), (None, "x3 5B6>=4"), (None, "3R6>=5"), (None, "C(1+2*3)"), (None, "D66"),
    (None, "S2D6"), (None, "2d6>=7"), (None, "hello"),
    ("maai", "2D10+3>=11"), ("maai", "2D10+3>=11CE"), ("maai", "2D10+3>=11FB"), ("maai", "2D10-1>=9CE"),
    ("maai", "2D10+3+3+2+2+2>=13"), ("maai", "2D10+1>=13F1+"), ("maai", "2D10>=10"), ("maai", "2D6>=7"),
    ("sengensyou", "SGS"), ("sengensyou", "SGS+2"), ("sengensyou", "SGS+2>=12"), ("sengensyou", "DP3+7>=12"),
    ("sengensyou", "DPF3+7"), ("sengensyou", "2D6>=7"),
    ("fantasy", "2D6+5>=12"), ("fantasy", "2D6+5-2>=12"), ("fantasy", "2D6+4>=20"), ("fantasy", "2D6>=7"),
)
ROLL_SEEDS = (1, 2, 3)

#: (system, command, fate) for ``ikusa odds --json``
ODDS_COMMANDS: tuple[tuple[str, str, int], ...] = (
    ("maai", "2D10+3>=11", 0), ("maai", "2D10+3>=11", 1), ("maai", "2D10+3>=11", 2),
    ("maai", "2D10+3>=11CE", 1), ("maai", "2D10-3>=19", 0), ("maai", "2D10+5>=5", 1), ("maai", "2D10>=10", 0),
    ("sengensyou", "SGS", 0), ("sengensyou", "SGS+2>=12", 0), ("sengensyou", "DP3+7>=12", 0),
    ("sengensyou", "DP6+5>=20", 0),
    ("fantasy", "2D6+5>=12", 0), ("fantasy", "2D6+4>=20", 0), ("fantasy", "2D6-1>=7", 0),
)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _rel(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


# --- the outputs ------------------------------------------------------------------------


def fight_case(name: str, ai: str, seed: int) -> dict[str, Any]:
    """What ``ikusa fight examples/NAME --seed SEED --ai AI --json`` prints (its hash)."""
    from ikusa.cli.fight import fight_json
    from ikusa.engine.runner import fight

    data = fight_json(fight(ROOT / "examples" / name, seed=seed, ai=ai))
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    final = data["final"]
    winner = final.get("winner") if isinstance(final, dict) else None
    events = data["events"]
    return {"sha256": _sha(text), "events": len(events) if isinstance(events, list) else -1, "winner": winner}


def bench_case(name: str, ai: str) -> dict[str, Any]:
    """Every decision taken and every event of the bench scripts' state-driven battles."""
    from ikusa.dice.source import RandomSource
    from ikusa.engine.runner import MAX_DECISIONS, load_encounter, policy_for

    loaded = load_encounter(ROOT / "examples" / name)
    digest = hashlib.sha256()
    decisions = events = 0
    for seed in BENCH_SEEDS:
        policy = policy_for(loaded.module, ai)
        state = loaded.module.new_state(loaded.encounter)
        rng = random.Random(seed)
        dice = RandomSource(seed)
        n = 0
        while (decision := state.pending()) is not None and n < MAX_DECISIONS:
            action = policy.choose(state, decision, rng)
            digest.update(json.dumps([decision.actor, action], ensure_ascii=False, default=str).encode())
            for event in state.apply(action, dice):
                digest.update(json.dumps(event.to_json(), ensure_ascii=False, sort_keys=True).encode())
                events += 1
            n += 1
        decisions += n
        digest.update(json.dumps(state.summary(), ensure_ascii=False, sort_keys=True).encode())
    return {"sha256": digest.hexdigest(), "decisions": decisions, "events": events}


def sim_case(name: str, ai: str, battles: int) -> str:
    """What ``ikusa sim examples/NAME -n BATTLES --ai AI --json`` prints."""
    from ikusa.lab.simulate import prepare, simulate

    report = simulate(prepare(ROOT / "examples" / name, []), battles, seed=0, ai=ai)
    return json.dumps(report.to_json(), ensure_ascii=False)


def roll_case(system: str | None, command: str, seed: int) -> str:
    """What ``ikusa roll [--system S] --seed SEED --json COMMAND`` prints."""
    from ikusa.cli.roll import EMPTY, roll_one
    from ikusa.dice.source import RandomSource

    result = roll_one(command, system, RandomSource(seed))
    return json.dumps(result.to_json() if result is not None else EMPTY, ensure_ascii=False, separators=(",", ":"))


def odds_case(system: str, command: str, fate: int) -> str:
    """What ``ikusa odds SYSTEM COMMAND --fate FATE --json`` prints."""
    from ikusa.api import odds

    return json.dumps(odds(system, command, fate=fate).to_json(), ensure_ascii=False)


# --- the cases (key -> how to compute) ----------------------------------------------------


def fight_cases() -> dict[str, Callable[[], object]]:
    return {f"{_rel(p)} {ai} seed={s}": (lambda p=p, ai=ai, s=s: fight_case(_rel(p), ai, s))
            for p in EXAMPLES for ai in AIS for s in FIGHT_SEEDS}


def bench_cases() -> dict[str, Callable[[], object]]:
    cases: dict[str, Callable[[], object]] = {
        f"state {_rel(p)} {ai}": (lambda p=p, ai=ai: bench_case(_rel(p), ai)) for p in EXAMPLES for ai in AIS}
    for name, ai, n in SIM_CASES:
        cases[f"sim {name} {ai} n={n}"] = lambda name=name, ai=ai, n=n: sim_case(name, ai, n)
    return cases


def roll_cases() -> dict[str, Callable[[], object]]:
    return {f"{system or 'DiceBot'} {command} seed={s}": (lambda sy=system, c=command, s=s: roll_case(sy, c, s))
            for system, command in ROLL_COMMANDS for s in ROLL_SEEDS}


def odds_cases() -> dict[str, Callable[[], object]]:
    return {f"{system} {command} fate={fate}": (lambda sy=system, c=command, f=fate: odds_case(sy, c, f))
            for system, command, fate in ODDS_COMMANDS}


KINDS: dict[str, Callable[[], dict[str, Callable[[], object]]]] = {
    "fights": fight_cases, "bench": bench_cases, "roll": roll_cases, "odds": odds_cases}


def load_fixture(kind: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((FIXTURES / f"{kind}.json").read_text("utf-8"))
    return data


def record(kinds: list[str]) -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for kind in kinds:
        values = {key: make() for key, make in KINDS[kind]().items()}
        lines = [f"{json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False, sort_keys=True)}"
                 for k, v in sorted(values.items())]
        (FIXTURES / f"{kind}.json").write_text("{\n" + ",\n".join(lines) + "\n}\n", "utf-8")
        print(f"recorded {len(values)} {kind} cases in {FIXTURES / (kind + '.json')}")


# --- the tests ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_case_has_a_fixture(kind: str) -> None:
    """The case list and the recorded fixture agree (a new example needs a recorded fixture)."""
    assert sorted(KINDS[kind]()) == sorted(load_fixture(kind))


@pytest.mark.parametrize("path", EXAMPLES, ids=_rel)
def test_fight_json_is_byte_identical(path: Path) -> None:
    expected = load_fixture("fights")
    cases = {k: make for k, make in fight_cases().items() if k.startswith(_rel(path) + " ")}
    assert cases
    got = {k: make() for k, make in cases.items()}
    assert got == {k: expected[k] for k in cases}


@pytest.mark.parametrize("path", EXAMPLES, ids=_rel)
def test_bench_battles_take_the_same_decisions_and_events(path: Path) -> None:
    expected = load_fixture("bench")
    cases = {k: make for k, make in bench_cases().items() if k.startswith(f"state {_rel(path)} ")}
    got = {k: make() for k, make in cases.items()}
    assert got == {k: expected[k] for k in cases}


def test_sim_reports_are_byte_identical() -> None:
    expected = load_fixture("bench")
    cases = {k: make for k, make in bench_cases().items() if k.startswith("sim ")}
    assert {k: make() for k, make in cases.items()} == {k: expected[k] for k in cases}


def test_roll_json_is_byte_identical() -> None:
    expected = load_fixture("roll")
    got = {k: make() for k, make in roll_cases().items()}
    assert got == expected
    # the fixture is not vacuous: real rolls, successes and failures, and one non-command
    texts = [json.loads(str(v)) for v in expected.values()]
    assert sum(1 for t in texts if t["success"]) > 10 and sum(1 for t in texts if t["failure"]) > 10
    assert any(t["text"] == "" for t in texts)


def test_odds_json_is_byte_identical() -> None:
    expected = load_fixture("odds")
    assert {k: make() for k, make in odds_cases().items()} == expected


def test_cli_prints_what_the_fixture_holds() -> None:
    """The recorded outputs are what the command line prints (the fixtures are computed
    through the same functions the commands call)."""
    from typer.testing import CliRunner

    from ikusa.cli.main import app

    runner = CliRunner()
    res = runner.invoke(app, ["roll", "--seed", "2", "--json", "2D6>=7"])
    assert res.exit_code == 0 and res.stdout == roll_case(None, "2D6>=7", 2) + "\n"
    res = runner.invoke(app, ["odds", "maai", "2D10+3>=11", "--fate", "1", "--json"])
    assert res.exit_code == 0 and res.stdout == odds_case("maai", "2D10+3>=11", 1) + "\n"
    res = runner.invoke(app, ["fight", str(ROOT / "examples" / "maai" / "duel.yaml"), "--seed", "2",
                              "--ai", "greedy", "--json"])
    assert res.exit_code == 0
    assert _sha(res.stdout) == fight_case("maai/duel.yaml", "greedy", 2)["sha256"]


if __name__ == "__main__":  # pragma: no cover - the recorder
    args = [a for a in sys.argv[1:] if a != "--record"]
    if "--record" not in sys.argv[1:]:
        sys.exit("usage: python -m tests.qa.test_byte_identity --record [fights|bench|roll|odds ...]")
    record(args or sorted(KINDS))
