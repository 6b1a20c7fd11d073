"""Exact odds of a maai 2d10 check (S-R01…S-R16), by enumerating the 100 outcomes.

``odds_command("2D10+3>=11")`` → :class:`MaaiOdds`: P(成功) (every success, 会心 and 天命
included), P(会心) (天命 included), P(失着) (業報 included), P(天命), P(業報) — without fate
and with fate intervention used to best effect (S-R14, S-G27's order 天命 > 会心 > 成功 >
失敗 > 失着 > 業報, :meth:`Check.best_fate`) — plus the success table over the TN grid
5…19 (S-R05, S-G01) for modifiers −3…+5.

``fate`` is the number of interventions assumed on this roll: 0 = none, 1 = one (S-G27's
default maximum per roll); N > 1 corresponds to ``fate.max_uses_per_roll = N`` (each use
moves one die ±1 within 1…10; the best outcome reachable in ≤ N uses is taken).  A use is
spent only when it improves the outcome.

>>> o = odds_command("2D10+3>=11")
>>> [str(x) for x in (o.odds.success, o.odds.critical, o.odds.fumble, o.odds.tenmei, o.odds.gouhou)]
['79/100', '7/100', '3/100', '1/100', '1/100']
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ikusa.dice.odds import frac_text, percent_text
from ikusa.engine.errors import InputError
from ikusa.systems.command_syntax import ARITH, eval_int, split_command
from ikusa.systems.maai.check import OUTCOME_RANK, Check, Outcome, clamp_modifier

if TYPE_CHECKING:  # the tables are built by render() only: ``ikusa odds --json`` never loads them (issue #12)
    from rich.console import RenderableType

    from ikusa.dice.term_table import Group, Table, Text

#: S-R05: the TN grid
TN_GRID: tuple[int, ...] = tuple(range(5, 20, 2))
#: modifiers shown in the table: PCs' ability −3…+3 plus skill, "typical expert +3" (S-G01)
MOD_RANGE: tuple[int, ...] = tuple(range(-3, 6))
MAX_FATE = 9

ODDS_RE = re.compile(rf"^2D10(?P<mod>(?:[-+]{ARITH}*)?)>=(?P<tn>{ARITH}+?)(?P<ce>CE)?(?:R(?P<react>[-+]\d+))?$")

ALL_DICE: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 11) for b in range(1, 11))


def best_reachable(check: Check, uses: int) -> Check:
    """The best check reachable with at most ``uses`` fate interventions (S-R14/S-R16;
    each moves one die ±1 within 1…10), ranked by ``OUTCOME_RANK``.  ``uses = 1`` is
    exactly :meth:`Check.best_fate`."""
    if uses <= 0:
        return check
    if uses == 1:
        return check.best_fate()
    best = check
    frontier = [check]
    seen = {check.dice}
    for _ in range(uses):
        nxt: list[Check] = []
        for c in frontier:
            for i, d in c.fate_choices():
                cand = c.with_fate(i, d)
                if cand.dice in seen:
                    continue
                seen.add(cand.dice)
                nxt.append(cand)
                if OUTCOME_RANK[cand.outcome] > OUTCOME_RANK[best.outcome]:
                    best = cand
        frontier = nxt
    return best


class OutcomeOdds:
    """Exact probabilities of the six outcomes (narrow sense, summing to 1) and the wide
    readings the issue asks for.  Plain slots classes here, not dataclasses: ``dataclasses``
    imports ``inspect``, about 8 ms of every cold ``ikusa odds`` (issue #12, target 5)."""

    __slots__ = ("probs",)

    def __init__(self, probs: tuple[tuple[Outcome, Fraction], ...]) -> None:
        self.probs = probs

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OutcomeOdds) and self.probs == other.probs

    def __hash__(self) -> int:
        return hash(self.probs)

    def __repr__(self) -> str:
        return f"OutcomeOdds(probs={self.probs!r})"

    def p(self, outcome: Outcome) -> Fraction:
        return dict(self.probs).get(outcome, Fraction(0))

    @property
    def success(self) -> Fraction:
        """成功 in the wide sense: 成功 + 会心 + 天命."""
        return sum((p for o, p in self.probs if o.succeeded), Fraction(0))

    @property
    def failure(self) -> Fraction:
        return 1 - self.success

    @property
    def critical(self) -> Fraction:
        """会心 including 天命 (doubles + success, S-R09/S-R11; 会心拡張 when on)."""
        return self.p(Outcome.CRITICAL) + self.p(Outcome.TENMEI)

    @property
    def fumble(self) -> Fraction:
        """失着 including 業報 (doubles + failure, S-R10/S-R11)."""
        return self.p(Outcome.FUMBLE) + self.p(Outcome.GOUHOU)

    @property
    def tenmei(self) -> Fraction:
        return self.p(Outcome.TENMEI)

    @property
    def gouhou(self) -> Fraction:
        return self.p(Outcome.GOUHOU)

    def to_json(self) -> dict[str, Any]:
        return {
            "success": frac_text(self.success),
            "critical": frac_text(self.critical),
            "fumble": frac_text(self.fumble),
            "tenmei": frac_text(self.tenmei),
            "gouhou": frac_text(self.gouhou),
            "failure": frac_text(self.failure),
            "outcomes": {o.value: frac_text(self.p(o)) for o in Outcome},
        }


#: for each roll (index ``10·(a−1) + (b−1)`` in ALL_DICE): a getter of its rank and the ranks
#: of the rolls one fate use away (one die ±1 within 1…10, S-R14/S-R16), by index
_REACH: tuple[itemgetter[tuple[int, ...]], ...] = tuple(
    itemgetter(i, *(j for j, ok in ((i - 10, a > 1), (i - 1, b > 1), (i + 1, b < 10), (i + 10, a < 10)) if ok))
    for i, (a, b) in enumerate(ALL_DICE)
)


@lru_cache(maxsize=2)
def _rank_pairs(crit_extension: bool) -> tuple[tuple[int, int, int], ...]:
    """For each roll of ``ALL_DICE``: (the dice's sum, its ``OUTCOME_RANK`` when the check
    succeeds, when it fails), read from :class:`Check` (S-R08…S-R12) at a TN equal to the
    sum and one above it."""
    rank = OUTCOME_RANK
    return tuple((a + b, rank[Check((a, b), 0, a + b, crit_extension).outcome],
                  rank[Check((a, b), 0, a + b + 1, crit_extension).outcome]) for a, b in ALL_DICE)


@lru_cache(maxsize=1024)
def _ranks(need: int, crit_extension: bool) -> tuple[int, ...]:
    """``OUTCOME_RANK`` of each of the 100 rolls of ``ALL_DICE`` without fate (S-R01…S-R12)
    when the dice must sum to ``need`` = TN − clamped modifier: ``2D10 + m ≥ t`` is
    ``2D10 ≥ t − m`` (S-R01/S-R07), and doubles, 天命 and 業報 read the dice alone, so the
    whole odds table (mods −3…+5 × TN 5…19) needs 23 such grids, not 72; each roll's rank
    is its success or its failure rank (:func:`_rank_pairs`)."""
    return tuple(hit if total >= need else miss for total, hit, miss in _rank_pairs(crit_extension))


@lru_cache(maxsize=4096)
def _ranks_with_fate(need: int, crit_extension: bool, fate: int) -> tuple[int, ...]:
    """The best rank each roll reaches with at most ``fate`` uses: the best over the rolls
    within ``fate`` moves of one die ±1, which is what :func:`best_reachable` finds one roll
    at a time — here one use at a time over the whole 10×10 grid (S-G27: a use is spent
    only when it improves the outcome, so the best reachable outcome is what counts)."""
    if fate <= 0:
        return _ranks(need, crit_extension)
    before = _ranks_with_fate(need, crit_extension, fate - 1)
    return tuple(max(reach(before)) for reach in _REACH)


@lru_cache(maxsize=4096)
def _odds_for_need(need: int, crit_extension: bool, fate: int) -> OutcomeOdds:
    ranks = _ranks_with_fate(need, crit_extension, fate)
    return OutcomeOdds(tuple((o, Fraction(ranks.count(OUTCOME_RANK[o]), 100)) for o in Outcome))


@lru_cache(maxsize=4096)
def outcome_odds(modifier: int, target: int, crit_extension: bool = False, fate: int = 0) -> OutcomeOdds:
    """Enumerate the 100 equally likely 2d10 rolls (S-T01) for ``2D10+modifier ≥ target``
    (modifier clamped, S-R07), with ``fate`` interventions used to best effect."""
    return _odds_for_need(target - clamp_modifier(modifier), crit_extension, fate)


@lru_cache(maxsize=4096)
def versus_reaction(modifier: int, defence: int, reaction: int,
                    crit_extension: bool = False) -> tuple[Fraction, Fraction]:
    """S-R41/S-R53: P(the attack hits and the defender's reaction roll 2D10 + ``reaction``
    fails to reach the hit total) and P(that hit is a 会心), by enumerating 100 × 100 rolls —
    the attack's odds "against the defender's best available reaction" (#13).

    >>> [str(p) for p in versus_reaction(3, 11, 2)]
    ['5069/10000', '503/10000']
    """
    mod = clamp_modifier(modifier)
    rmod = clamp_modifier(reaction)
    fails_below: dict[int, int] = {}
    lands = crit = 0
    for d in ALL_DICE:
        c = Check(d, mod, defence, crit_extension)
        if not c.success:
            continue
        total = c.total
        n = fails_below.get(total)
        if n is None:
            n = fails_below[total] = sum(1 for r in ALL_DICE if not Check(r, rmod, total).success)
        lands += n
        if c.outcome in (Outcome.CRITICAL, Outcome.TENMEI):
            crit += n
    return Fraction(lands, 10_000), Fraction(crit, 10_000)


def clear_caches() -> None:
    """Forget every computed table (the bench measures cold tables)."""
    for cached in (_rank_pairs, _ranks, _ranks_with_fate, _odds_for_need, outcome_odds):
        cached.cache_clear()


def success_table(fate: int = 0, modifiers: tuple[int, ...] = MOD_RANGE,
                  targets: tuple[int, ...] = TN_GRID) -> list[tuple[int, list[Fraction]]]:
    """P(success) for every modifier × TN (S-T52 is the +0 and +3 rows, fate 0)."""
    success: dict[int, Fraction] = {}  # by need (TN − clamped modifier): cells that share it share odds

    def cell(m: int, t: int) -> Fraction:
        need = t - clamp_modifier(m)
        p = success.get(need)
        if p is None:
            p = success[need] = outcome_odds(m, t, False, fate).success
        return p

    return [(m, [cell(m, t) for t in targets]) for m in modifiers]


class MaaiOdds:
    """The odds of one maai check command (see the module docstring).  ``reaction`` is the
    defender's reaction roll modifier of ``R±N``, and ``vs_reaction`` P(hit lands), P(会心 lands)
    against it."""

    __slots__ = ("command", "crit_extension", "fate", "modifier", "odds", "reaction", "table", "table_fate",
                 "target", "vs_reaction", "with_fate", "without_fate")

    def __init__(self, *, command: str, modifier: int, target: int, crit_extension: bool, fate: int,
                 odds: OutcomeOdds, without_fate: OutcomeOdds, with_fate: OutcomeOdds,
                 table: list[tuple[int, list[Fraction]]], table_fate: list[tuple[int, list[Fraction]]],
                 reaction: int | None = None, vs_reaction: tuple[Fraction, Fraction] | None = None) -> None:
        self.command = command
        self.modifier = modifier
        self.target = target
        self.crit_extension = crit_extension
        self.fate = fate
        self.odds = odds
        self.without_fate = without_fate
        self.with_fate = with_fate
        self.table = table
        self.table_fate = table_fate
        self.reaction = reaction
        self.vs_reaction = vs_reaction

    @property
    def warnings(self) -> list[str]:
        """S-G01 (even TN) and S-R07 (clamped modifier) notes, as the dice bot gives them."""
        out = []
        if self.target % 2 == 0:
            out.append(f"S-G01: TN {self.target} is even; the rules' TNs sit on the odd grid 5…19")
        if clamp_modifier(self.modifier) != self.modifier:
            out.append(f"S-R07: modifier {self.modifier:+d} clamped to {clamp_modifier(self.modifier):+d}")
        return out

    @property
    def fate_uses(self) -> int:
        """Uses in the "with fate" column: ``fate``, or 1 when none is assumed."""
        return max(1, self.fate)

    def to_json(self) -> dict[str, Any]:
        return {
            "system": "maai",
            "command": self.command,
            "modifier": self.modifier,
            "applied_modifier": clamp_modifier(self.modifier),
            "target": self.target,
            "crit_extension": self.crit_extension,
            "fate": self.fate,
            "warnings": self.warnings,
            **self.odds.to_json(),
            "without_fate": self.without_fate.to_json(),
            "with_fate": {"uses": self.fate_uses, **self.with_fate.to_json()},
            "table": {
                "targets": list(TN_GRID),
                "fate_uses": self.fate_uses,
                "rows": [
                    {
                        "modifier": m,
                        "success": [frac_text(p) for p in row],
                        "success_with_fate": [frac_text(p) for p in row_f],
                    }
                    for (m, row), (_m, row_f) in zip(self.table, self.table_fate, strict=True)
                ],
            },
            **({"vs_reaction": {"modifier": self.reaction, "hit": frac_text(self.vs_reaction[0]),
                                "critical": frac_text(self.vs_reaction[1]),
                                "label": self.reaction_label}} if self.vs_reaction is not None else {}),
        }

    @property
    def reaction_label(self) -> str:
        return f"防御 2D10{self.reaction or 0:+d} ≥ 命中値 に対して (S-R53)"

    def render(self) -> Group:
        from ikusa.dice.term_table import Group, Table, Text

        k = self.fate_uses
        head = Text.assemble(
            ("maai ", "bold"), (f"2D10{clamp_modifier(self.modifier):+d} ≥ {self.target}", "bold cyan"),
            ("  会心拡張" if self.crit_extension else ""),
            (f"  (修正 {self.modifier:+d} → {clamp_modifier(self.modifier):+d}, S-R07)"
             if clamp_modifier(self.modifier) != self.modifier else ""),
        )
        summary = Table(title="結果の確率 (100通りを列挙, 正確値)", title_justify="left")
        summary.add_column("結果")
        mark0 = " ◀" if self.fate == 0 else ""
        markk = " ◀" if self.fate > 0 else ""
        summary.add_column(f"運命介入なし{mark0}", justify="right")
        summary.add_column(f"運命介入{k}回{markk}", justify="right")
        rows = [
            ("成功 (会心・天命を含む)", "success"),
            ("会心 (天命を含む)", "critical"),
            ("失着 (業報を含む)", "fumble"),
            ("天命", "tenmei"),
            ("業報", "gouhou"),
        ]
        for label, attr in rows:
            a: Fraction = getattr(self.without_fate, attr)
            b: Fraction = getattr(self.with_fate, attr)
            summary.add_row(label, f"{percent_text(a)} ({frac_text(a)})", f"{percent_text(b)} ({frac_text(b)})")
        if self.vs_reaction is not None:
            hit, crit = self.vs_reaction
            summary.add_row(f"命中 ({self.reaction_label})", f"{percent_text(hit)} ({frac_text(hit)})", "")
            summary.add_row(f"会心命中 ({self.reaction_label})", f"{percent_text(crit)} ({frac_text(crit)})", "")
        parts: list[Text | Table] = [head]
        parts.extend(Text(w, style="yellow") for w in self.warnings)
        parts += [summary, self._grid(self.table, "運命介入なし")]
        if self.fate > 0:
            parts.append(self._grid(self.table_fate, f"運命介入{k}回"))
        return Group(*parts)

    def _grid(self, table: list[tuple[int, list[Fraction]]], label: str) -> Table:
        from ikusa.dice.term_table import Table, Text

        grid = Table(title=f"成功率: 2D10+修正 ≥ 目標値 ({label})", title_justify="left")
        grid.add_column("修正", justify="right")
        for t in TN_GRID:
            grid.add_column(f"TN{t}", justify="right")
        here = clamp_modifier(self.modifier)
        for m, row in table:
            cells = []
            for t, p in zip(TN_GRID, row, strict=True):
                style = "bold reverse" if (m == here and t == self.target) else ""
                cells.append(Text(percent_text(p), style=style))
            grid.add_row(Text(f"{m:+d}", style="bold" if m == here else ""), *cells)
        return grid

    def __rich__(self) -> RenderableType:
        return self.render()


def odds_command(command: str, fate: int = 0) -> MaaiOdds:
    """Exact odds of ``2D10[+mod]>=TN[CE]`` assuming ``fate`` interventions (0…9)."""
    word, _comment = split_command(command)
    if word.startswith("S") and ODDS_RE.match(word[1:]):
        word = word[1:]
    m = ODDS_RE.match(word)
    if m is None:
        raise InputError(
            f"not a maai check: {command!r}; expected 2D10[+mod]>=TN[CE][R±N] (R: the defender's reaction "
            "modifier; fate: use --fate N)",
            field="command",
        )
    if not 0 <= fate <= MAX_FATE:
        raise InputError(f"fate must be 0…{MAX_FATE} interventions, not {fate}", field="fate")
    modifier = eval_int(m.group("mod"))
    target = eval_int(m.group("tn"))
    ce = m.group("ce") is not None
    react = int(m.group("react")) if m.group("react") else None
    k = max(1, fate)
    return MaaiOdds(
        command=word,
        modifier=modifier,
        target=target,
        crit_extension=ce,
        fate=fate,
        odds=outcome_odds(clamp_modifier(modifier), target, ce, fate),
        without_fate=outcome_odds(clamp_modifier(modifier), target, ce, 0),
        with_fate=outcome_odds(clamp_modifier(modifier), target, ce, k),
        table=success_table(0),
        table_fate=success_table(k),
        reaction=react,
        vs_reaction=None if react is None else versus_reaction(modifier, target, react, ce),
    )
