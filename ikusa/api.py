"""The typed Python API: the same functions the command line uses.

:func:`roll` keeps a bounded, per-process cache of the commands it has run, keyed on
``(system, command)`` (see :mod:`ikusa.dice.roll_cache`): a command is parsed and
evaluated by its system once per distinct dice outcome, after which the same command with
the same dice answers from the cache.  The dice source sees exactly the same requests
either way, so results and the seeded dice streams are byte for byte those of the evaluator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from ikusa.dice.result import RollResult
from ikusa.dice.roll_cache import RollCache
from ikusa.dice.source import DiceSource, RandomSource, ScriptedSource
from ikusa.systems.registry import canonical_id

if TYPE_CHECKING:
    from ikusa.dice.odds import OddsResult
    from ikusa.dice.roll_cache import Evaluator

#: the commands :func:`roll` has run (bounded; :func:`clear_roll_cache` empties it)
ROLL_CACHE = RollCache()


def make_source(dice: DiceSource | Sequence[int] | None = None, seed: int | None = None) -> DiceSource:
    """A dice source from what a caller has: a source, a scripted list, or a seed."""
    if dice is None:
        return RandomSource(seed)
    # duck typing, as the DiceSource protocol does (no runtime Protocol check: it is slow)
    if hasattr(dice, "roll"):
        return cast(DiceSource, dice)
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
    for a command over the limits or dice that do not fit (a list of ``dice`` must be used
    up exactly, as with ``ikusa roll --dice``)."""
    if not isinstance(command, str):
        from ikusa.engine.errors import InputError

        raise InputError(f"the command must be a string, not {type(command).__name__}", field="command")
    if system is not None and not isinstance(system, str):
        from ikusa.engine.errors import InputError

        raise InputError(f"the system must be a string, not {type(system).__name__}", field="system")
    scripted: ScriptedSource | None = None
    if dice is None:
        source: DiceSource = RandomSource(seed)
    elif hasattr(dice, "roll"):
        source = cast(DiceSource, dice)
    else:
        source = scripted = ScriptedSource(list(dice))
    result = ROLL_CACHE.run(system, command, source, _evaluator)
    if scripted is not None and result is not None and scripted.remaining:
        from ikusa.engine.errors import DiceError

        # a list of dice that the command did not use up does not describe this roll
        raise DiceError(f"{scripted.remaining} scripted dice left unused after {scripted.consumed} "
                        "(the command drew fewer dice than scripted)")
    return result


def _evaluator(system: str | None) -> Evaluator:
    """The function that runs a command of ``system`` (an unknown system is an InputError)."""
    sid = canonical_id(system)
    if sid is None:
        from ikusa.dice.bcdice import roll_command

        return roll_command
    from ikusa.systems.registry import load_commands

    return load_commands(sid).roll_command


def clear_roll_cache() -> None:
    """Forget every command :func:`roll` has cached (results never change by it)."""
    ROLL_CACHE.clear()


def odds(system: str, command: str, *, fate: int = 0) -> OddsResult:
    """Exact odds of a check command: ``ikusa.systems.<id>.odds.odds_command(command, fate)``.

    maai ``2D10+3>=11[CE]`` (``fate`` = interventions assumed, S-R14/S-G27), 千幻抄
    ``SGS[+mod][>=TN]`` / ``DP3+7>=12``, fantasy ``2D6+5>=12``.  The result has
    ``to_json()`` (exact fractions as strings) and ``render()`` (rich tables).  Raises
    :class:`~ikusa.engine.errors.InputError` for a command the system cannot price."""
    import importlib

    from ikusa.engine.errors import InputError
    from ikusa.systems.registry import SYSTEMS

    if not isinstance(system, str):
        raise InputError(f"the system must be a string, not {type(system).__name__}", field="system")
    if not isinstance(command, str):
        raise InputError(f"the command must be a string, not {type(command).__name__}", field="command")
    if not isinstance(fate, int) or isinstance(fate, bool):
        raise InputError(f"fate must be a whole number, not {fate!r}", field="fate")
    sid = canonical_id(system)
    if sid is None:
        raise InputError("odds need a system (maai, sengensyou, fantasy)", field="system")
    mod = importlib.import_module(SYSTEMS[sid].module + ".odds")
    return cast("OddsResult", mod.odds_command(command, fate=fate))
