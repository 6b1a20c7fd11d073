"""Breath limit and overload: S-R27…S-R29, S-G32, S-G33, S-G52; S-T14, S-T15."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikusa.engine.errors import RuleViolation
from ikusa.systems.maai.breath import (
    BreathExtension,
    breath_limit,
    check_breath_spend,
    narrow,
    overload_check,
    overload_excess,
)
from ikusa.systems.maai.catalog import load_catalog
from ikusa.systems.maai.options import MaaiOptions, options_from_dict


def test_s_t14_sokusen_sokketsu() -> None:
    armour = load_catalog().armour_piece("sokusen_sokketsu")
    lim = breath_limit([BreathExtension(armour.name, armour.breath_limit_bonus)])
    assert lim.value == 6
    assert check_breath_spend(6, lim.value, vigor=10) == 0
    assert check_breath_spend(7, lim.value, vigor=10) == 1


def test_s_t14_derived_absolute_cap() -> None:
    lim = breath_limit([BreathExtension("a", 2), BreathExtension("b", 2), BreathExtension("c", 3)])
    assert (lim.raw, lim.value, lim.beyond_official) == (12, 10, True)


def test_s_r28_same_name_does_not_stack() -> None:
    lim = breath_limit([BreathExtension("威名", 1), BreathExtension("威名", 2), BreathExtension("鎧", 1)])
    assert lim.value == 8 and len(lim.ignored) == 1


def test_s_r28_official_cap_option() -> None:
    o = options_from_dict({"breath": {"enforce_official_cap": True}})
    assert breath_limit([BreathExtension("a", 2), BreathExtension("b", 2)], options=o).value == 7
    exc = [BreathExtension("a", 2), BreathExtension("降臨", 2, exceptional=True)]
    assert breath_limit(exc, options=o).value == 9


def test_s_t15_overload_success() -> None:
    assert overload_excess(3 + 3, 5) == 1
    r = overload_check((6, 6), tai=1, excess=1)
    assert r.check.total == 12 and r.success
    assert r.next_limit == 3 and not r.vigor_lost and not r.defenceless
    assert r.crit_effect is False  # doubles carry no 会心 (S-G28)
    assert r.text == "過負荷判定 2D10[6,6]+0=12 ≥ 11 成功 → 次の一呼吸 限界3"


def test_s_t15_overload_failure() -> None:
    r = overload_check((3, 4), tai=1, excess=1)
    assert r.check.total == 7 and not r.success
    assert r.vigor_lost and r.defenceless and r.next_limit is None


def test_overload_needs_excess() -> None:
    with pytest.raises(RuleViolation) as err:
        overload_check((5, 5), tai=0, excess=0)
    assert err.value.rule == "S-R29"


def test_s_g32_narrowing() -> None:
    assert narrow(5) == 3 and narrow(6) == 3 and narrow(2) == 2
    rel = options_from_dict({"overload": {"success_next_limit_mode": "relative", "success_next_limit_value": -2}})
    assert narrow(7, rel) == 5
    assert breath_limit([BreathExtension("鎧", 1)], narrowed=True).value == 3


def test_s_g33_s_g52_spend_checks() -> None:
    with pytest.raises(RuleViolation) as err:
        check_breath_spend(6, 5, vigor=4)
    assert err.value.rule == "S-G33"
    assert check_breath_spend(9, 5, vigor=12) == 4  # soft limit
    strict = options_from_dict({"breath": {"max_over_limit": 3}})
    with pytest.raises(RuleViolation) as err2:
        check_breath_spend(9, 5, vigor=12, options=strict)
    assert err2.value.rule == "S-G52"


@settings(max_examples=100)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c", "d"]), st.integers(0, 4)), max_size=6))
def test_limit_between_base_and_absolute_cap(exts: list[tuple[str, int]]) -> None:
    lim = breath_limit([BreathExtension(n, a) for n, a in exts])
    o = MaaiOptions().breath
    assert o.base_limit <= lim.value <= o.absolute_cap
    assert lim.value == min(10, 5 + sum(max(a for n2, a in exts if n2 == n) for n in {n for n, _ in exts}))


def test_mapping_and_int_narrowed_forms() -> None:
    assert breath_limit({"鎧": 1, "威名": 2}).value == 8
    assert breath_limit({"鎧": 1}, 3).value == 3 and breath_limit({"鎧": 1}, None).value == 6
