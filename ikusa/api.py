"""The typed Python API: the same functions the command line uses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from ikusa.dice.result import RollResult
from ikusa.dice.source import DiceSource, RandomSource, ScriptedSource
from ikusa.systems.registry import canonical_id, load_commands

if TYPE_CHECKING:
    from ikusa.dice.odds import OddsResult


def make_source(dice: DiceSource | Sequence[int] | None = None, seed: int | None = None) -> DiceSource:
    """A dice source from what a caller has: a source, a scripted list, or a seed."""
    if dice is None:
        return RandomSource(seed)
    if isinstance(dice, DiceSource):
        return dice
    return ScriptedSource(list(dice))


def roll(
    command: str,
    system: str | None = None,
    *,
    dice: DiceSource | Sequence[int] | None = None,
    seed: int | None = None,
) -> RollResult | None:
    """Run one BCDice-style command.  ``system`` is ``None``/``"DiceBot"`` for the plain
    dice bot, or ``"maai"``, ``"sengensyou"`` (``"Sengensyou"``), ``"fantasy"``.
    Returns ``None`` for text that is not a dice command.  Raises
    :class:`~ikusa.engine.errors.InputError` / :class:`~ikusa.engine.errors.DiceError`
    for a command over the limits or dice that do not fit."""
    source = make_source(dice, seed)
    sid = canonical_id(system)
    if sid is None:
        from ikusa.dice.bcdice import roll_command

        return roll_command(command, source)
    return load_commands(sid).roll_command(command, source)


def odds(system: str, command: str, *, fate: int = 0) -> OddsResult:
    """Exact odds of a check command: ``ikusa.systems.<id>.odds.odds_command(command, fate)``.

    maai ``2D10+3>=11[CE]`` (``fate`` = interventions assumed, S-R14/S-G27), 千幻抄
    ``SGS[+mod][>=TN]`` / ``DP3+7>=12``, fantasy ``2D6+5>=12``.  The result has
    ``to_json()`` (exact fractions as strings) and ``render()`` (rich tables).  Raises
    :class:`~ikusa.engine.errors.InputError` for a command the system cannot price."""
    import importlib

    from ikusa.engine.errors import InputError
    from ikusa.systems.registry import SYSTEMS

    sid = canonical_id(system)
    if sid is None:
        raise InputError("odds need a system (maai, sengensyou, fantasy)", field="system")
    mod = importlib.import_module(SYSTEMS[sid].module + ".odds")
    return cast("OddsResult", mod.odds_command(command, fate=fate))
