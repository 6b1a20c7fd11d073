"""Exact odds of 千幻抄 checks (003): the dice-pool check and BCDice's ``SGS``.

* ``DP<n>[+判定値][cmp TN]``: 達成値 = 判定値 + nD6 (G-R01), by convolution; ``DPF<n>`` is the
  GM's fixed value (G-R29/G-G30), a certainty.
* ``SGS[+mod][cmp TN]``: 3D6 + mod; P(クリティカル) = P(natural ≥ 16) = 10/216, P(ファンブル)
  = P(natural ≤ 5) = 10/216.

Besides the command's own distribution, the table gives P(達成値 ≥ X) for 1…6 dice at the
same 判定値 — "how many DP do I need?" (G.A "Checks and DP").

>>> o = odds_command("DP3+7>=12")
>>> str(o.success), str(o.at_least(18))
('53/54', '1/2')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from ikusa.dice.odds import COMPARISONS, at_least, frac_text, mean, percent_text, probability, shifted, sum_distribution
from ikusa.dice.term_table import Group, Table, Text
from ikusa.engine.errors import InputError
from ikusa.systems.command_syntax import eval_int, normalize_cmp, split_command
from ikusa.systems.sengensyou.check import (
    SGS_CRITICAL_AT,
    SGS_DICE,
    SGS_FUMBLE_AT,
    check_dice_count,
    fixed_dice_value,
)
from ikusa.systems.sengensyou.commands import DP_RE, SGS_RE

if TYPE_CHECKING:
    from rich.console import RenderableType

TABLE_DICE: tuple[int, ...] = tuple(range(1, 7))


@mypyc_attr(allow_interpreted_subclasses=True)  # copied via cls.__new__ (deepcopy, pickle): see setup.py
@dataclass(frozen=True, slots=True)
class SengensyouOdds:
    """The exact distribution of one check's 達成値 and what follows from it."""

    command: str
    check: str  # "SGS" or "DP"
    dice_count: int
    fixed: bool
    judgement_value: int
    cmp: str | None
    target: int | None
    distribution: tuple[tuple[int, Fraction], ...]
    critical: Fraction | None = None
    fumble: Fraction | None = None

    @property
    def dist(self) -> dict[int, Fraction]:
        return dict(self.distribution)

    @property
    def success(self) -> Fraction | None:
        """P(達成値 cmp TN) when the command has a target."""
        if self.cmp is None or self.target is None:
            return None
        return probability(self.dist, self.cmp, self.target)

    def at_least(self, x: int) -> Fraction:
        return at_least(self.dist, x)

    @property
    def table_targets(self) -> list[int]:
        centre = self.target if self.target is not None else self.judgement_value + (7 * max(self.dice_count, 1)) // 2
        return list(range(centre - 6, centre + 7, 2))

    def table(self) -> list[tuple[int, list[Fraction]]]:
        """P(判定値 + nD6 ≥ X) for n = 1…6 over :attr:`table_targets`."""
        xs = self.table_targets
        out = []
        for n in TABLE_DICE:
            d = shifted(sum_distribution(n, 6), self.judgement_value)
            out.append((n, [at_least(d, x) for x in xs]))
        return out

    def to_json(self) -> dict[str, Any]:
        d = self.dist
        out: dict[str, Any] = {
            "system": "sengensyou",
            "command": self.command,
            "check": self.check,
            "dice": self.dice_count,
            "fixed": self.fixed,
            "judgement_value": self.judgement_value,
            "cmp": self.cmp,
            "target": self.target,
            "mean": frac_text(mean(d)),
            "distribution": {str(k): frac_text(p) for k, p in sorted(d.items())},
            "at_least": {str(k): frac_text(at_least(d, k)) for k in sorted(d)},
            "table": {
                "judgement_value": self.judgement_value,
                "targets": self.table_targets,
                "rows": [{"dice": n, "at_least": [frac_text(p) for p in row]} for n, row in self.table()],
            },
        }
        if self.success is not None:
            out["success"] = frac_text(self.success)
            out["failure"] = frac_text(1 - self.success)
        if self.critical is not None and self.fumble is not None:
            out["critical"] = frac_text(self.critical)
            out["fumble"] = frac_text(self.fumble)
        return out

    def render(self) -> Group:
        d = self.dist
        head = Text.assemble(("千幻抄 ", "bold"), (self.command, "bold cyan"),
                             f"  平均 {float(mean(d)):.2f}")
        lines: list[Text | Table] = [head]
        summary = []
        if self.success is not None:
            summary.append(f"成功 {percent_text(self.success)} ({frac_text(self.success)})")
        if self.critical is not None and self.fumble is not None:
            summary.append(f"クリティカル {percent_text(self.critical)} ({frac_text(self.critical)})")
            summary.append(f"ファンブル {percent_text(self.fumble)} ({frac_text(self.fumble)})")
        if summary:
            lines.append(Text("  ".join(summary)))
        dist = Table(title="達成値の分布 (正確値)", title_justify="left")
        dist.add_column("達成値", justify="right")
        dist.add_column("P(=)", justify="right")
        dist.add_column("P(≥)", justify="right")
        dist.add_column("")
        top = max(d.values())
        for k in sorted(d):
            bar = "█" * max(1, int(20 * d[k] / top)) if d[k] else ""
            hit = self.cmp is not None and self.target is not None and COMPARISONS[self.cmp](k, self.target)
            dist.add_row(Text(str(k), style="bold green" if hit else ""), percent_text(d[k]),
                         percent_text(at_least(d, k)), Text(bar, style="green" if hit else "dim"))
        lines.append(dist)
        if self.check != "DP":
            return Group(*lines)
        grid = Table(title=f"P(達成値 ≥ X): 判定値 {self.judgement_value} + nD6 (n = 使うDP)", title_justify="left")
        grid.add_column("DP", justify="right")
        for x in self.table_targets:
            grid.add_column(f"≥{x}", justify="right")
        for n, row in self.table():
            style = "bold" if n == self.dice_count and self.check == "DP" and not self.fixed else ""
            grid.add_row(Text(str(n), style=style), *[percent_text(p, 1) for p in row])
        lines.append(grid)
        return Group(*lines)

    def __rich__(self) -> RenderableType:
        return self.render()


def odds_command(command: str, fate: int = 0) -> SengensyouOdds:
    """Exact odds of ``SGS…`` or ``DP…`` (see the module docstring)."""
    if fate:
        raise InputError("fate intervention is a maai rule (S-R14); 千幻抄 has none", field="fate")
    word, _comment = split_command(command)
    for w in (word, word[1:] if word.startswith("S") else None):
        if w is None:
            continue
        m = SGS_RE.match(w)
        if m:
            return _sgs_odds(w, m)
        m = DP_RE.match(w)
        if m:
            return _dp_odds(w, m)
    raise InputError(
        f"not a 千幻抄 check: {command!r}; expected SGS[+mod][>=TN] or DP<n>[+判定値][>=TN]",
        field="command",
    )


def _target(m: re.Match[str]) -> tuple[str | None, int | None]:
    if m.group("op") is None:
        return None, None
    return normalize_cmp(m.group("op")), eval_int(m.group("tn"))


def _sgs_odds(word: str, m: re.Match[str]) -> SengensyouOdds:
    mod = eval_int(m.group("mod"))
    op, target = _target(m)
    nat = sum_distribution(SGS_DICE, 6)
    return SengensyouOdds(
        command=word, check="SGS", dice_count=SGS_DICE, fixed=False, judgement_value=mod, cmp=op, target=target,
        distribution=tuple(sorted(shifted(nat, mod).items())),
        critical=at_least(nat, SGS_CRITICAL_AT),
        fumble=1 - at_least(nat, SGS_FUMBLE_AT + 1),
    )


def _dp_odds(word: str, m: re.Match[str]) -> SengensyouOdds:
    n = int(m.group("n"))
    fixed = m.group("fixed") is not None
    judgement = eval_int(m.group("mod"))
    op, target = _target(m)
    check_dice_count(n, combat=False)
    if fixed:
        dist = {judgement + fixed_dice_value(n): Fraction(1)}
    else:
        dist = shifted(sum_distribution(n, 6), judgement)
    return SengensyouOdds(
        command=word, check="DP", dice_count=n, fixed=fixed, judgement_value=judgement, cmp=op, target=target,
        distribution=tuple(sorted(dist.items())),
    )
