"""`ikusa demo [--seed N]`: a short narrated tour of the three systems' checks and odds.

Every die comes from one seeded :class:`RandomSource` (default seed fixed), so the output is
the same on every run; the worked examples use the rules' own dice (scripted).
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.panel import Panel
from rich.rule import Rule

from ikusa.cli.common import console, user_errors
from ikusa.dice.result import RollResult
from ikusa.dice.source import DiceSource, RandomSource, ScriptedSource

DEFAULT_SEED = 2050


def register(app: typer.Typer) -> None:
    """Add `demo` to the app."""
    app.command("demo")(demo_cmd)


def demo_cmd(
    seed: Annotated[int, typer.Option(help="Seed for every die: same seed, same demo.")] = DEFAULT_SEED,
) -> None:
    """A narrated demo: checks of maai, 千幻抄 and fantasy, fate intervention, exact odds."""
    with user_errors():
        run_demo(seed)


def _roll(system: str, command: str, dice: DiceSource, note: str = "") -> RollResult:
    from ikusa.api import roll

    result = roll(command, system, dice=dice)
    if result is None:  # pragma: no cover - every demo command is a system command
        raise AssertionError(f"demo command {command!r} is not a {system} command")
    _show(command, result, note)
    return result


def _show(command: str, result: RollResult, note: str = "") -> None:
    flags = [name for name in ("success", "failure", "critical", "fumble") if getattr(result, name)]
    tail = f"  [dim]{escape(note)}[/]" if note else ""
    console.print(f"  [bold]{escape(command)}[/]  →  {escape(result.text)}  [dim]{' '.join(flags)}[/]{tail}",
                  soft_wrap=True)


def _fate_tail(text: str) -> str:
    """The part of a maai result text after the check itself: the fate step."""
    return text.split(" ＞ ", 4)[-1]


def run_demo(seed: int) -> None:
    from ikusa.api import odds
    from ikusa.systems.maai.commands import apply_fate

    dice = RandomSource(seed)
    console.print(Panel.fit(
        "[bold]ikusa (戦)[/] — rules engine, BCDice-style dice bot and exact odds\n"
        f"demo with seed {seed}: same seed, same dice, same output",
        border_style="cyan",
    ))

    console.print(Rule("[bold]maai[/] (000+001): 2D10 + 修正 ≥ 目標値, ゾロ目で会心/失着"))
    console.print("[dim]The rules' worked examples, with their own dice (S-T05, S-T06, S-T09):[/]")
    _roll("maai", "2D10+2>=11", ScriptedSource([7, 7]), "S-T05 勇+2, [7,7] vs TN 11 → 会心")
    _roll("maai", "2D10+2>=17", ScriptedSource([7, 7]), "S-T06 the same roll vs 防備 17 → 失着")
    before = _roll("maai", "2D10>=9", ScriptedSource([4, 5]), "S-T09 [4,5] succeeds, no doubles")
    after = apply_fate(before, 0, +1)
    console.print(f"    fate +1 on the 4 (S-R14) → {escape(_fate_tail(after.text))}"
                  f"  [dim]{'critical' if after.critical else ''}[/]", soft_wrap=True)
    console.print(f"[dim]Seeded rolls (seed {seed}); 'FB' = use fate if it improves the outcome (S-G27):[/]")
    _roll("maai", "2D10+3>=11", dice, "源三郎 横斬り vs 軽甲足軽 防備11")
    _roll("maai", "2D10+3+3+2+2+2>=13", dice, "S-R07: +12 is clamped to +10")
    _roll("maai", "2D10-1>=9CE", dice, "CE = 会心拡張 (S-R12)")
    _roll("maai", "2D10+1>=13FB", dice, "a hard check; FB spends fate only if it helps")
    console.print(odds("maai", "2D10+3>=11", fate=1).render())

    console.print(Rule("[bold]千幻抄[/] (003, BCDice Sengensyou): SGS and the dice-pool (DP) check"))
    _roll("sengensyou", "SGS+4+6", dice, "BCDice SGS: 3D6+mod, 16+ クリティカル, 5- ファンブル")
    _roll("sengensyou", "SSGS+2", dice, "S = secret; as BCDice, SGS reads no target (DP does)")
    _roll("sengensyou", "DP3+7>=12", dice, "spend 3 DP: 判定値 7 + 3D6 (G-R01)")
    _roll("sengensyou", "DPF3+7>=12", dice, "GM fixed mode: 3 × 3.5 → 10 (G-R29, G-G30 floor)")
    console.print(odds("sengensyou", "DP3+7>=12").render())

    console.print(Rule("[bold]fantasy[/] (002 host): 2D6 + 判定値 ≥ 目標値"))
    _roll("fantasy", "2D6+5>=12", dice, "直感ST vs TN 12 (F-T07)")
    _roll("fantasy", "2D6+5-2>=12", dice, "the same while 伏せ: 直感ST −2 (F-R12)")
    _roll("fantasy", "2D6+4>=20", ScriptedSource([6, 6]), "[6,6] is 自動成功 whatever the TN (F-G04 default)")
    console.print(odds("fantasy", "2D6+5>=12").render())
    console.print("[dim]More: ikusa odds maai '2D10+3>=11' --fate 1 --json; ikusa odds sengensyou 'SGS+2>=12'[/]")
