"""The ``ikusa`` command: dice bot, odds, fights, interactive play, rules lookup, demo."""

from __future__ import annotations

import typer

from ikusa.cli import demo, fight, odds, roll, rules, serve, sim

app = typer.Typer(
    name="ikusa",
    help="ikusa (戦): rules engine, BCDice-compatible dice bot, GM combat tracker and balance lab "
    "for maai (000+001), sengensyou/千幻抄 (003) and fantasy (002).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)



@app.callback()
def main() -> None:
    """ikusa (戦): dice bot, odds, fights and play for maai, sengensyou and fantasy."""


for module in (roll, odds, fight, sim, rules, demo, serve):
    module.register(app)
__import__("ikusa.cli.lab").cli.lab.register(app)  # `ikusa lab` (issue #11)


if __name__ == "__main__":  # pragma: no cover
    app()
