"""Issue #2 §2 property tests: any text fed to ``ikusa.roll`` gives a RollResult, None, or
an IkusaError — never another exception, never a hang (hypothesis deadline)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ikusa
from ikusa import IkusaError, RollResult
from ikusa.dice.source import RandomSource, ScriptedSource

FAST = settings(max_examples=150, deadline=1000, suppress_health_check=[HealthCheck.too_slow])

PIECES = [
    "1", "2", "3", "6", "10", "20", "66", "100", "0", "201", "10001",
    "D", "d", "B", "U", "R", "K", "H", "L", "MAX", "MIN", "F", "C", "S", "s",
    "+", "-", "*", "/", "(", ")", "[", "]", "?", "@", ",",
    ">=", "<=", ">", "<", "=", "==", "<>", "!=", "!", "=>",
    " ", "x3 ", "rep2 ", "repeat2 ", "choice[", "choice(", "choice ", "a", "b", "D66", "ＸＹ", "\n",
    "C(", "^", "TY", "TZ",
]  # fmt: skip


def _run(text: str, seed: int) -> RollResult | None:
    try:
        res = ikusa.roll(text, dice=RandomSource(seed))
    except IkusaError:
        return None
    assert res is None or isinstance(res, RollResult)
    if res is not None:
        assert isinstance(res.text, str)
        assert all(1 <= v <= s for v, s in res.dice)
    return res


@FAST
@given(st.text(max_size=40), st.integers(0, 2**32))
def test_random_text_never_crashes(text: str, seed: int) -> None:
    _run(text, seed)


@FAST
@given(st.lists(st.sampled_from(PIECES), max_size=14).map("".join), st.integers(0, 2**32))
def test_grammar_shaped_text_never_crashes(text: str, seed: int) -> None:
    _run(text, seed)


@FAST
@given(
    st.integers(1, 12),
    st.sampled_from([2, 4, 6, 8, 10, 12, 20, 100]),
    st.integers(-20, 20),
    st.sampled_from([">=", ">", "<=", "<", "=", "<>"]),
    st.integers(-5, 60),
    st.data(),
)
def test_sum_dice_total_and_verdict(n: int, sides: int, mod: int, op: str, target: int, data: st.DataObject) -> None:
    """``nDs+m OP t``: n dice of s sides drawn in order, total = dice + m, and the verdict is
    the comparison (BCDice AddDice + result_ndx)."""
    values = data.draw(st.lists(st.integers(1, sides), min_size=n, max_size=n))
    cmd = f"{n}D{sides}{mod:+d}{op}{target}"
    res = ikusa.roll(cmd, dice=ScriptedSource(values))
    assert res is not None
    total = sum(values) + mod
    ok = {">=": total >= target, ">": total > target, "<=": total <= target,
          "<": total < target, "=": total == target, "<>": total != target}[op]  # fmt: skip
    mod_text = f"+{mod}" if mod >= 0 else str(mod)
    assert res.text == f"({n}D{sides}{mod_text}{op}{target}) ＞ {sum(values)}[{','.join(map(str, values))}]{mod_text}" \
        f" ＞ {total} ＞ {'成功' if ok else '失敗'}"
    assert (res.success, res.failure, res.critical, res.fumble) == (ok, not ok, False, False)
    assert res.dice == [(v, sides) for v in values]


@FAST
@given(st.integers(1, 20), st.integers(2, 10), st.integers(2, 10), st.integers(0, 2**32))
def test_upper_dice_sums_are_chains_ending_below_threshold(n: int, sides: int, threshold: int, seed: int) -> None:
    """``nUs[t]``: every die is a chain of rolls ≥ t ended by one roll < t; the total is
    the sum of all dice drawn."""
    try:
        res = ikusa.roll(f"{n}U{sides}[{threshold}]", dice=RandomSource(seed))
    except IkusaError:
        return  # ran over the 200-dice budget
    assert res is not None
    values = [v for v, _ in res.dice]
    assert res.text.endswith(f"/{sum(values)}(最大/合計)")
    assert sum(v < threshold for v in values) == n


@FAST
@given(st.integers(1, 10), st.integers(2, 10), st.integers(0, 2**32))
def test_reroll_dice_count(n: int, threshold: int, seed: int) -> None:
    """``nR10>=t``: every die ≥ t brings one more die; 成功数 counts dice ≥ t."""
    try:
        res = ikusa.roll(f"{n}R10>={threshold}", dice=RandomSource(seed))
    except IkusaError:
        return
    assert res is not None
    values = [v for v, _ in res.dice]
    hits = sum(v >= threshold for v in values)
    assert len(values) == n + hits
    assert res.text.endswith(f" ＞ 成功数{hits}")
