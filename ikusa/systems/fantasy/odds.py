"""Exact odds of the fantasy host's 2D6 check (F-H01, F-G04, F-G05): 36 outcomes enumerated.

>>> o = odds_command("2D6+5>=12")
>>> str(o.success), str(o.auto_success), str(o.auto_failure)
('7/12', '1/36', '1/36')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from ikusa.dice.odds import frac_text, percent_text
from ikusa.dice.term_table import Group, Table, Text
from ikusa.engine.errors import InputError
from ikusa.systems.command_syntax import eval_int, split_command
from ikusa.systems.fantasy.check import DEFAULT_OPTIONS, CheckOptions, CheckResult, check_result
from ikusa.systems.fantasy.commands import CHECK_RE

if TYPE_CHECKING:
    from rich.console import RenderableType

    from ikusa.systems.fantasy.opposed import OpposedOdds


def result_odds(modifier: int, target: int, options: CheckOptions = DEFAULT_OPTIONS) -> dict[CheckResult, Fraction]:
    """P of each result of ``2D6 + modifier ≥ target`` (36 equally likely rolls)."""
    counts = dict.fromkeys(CheckResult, 0)
    for a, b in product(range(1, 7), repeat=2):
        counts[check_result(a + b, a + b + modifier, target, options)] += 1
    return {r: Fraction(c, 36) for r, c in counts.items()}


def success_probability(modifier: int, target: int, options: CheckOptions = DEFAULT_OPTIONS) -> Fraction:
    odds = result_odds(modifier, target, options)
    return odds[CheckResult.SUCCESS] + odds[CheckResult.AUTO_SUCCESS]


@mypyc_attr(allow_interpreted_subclasses=True)  # copied via cls.__new__ (deepcopy, pickle): see setup.py
@dataclass(frozen=True, slots=True)
class FantasyOdds:
    command: str
    modifier: int
    target: int
    results: tuple[tuple[CheckResult, Fraction], ...]

    def p(self, r: CheckResult) -> Fraction:
        return dict(self.results)[r]

    @property
    def table_targets(self) -> list[int]:
        """The TN columns of the table: the command's TN ± 4."""
        return list(range(self.target - 4, self.target + 5))

    @property
    def success(self) -> Fraction:
        """成功 including 自動成功."""
        return self.p(CheckResult.SUCCESS) + self.p(CheckResult.AUTO_SUCCESS)

    @property
    def auto_success(self) -> Fraction:
        return self.p(CheckResult.AUTO_SUCCESS)

    @property
    def auto_failure(self) -> Fraction:
        return self.p(CheckResult.AUTO_FAILURE)

    def to_json(self) -> dict[str, Any]:
        return {
            "system": "fantasy",
            "command": self.command,
            "modifier": self.modifier,
            "target": self.target,
            "success": frac_text(self.success),
            "failure": frac_text(1 - self.success),
            "auto_success": frac_text(self.auto_success),
            "auto_failure": frac_text(self.auto_failure),
            "results": {r.value: frac_text(p) for r, p in self.results},
            "table": {
                "targets": list(self.table_targets),
                "success": [frac_text(success_probability(self.modifier, t)) for t in self.table_targets],
            },
        }

    def render(self) -> Group:
        head = Text.assemble(("fantasy ", "bold"), (f"2D6{self.modifier:+d} ≥ {self.target}", "bold cyan"),
                             "  (自動失敗 [1,1], 自動成功 [6,6]: F-G04)")
        summary = Table(title="結果の確率 (36通りを列挙, 正確値)", title_justify="left")
        summary.add_column("結果")
        summary.add_column("確率", justify="right")
        summary.add_row("成功 (自動成功を含む)", f"{percent_text(self.success)} ({frac_text(self.success)})")
        for r in CheckResult:
            summary.add_row(r.value, f"{percent_text(self.p(r))} ({frac_text(self.p(r))})")
        grid = Table(title=f"成功率: 2D6{self.modifier:+d} ≥ 目標値", title_justify="left")
        for t in self.table_targets:
            grid.add_column(f"TN{t}", justify="right")
        grid.add_row(*[Text(percent_text(success_probability(self.modifier, t), 1),
                            style="bold reverse" if t == self.target else "") for t in self.table_targets])
        return Group(head, summary, grid)

    def __rich__(self) -> RenderableType:
        return self.render()


def odds_command(command: str, fate: int = 0) -> FantasyOdds | OpposedOdds:
    """Exact odds of ``2D6[+mod]>=TN``."""
    if fate:
        raise InputError("fate intervention is a maai rule (S-R14); the fantasy host has none", field="fate")
    word, _comment = split_command(command)
    if word.startswith("S") and CHECK_RE.match(word[1:]):
        word = word[1:]
    m = CHECK_RE.match(word)
    if m is None and "2D6" in word.partition(">")[2]:  # an opposed check, 2D6+5>=2D6+3 (#13)
        from ikusa.systems.fantasy.opposed import opposed_odds

        return opposed_odds(command)
    if m is None:
        raise InputError(f"not a fantasy check: {command!r}; expected 2D6[+mod]>=TN or 2D6[+a]>=2D6[+b]",
                         field="command")
    modifier = eval_int(m.group("mod"))
    target = eval_int(m.group("tn"))
    return FantasyOdds(word, modifier, target, tuple(result_odds(modifier, target).items()))
