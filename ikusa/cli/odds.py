"""`ikusa odds SYSTEM COMMAND [--fate N] [--json]`: exact odds of a check command.

Rich tables in the terminal; ``--json`` prints exact fractions as strings (``"79/100"``).
Bad input is one clear line on stderr and exit code 2.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ikusa.cli.common import console, user_errors
from ikusa.dice.odds import OddsResult
from ikusa.engine.errors import InputError


def register(app: typer.Typer) -> None:
    """Add `odds` to the app."""
    app.command("odds")(odds_cmd)


def odds_cmd(
    system: Annotated[str, typer.Argument(help="maai, sengensyou (Sengensyou), fantasy or DiceBot; a dice sum "
                                               "alone ('3D6>=12') is the DiceBot.")],
    command: Annotated[str | None, typer.Argument(help="A check: '2D10+3>=11[CE]', 'DP3+7>=12', 'SGS+2', "
                                                       "'2D6+5>=12', '2D6+5>=2D6+3' (fantasy opposed), "
                                                       "'3D6>=12' (DiceBot).")] = None,
    fate: Annotated[int, typer.Option(help="maai: fate interventions assumed on this roll (S-R14, S-G27).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Exact fractions as JSON strings.")] = False,
) -> None:
    """Exact odds of a check: outcome probabilities and tables (enumerated, not sampled).
    Without a system (``ikusa odds "3D6>=12"``) or with ``DiceBot``: the exact distribution of a
    plain dice sum."""
    from ikusa.api import odds
    from ikusa.dice.distribution import sum_odds
    from ikusa.systems.registry import canonical_id

    with user_errors():
        if command is None:
            if _is_system(system):
                raise InputError(f"give a check command after the system, e.g. ikusa odds {system} "
                                 "'2D10+3>=11'", field="command")
            system, command = "DiceBot", system
        if canonical_id(system) is None:
            if fate:
                raise InputError("fate intervention is a maai rule (S-R14); the DiceBot has none", field="--fate")
            result: OddsResult = sum_odds(command)
        else:
            result = odds(system, command, fate=fate)
    if as_json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        console.print(result.render())


def _is_system(word: str) -> bool:
    """Whether ``word`` names a combat system (then a missing command is an error, not a sum)."""
    from ikusa.systems.registry import canonical_id

    try:
        return canonical_id(word) is not None
    except InputError:
        return False
