"""qa2: 'ikusa rules fantasy F-R04' (a rule id) was an unknown topic, while maai (S-G61) and
sengensyou (G-G12) look rule ids up; a GM reading a refusal 'F-R04 …' could not follow it."""

from __future__ import annotations

import pytest

from ikusa.engine.errors import InputError
from ikusa.systems.fantasy.rules_text import describe


def test_rule_id_lists_the_topics_and_options_citing_it() -> None:
    """F-R04 (surprised: formation only in round 1) → the 不意打ち condition; F-G16 (front
    capacity) → the battlefields and the width_per_fighter option; lower case is forgiven."""
    f_r04 = describe("F-R04")
    assert f_r04[0].startswith("[不意打ち] (surprised)")
    f_g16 = "\n".join(describe("f-g16"))
    assert "[狭い通路] (corridor)" in f_g16
    assert "width_per_fighter = 1.5" in f_g16


def test_rule_id_nobody_cites_is_still_unknown() -> None:
    with pytest.raises(InputError, match="unknown fantasy topic 'F-R99'"):
        describe("F-R99")
