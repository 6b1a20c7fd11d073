"""QA regressions for the Python API (ikusa.roll / ikusa.odds, dice/source.py): a bot's
wrong input is an IkusaError with a clear message, never an AttributeError or a die
silently read as ``True``."""

from __future__ import annotations

from typing import Any

import pytest

import ikusa
from ikusa.dice.source import ScriptedSource
from ikusa.engine.errors import DiceError, InputError


@pytest.mark.parametrize("dice", [[True, 2], ["a", "b"], [1.0, 2], "12"])
def test_scripted_dice_must_be_whole_numbers(dice: Any) -> None:
    """Was: ``[True, 2]`` rolled '3[True,2]'; ``["a", "b"]`` and ``"12"`` raised TypeError."""
    with pytest.raises(DiceError, match="whole number"):
        ikusa.roll("2D6", dice=dice)


def test_scripted_source_refuses_bool_at_construction() -> None:
    with pytest.raises(DiceError, match="#2 is True"):
        ScriptedSource([3, True])


def test_api_list_dice_must_be_used_up() -> None:
    """Was: ``roll('2D6', dice=[1, 2, 3])`` ignored the third die (the CLI refused it)."""
    with pytest.raises(DiceError, match="1 scripted dice left unused"):
        ikusa.roll("2D6", dice=[1, 2, 3])
    r = ikusa.roll("2D6", dice=[1, 2])
    assert r is not None and r.text == "(2D6) ＞ 3[1,2] ＞ 3"
    assert ikusa.roll("hello", dice=[1]) is None  # a non-command draws nothing: not an error


def test_api_shared_source_may_keep_dice() -> None:
    src = ScriptedSource([1, 2, 3, 4])
    assert ikusa.roll("2D6", dice=src) is not None and src.remaining == 2


@pytest.mark.parametrize(("call", "field"), [
    (lambda: ikusa.roll(None), "command"),  # type: ignore[arg-type]
    (lambda: ikusa.roll(123), "command"),  # type: ignore[arg-type]
    (lambda: ikusa.roll("2D6", system=5), "system"),  # type: ignore[arg-type]
    (lambda: ikusa.odds("maai", None), "command"),  # type: ignore[arg-type]
    (lambda: ikusa.odds(None, "2D6"), "system"),  # type: ignore[arg-type]
    (lambda: ikusa.odds("maai", "2D10+3>=11", fate="1"), "fate"),  # type: ignore[arg-type]
    (lambda: ikusa.odds("maai", "2D10+3>=11", fate=True), "fate"),
])
def test_api_wrong_types_are_input_errors(call: Any, field: str) -> None:
    """Was: AttributeError/TypeError from deep inside the parser."""
    with pytest.raises(InputError) as err:
        call()
    assert err.value.field == field
