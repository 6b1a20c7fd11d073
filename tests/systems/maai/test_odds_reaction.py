"""maai attack odds against the defender's reaction (#13 "odds users ask for"): ``R±N`` after a
check gives P(the hit lands) when the defender rolls 2D10 ± N against the hit total (S-R41,
S-R53), exactly, labelled; without it the output is unchanged."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ikusa.engine.errors import InputError
from ikusa.systems.maai.odds import odds_command, versus_reaction


def plain_count(mod: int, tn: int, rmod: int) -> Fraction:
    """The same probability by plain sums (no doubles rule changes a success here)."""
    n = sum(1 for a in range(1, 11) for b in range(1, 11) if a + b + mod >= tn
            for c in range(1, 11) for d in range(1, 11) if c + d + rmod < a + b + mod)
    return Fraction(n, 10_000)


@pytest.mark.parametrize(("mod", "tn", "rmod"), [(3, 11, 2), (4, 14, 5), (0, 9, 0)])
def test_hit_against_a_reaction_is_exact(mod: int, tn: int, rmod: int) -> None:
    assert versus_reaction(mod, tn, rmod)[0] == plain_count(mod, tn, rmod)


def test_reaction_suffix_is_labelled_and_optional() -> None:
    plain = odds_command("2D10+3>=11")
    assert "vs_reaction" not in plain.to_json()
    j = odds_command("2D10+3>=11R+2").to_json()
    assert j["success"] == plain.to_json()["success"] == "79/100"  # the check itself is unchanged
    assert j["vs_reaction"] == {"modifier": 2, "hit": "5069/10000", "critical": "503/10000",
                                "label": "防御 2D10+2 ≥ 命中値 に対して (S-R53)"}
    with pytest.raises(InputError, match=r"R±N"):
        odds_command("2D10+3>=11R2")
