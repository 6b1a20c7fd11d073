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


def test_the_fate_table_is_what_check_with_fate_gives() -> None:
    """flow_base._fate_alternatives works in plain integers (issue #12); over every roll, a
    spread of modifiers (clamped ones too) and TNs, 会心拡張 on and off, every relevance and both
    owners, it lists exactly the interventions Check.with_fate says change the roll's meaning
    (S-R14, S-R16, S-G27, S-G28), in Check.fate_choices' order, with their outcome and total."""
    from ikusa.systems.maai.check import OUTCOME_RANK

    def meaning(c: Check, relevance: str) -> int:
        r = OUTCOME_RANK[c.outcome]
        if relevance == "success":
            return int(c.success)
        if relevance == "no_crit":
            return 3 if r >= 3 else (2 if r == 2 else 1)
        return r

    listed = 0
    for a in range(1, 11):
        for b in range(1, 11):
            for mod in (-12, -1, 0, 3, 12):
                for tn in (*range(2, 26), -100, 100):
                    for ce in (False, True):
                        c = Check((a, b), mod, tn, ce)
                        for relevance in ("all", "no_crit", "success"):
                            base = meaning(c, relevance)
                            for own in (True, False):
                                for every in (False, True):
                                    want = []
                                    for i, d in c.fate_choices():
                                        alt = c.with_fate(i, d)
                                        r = meaning(alt, relevance)
                                        if r != base or every:
                                            want.append((i, d, r > base if own else r < base, alt.outcome.value,
                                                         alt.total))
                                    got = _fate_alternatives((a, b), mod, tn, ce, relevance, own, every)
                                    assert got == tuple(want), (c, relevance, own, every)
                                    listed += len(got)
    assert listed > 100_000
