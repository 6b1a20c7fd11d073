"""The cheap test that skips a fate question (flow_base.fate_cannot_matter, issue #12) never
skips a roll where one fate use could change what it means (S-R14, S-G27, S-G28): over every
roll, a spread of modifiers and TNs, 会心拡張 on and off, every relevance and both owners, a
skipped roll has no intervention that changes its rank, and the test does skip most rolls."""

from __future__ import annotations

from ikusa.systems.maai.check import Check
from ikusa.systems.maai.flow_base import _fate_alternatives, fate_cannot_matter


def test_a_skipped_roll_has_no_intervention_that_changes_its_meaning() -> None:
    skipped = kept = 0
    for a in range(1, 11):
        for b in range(1, 11):
            for mod in (-12, 0, 3, 12):
                for tn in (*range(2, 26), -100, 100):
                    for ce in (False, True):
                        c = Check((a, b), mod, tn, ce)
                        if not fate_cannot_matter(c):
                            kept += 1
                            continue
                        skipped += 1
                        for relevance in ("all", "no_crit", "success"):
                            for own in (True, False):
                                assert _fate_alternatives((a, b), mod, tn, ce, relevance, own) == (), (c, relevance)
    assert skipped > kept  # most rolls need no table lookup


def test_near_the_tn_or_near_doubles_the_offer_is_looked_up() -> None:
    assert not fate_cannot_matter(Check((6, 2), 0, 9))  # 8 vs 9: one up succeeds
    assert not fate_cannot_matter(Check((6, 3), 0, 9))  # 9 vs 9: one down fails
    assert not fate_cannot_matter(Check((6, 4), 0, 5))  # 2 apart: one step from doubles
    assert fate_cannot_matter(Check((7, 2), 0, 5)) and fate_cannot_matter(Check((7, 2), 0, 12))
