"""What ``ikusa odds`` computes, without the command-line framework (issue #12, target 5).

The typer command (:mod:`ikusa.cli.odds`) and the console script's fast path
(:mod:`ikusa.cli.entry`) both call :func:`odds_for`; neither typer nor rich is imported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ikusa.engine.errors import InputError

if TYPE_CHECKING:
    from ikusa.dice.odds import OddsResult


def odds_for(system: str, command: str | None, fate: int) -> OddsResult:
    """The odds of ``command`` in ``system``; a dice sum alone (``command`` None, or a system
    that is none of ours such as ``DiceBot``) is the DiceBot's plain distribution.  Raises
    :class:`InputError` for what cannot be priced."""
    from ikusa.systems.registry import canonical_id

    if command is None:
        if is_system(system):
            raise InputError(f"give a check command after the system, e.g. ikusa odds {system} "
                             "'2D10+3>=11'", field="command")
        system, command = "DiceBot", system
    if canonical_id(system) is None:
        if fate:
            raise InputError("fate intervention is a maai rule (S-R14); the DiceBot has none", field="--fate")
        from ikusa.dice.distribution import sum_odds

        return sum_odds(command)
    import importlib

    from ikusa.systems.registry import SYSTEMS

    # what ikusa.api.odds does for checked strings, without the roll API's imports (RollCache,
    # dice sources: issue #12, target 5)
    module = importlib.import_module(SYSTEMS[canonical_id(system) or ""].module + ".odds")
    return cast("OddsResult", module.odds_command(command, fate=fate))


def is_system(word: str) -> bool:
    """Whether ``word`` names a combat system (then a missing command is an error, not a sum)."""
    from ikusa.systems.registry import canonical_id

    try:
        return canonical_id(word) is not None
    except InputError:
        return False
