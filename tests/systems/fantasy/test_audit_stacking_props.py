"""F-G11 stacking invariants (property test): after senses and stacking, at most one condition
per group (vision: 暗闇/視界不良 the worse; water: 水中 over 水場), each condition once with the
longest duration among its un-negated sources, and a sense only cancels the causes it covers
(F-R13/F-R14)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ikusa.systems.fantasy.conditions import CAUSES, Cond, builtin_conditions, effective

TABLE = builtin_conditions()
IDS = sorted(TABLE)
conds = st.lists(st.builds(Cond, st.sampled_from(IDS), st.one_of(st.none(), st.integers(1, 5)),
                           st.sampled_from(CAUSES)), max_size=8)
senses = st.lists(st.sampled_from(["darkvision", "lowlight"]), max_size=2)


def _negated(c: Cond, have: list[str]) -> bool:
    return any(n.sense in have and c.cause in n.causes for n in TABLE[c.id].negated_by)


@settings(max_examples=80, deadline=None)
@given(conds, senses)
def test_f_g11_stacking_invariants(cs: list[Cond], have: list[str]) -> None:
    out = effective(cs, have, TABLE)
    ids = [d.id for _c, d in out]
    assert len(ids) == len(set(ids))  # the same condition twice collapses
    groups = [d.group for _c, d in out if d.group is not None]
    assert len(groups) == len(set(groups))  # one per group
    live = [c for c in cs if not _negated(c, have)]
    assert {c.id for c in live} >= set(ids)  # nothing negated survives, nothing invented
    for c, d in out:
        same = [x.rounds for x in live if x.id == d.id]
        assert c.rounds is None if None in same else c.rounds == max(r for r in same if r is not None)
    if "submerged" in {c.id for c in live}:
        assert "wading" not in ids and "submerged" in ids
    if "darkness" in {c.id for c in live}:
        assert "poor_visibility" not in ids and "darkness" in ids
