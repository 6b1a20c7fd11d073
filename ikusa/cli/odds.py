"""`ikusa odds SYSTEM COMMAND [--fate N] [--json]`: exact odds of a check command.

Tables in the terminal (as rich prints them); ``--json`` prints exact fractions as strings (``"79/100"``).
Bad input is one clear line on stderr and exit code 2.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ikusa.cli.common import user_errors
from ikusa.cli.odds_core import odds_for
from ikusa.dice.odds import OddsResult


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
    with user_errors():
        result: OddsResult = odds_for(system, command, fate)
    if as_json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        from ikusa.dice.term_table import print_renderable

        print_renderable(result.render())  # console.print's bytes, without rich where it can
