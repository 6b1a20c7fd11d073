"""#13 odds users ask for: fantasy opposed checks (F-H01) and a plain DiceBot sum without a
system, both exact."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pytest
from typer.testing import CliRunner

from ikusa.cli.main import app
from ikusa.dice.distribution import sum_odds
from ikusa.systems.fantasy.opposed import opposed_odds
from ikusa.systems.fantasy.options import FantasyOptions
from ikusa.systems.fantasy.resolution import hit_probability

runner = CliRunner()


def _brute(a: int, b: int, ties_to_actor: bool) -> Fraction:
    """Independent count over all 1,296 pairs of 2D6 rolls, F-G04 first."""
    win = 0
    rolls = list(product(range(1, 7), repeat=2))
    for x in rolls:
        for y in rolls:
            xs, ys = x == (6, 6), y == (6, 6)
            xf, yf = x == (1, 1), y == (1, 1)
            if xf:
                continue
            if xs:
                win += not ys
            elif yf:
                win += 1
            elif not ys:
                ta, tb = sum(x) + a, sum(y) + b
                win += ta > tb or (ties_to_actor and ta == tb)
    return Fraction(win, 36 * 36)


@pytest.mark.parametrize(("a", "b"), [(5, 3), (0, 0), (2, 7), (-1, 4)])
def test_opposed_fantasy_is_exact(a: int, b: int) -> None:
    assert opposed_odds(f"2D6{a:+d}>=2D6{b:+d}").win == _brute(a, b, True)
    strict = opposed_odds(f"2D6{a:+d}>2D6{b:+d}").win
    assert strict == _brute(a, b, False)
    # the combat's hit roll against evasion (ties to the defender) is the same number (F-H04)
    assert abs(float(strict) - hit_probability(a - b, FantasyOptions())) < 1e-12


def test_cli_opposed_fantasy_json() -> None:
    r = runner.invoke(app, ["odds", "fantasy", "2D6+5>=2D6+3", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["kind"] == "opposed" and out["success"] == "487/648" and out["tie"] == "119/1296"


def test_cli_dicebot_sum_without_a_system() -> None:
    """Was: 'Missing argument'. 3D6 ≥ 12: totals 12…18 come up 25+21+15+10+6+3+1 = 81 of 216 ways."""
    r = runner.invoke(app, ["odds", "3D6>=12", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["success"] == "3/8" and out["min"] == 3 and out["max"] == 18
    assert out["distribution"]["10"] == "1/8" and out["mean"] == "21/2"
    r2 = runner.invoke(app, ["odds", "DiceBot", "3D6>=12"])
    assert r2.exit_code == 0 and "37.5% (3/8)" in r2.stdout


def test_dice_sum_distribution_sums_to_one_and_handles_minus() -> None:
    d = sum_odds("2D6-1D4+3")
    assert (d.low, d.high) == (1, 14)
    assert sum(d.p_equal(t) for t in range(d.low, d.high + 1)) == 1
    assert d.mean == Fraction(7) - Fraction(5, 2) + 3


@pytest.mark.parametrize(("args", "msg"), [
    (["odds", "300D6"], "too many dice"),
    (["odds", "2D6+xyz"], "not a dice sum"),
    (["odds", "maai"], "give a check command"),
    (["odds", "3D6>=12", "--fate", "1"], "maai rule"),
])
def test_bad_odds_input_is_one_line(args: list[str], msg: str) -> None:
    r = runner.invoke(app, args)
    assert r.exit_code == 2 and msg in r.stderr and r.stderr.count("\n") == 1
