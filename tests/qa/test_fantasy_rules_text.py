"""QA regression (systems/fantasy/rules_text.py): `ikusa rules fantasy TOPIC` forgives a
person's typing the way `ikusa rules maai` does (case, spaces, full-width)."""

from __future__ import annotations

import pytest

from ikusa.engine.errors import InputError
from ikusa.systems.fantasy.rules_text import describe


@pytest.mark.parametrize("typed", ["Corridor", " corridor ", "ＣＯＲＲＩＤＯＲ", "狭い通路"])
def test_battlefield_topic_forgiving(typed: str) -> None:
    """Was: 'Corridor' and ' 麻痺 ' were unknown topics (F-R08 battlefield)."""
    assert describe(typed)[0].startswith("[狭い通路] (corridor)")


def test_condition_topic_with_spaces() -> None:
    assert describe(" 麻痺 ")[0].startswith("[麻痺] (paralysis)")


def test_unknown_topic_still_refused() -> None:
    with pytest.raises(InputError, match="unknown fantasy topic"):
        describe("zzz")
