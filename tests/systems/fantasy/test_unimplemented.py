"""#13: ``ikusa rules fantasy unimplemented`` lists only what 002 leaves to the host or the GM,
each with the default the engine ships; a rule id finds its line."""

from __future__ import annotations

import re

from ikusa.systems.fantasy.options import NOT_IMPLEMENTED, FantasyOptions
from ikusa.systems.fantasy.rules_text import describe, topics


def test_unimplemented_topic_lists_every_entry_with_its_default() -> None:
    lines = describe("unimplemented")
    assert "unimplemented" in topics() and describe("未実装") == lines
    for rid, why in NOT_IMPLEMENTED:
        assert re.fullmatch(r"F-[RGH]\d\d", rid), rid
        assert f"  {rid}: {why}" in lines
        # each names what ships: a default, an option, data or the GM's ruling
        assert re.search(r"default|options\.|invented|ruling|data|none is applied|nothing automatic", why), rid


def test_options_named_in_the_list_exist() -> None:
    names = set(FantasyOptions.model_fields)
    for _rid, why in NOT_IMPLEMENTED:
        for opt in re.findall(r"options\.([a-z_]+)", why):
            assert opt in names, opt


def test_a_rule_id_shows_what_is_left_open() -> None:
    text = "\n".join(describe("F-H11"))
    assert "left open by 002" in text and "breathe_fatigue_dice" in text
