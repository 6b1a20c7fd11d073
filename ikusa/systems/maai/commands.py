"""maai dice-bot commands: the 2d10 check with its four branches and fate intervention.

Syntax (case-insensitive, full-width accepted, a comment may follow after a space)::

    [S]2D10[+mod…]>=TN[CE][F1+|F1-|F2+|F2-|FB]

* ``+mod…`` is any integer arithmetic (``+3``, ``-2``, ``+3+3+2+2+2``); the *summed* final
  modifier is clamped to −10…+10 (S-R07, 000 §3.1).  The text shows the clamp as
  ``+12→+10``: the summed modifier, an arrow, the modifier applied.
* ``>=TN`` is required (a maai check is always "total ≥ TN", S-R01).  An even TN is allowed
  but noted in ``extra["warnings"]`` (S-G01: TNs sit on the odd grid 5…19).
* ``CE`` = 会心拡張 (S-R12): a success whose dice differ by exactly 1 is also 会心.
* Fate intervention (運命介入, S-R14…S-R16, S-G27): ``F1+``/``F1-``/``F2+``/``F2-`` move the
  first/second die by ±1 after the roll (meant for dice typed in from the table, where the
  player has seen them); ``FB`` ("fate, best") applies the single intervention that improves
  the outcome most (天命 > 会心 > 成功 > 失敗 > 失着 > 業報) and none if nothing improves.
  At most one fate per roll (S-G27 ``fate.max_uses_per_roll = 1``).  A die may not leave
  1…10 (S-R16: RuleViolation).  From Python, :func:`apply_fate` applies fate to a finished
  result, the way a player decides after seeing the dice.
* ``S`` prefix: secret roll (BCDice).

Text (BCDice shape)::

    (2D10+3>=11) ＞ 14[7,7]+3 ＞ 17 ＞ 会心
    (2D10+3+3+2+2+2>=11) ＞ 5[2,3]+12→+10 ＞ 15 ＞ 成功

The echo in parentheses is the command as typed (BCDice); the dice segment shows the summed
modifier, and when S-R07 clamps it, ``summed→applied``.
    (2D10+3>=11F1+) ＞ 9[4,5]+3 ＞ 12 ＞ 成功 ＞ 運命介入[4→5,5] ＞ 10[5,5]+3 ＞ 13 ＞ 会心

Flags: 会心/天命 → success+critical; 失着/業報 → failure+fumble; 成功 → success; 失敗 →
failure.  ``extra`` holds the structured check (see :func:`check_extra`).  Anything that is
not a maai check falls back to the common BCDice commands
(:func:`ikusa.dice.bcdice.roll_command`).
"""

from __future__ import annotations

import re
from typing import Any

from ikusa.dice.result import RollResult
from ikusa.dice.source import DiceSource
from ikusa.engine.errors import InputError, RuleViolation
from ikusa.systems.command_syntax import ARITH, common_fallback, eval_int, format_modifier, split_command, strip_secret
from ikusa.systems.maai.check import OUTCOME_RANK, Check, Outcome

SYSTEM_ID = "maai"

CHECK_RE = re.compile(
    rf"^2D10(?P<mod>(?:[-+]{ARITH}*)?)>=(?P<tn>{ARITH}+)(?P<opts>(?:CE|FB|F[12][-+]1?)*)$"
)
_OPT_RE = re.compile(r"CE|FB|F[12][-+]1?")

#: S-G27 default: at most one fate intervention per roll
MAX_FATE_PER_ROLL = 1

FATE_SECTION = "000 §3.1 運命介入"


def roll_command(command: str, dice: DiceSource, *, max_fate_per_roll: int = MAX_FATE_PER_ROLL) -> RollResult | None:
    """maai's checks, else the common BCDice commands; ``None`` when not a command.
    ``max_fate_per_roll`` is S-G27's ``fate.max_uses_per_roll`` (default 1)."""
    word, _comment = split_command(command)
    if not word:
        return None
    _body, secret, m = strip_secret(word, CHECK_RE)
    if m is None:
        return common_fallback(command, dice, roll_command)
    modifier = eval_int(m.group("mod"))
    target = eval_int(m.group("tn"))
    opts = _OPT_RE.findall(m.group("opts"))
    crit_ext = "CE" in opts
    if opts.count("CE") > 1:
        raise InputError("CE (会心拡張) given twice", field="command")
    fates = [o for o in opts if o != "CE"]
    if len(fates) > max_fate_per_roll:
        raise RuleViolation(
            "S-G27", FATE_SECTION,
            f"at most {max_fate_per_roll} fate intervention(s) per roll (fate.max_uses_per_roll), got {len(fates)}",
        )
    values = dice.roll(10, 2, "2D10 判定")
    check = Check((values[0], values[1]), modifier, target, crit_extension=crit_ext)
    echo = f"(2D10{m.group('mod')}>={m.group('tn')}{'CE' if crit_ext else ''}{''.join(fates)})"
    result = build_result(check, echo, secret=secret, drawn=[(v, 10) for v in values])
    for spec in fates:
        if spec == "FB":
            result = apply_best_fate(result)
        else:
            result = apply_fate(result, int(spec[1]) - 1, 1 if spec[2] == "+" else -1,
                                max_uses_per_roll=max_fate_per_roll)
    return result


def check_segment(check: Check) -> str:
    """``14[7,7]+3 ＞ 17 ＞ 会心``; a clamped modifier reads ``+12→+10`` (S-R07)."""
    a, b = check.dice
    mod = format_modifier(check.modifier)
    if check.applied_modifier != check.modifier:
        mod = f"{mod}→{check.applied_modifier:+d}"
    return f"{check.natural}[{a},{b}]{mod} ＞ {check.total} ＞ {check.outcome.value}"


def check_extra(check: Check, rolled: tuple[int, int] | None = None) -> dict[str, Any]:
    """The structured check: dice as read now (after fate), dice as rolled, modifiers,
    target, total, outcome, fate history and S-G01 warnings."""
    warnings: list[str] = []
    if check.target % 2 == 0:
        warnings.append(f"S-G01: TN {check.target} is even; the rules' TNs sit on the odd grid 5…19")
    if check.applied_modifier != check.modifier:
        warnings.append(f"S-R07: modifier {check.modifier:+d} clamped to {check.applied_modifier:+d}")
    return {
        "system": SYSTEM_ID,
        "check": "2D10",
        "dice": list(check.dice),
        "rolled": list(rolled if rolled is not None else check.dice),
        "natural": check.natural,
        "modifier": check.modifier,
        "applied_modifier": check.applied_modifier,
        "target": check.target,
        "total": check.total,
        "outcome": check.outcome.value,
        "doubles": check.doubles,
        "crit_extension": check.crit_extension,
        "fate": [[i, d] for i, d in check.fated],
        "warnings": warnings,
    }


def build_result(check: Check, echo: str, *, secret: bool = False, drawn: list[tuple[int, int]] | None = None,
                 rolled: tuple[int, int] | None = None) -> RollResult:
    """A :class:`RollResult` for a fresh check: ``echo ＞ segment`` with the outcome's flags."""
    return _flagged(
        RollResult(
            text=f"{echo} ＞ {check_segment(check)}",
            secret=secret,
            dice=list(drawn if drawn is not None else [(v, 10) for v in check.dice]),
            extra=check_extra(check, rolled),
        ),
        check.outcome,
    )


def _flagged(result: RollResult, outcome: Outcome) -> RollResult:
    result.success = outcome.succeeded
    result.failure = not outcome.succeeded
    result.critical = outcome.critical
    result.fumble = outcome.fumbled
    return result


def check_of(result: RollResult) -> Check:
    """Rebuild the :class:`Check` a maai result describes (its ``extra``)."""
    ex = result.extra
    if ex.get("system") != SYSTEM_ID or ex.get("check") != "2D10":
        raise InputError("fate intervention applies to a maai 2D10 check result only", field="result")
    d0, d1 = ex["dice"]
    return Check(
        (int(d0), int(d1)), int(ex["modifier"]), int(ex["target"]),
        crit_extension=bool(ex["crit_extension"]),
        fated=tuple((int(i), int(d)) for i, d in ex["fate"]),
    )


def apply_fate(result: RollResult, die_index: int, delta: int, *,
               max_uses_per_roll: int = MAX_FATE_PER_ROLL) -> RollResult:
    """S-R14 (000 §3.1 運命介入): move die ``die_index`` (0 = first, 1 = second) of a maai
    check by ``delta`` (±1) and re-read the result.  S-R16: the die stays within 1…10
    (:class:`RuleViolation` otherwise).  S-G27: at most ``max_uses_per_roll`` interventions
    on one roll (default 1).  The original ``result`` is not changed."""
    check = check_of(result)
    if len(check.fated) >= max_uses_per_roll:
        raise RuleViolation(
            "S-G27", FATE_SECTION,
            f"this roll already used {len(check.fated)} fate intervention(s); "
            f"fate.max_uses_per_roll = {max_uses_per_roll}",
        )
    return _after_fate(result, check, check.with_fate(die_index, delta))


def apply_best_fate(result: RollResult) -> RollResult:
    """S-R14 with S-G27's order: the one intervention that improves the outcome most
    (:meth:`Check.best_fate`); when none improves it, the text says so and no use is spent
    (``extra["fate"]`` stays empty)."""
    check = check_of(result)
    best = check.best_fate()
    if best is check or OUTCOME_RANK[best.outcome] <= OUTCOME_RANK[check.outcome]:
        out = _copy(result)
        out.text = f"{result.text} ＞ 運命介入なし(改善なし)"
        return out
    return _after_fate(result, check, best)


def _after_fate(result: RollResult, before: Check, after: Check) -> RollResult:
    index, _delta = after.fated[-1]
    faces = [str(v) for v in before.dice]
    faces[index] = f"{before.dice[index]}→{after.dice[index]}"
    out = _copy(result)
    out.text = f"{result.text} ＞ 運命介入[{','.join(faces)}] ＞ {check_segment(after)}"
    rolled = result.extra.get("rolled")
    out.extra = check_extra(after, (int(rolled[0]), int(rolled[1])) if rolled else before.dice)
    out.extra["before_fate"] = {"dice": list(before.dice), "total": before.total, "outcome": before.outcome.value}
    return _flagged(out, after.outcome)


def _copy(result: RollResult) -> RollResult:
    return RollResult(
        text=result.text, success=result.success, failure=result.failure, critical=result.critical,
        fumble=result.fumble, secret=result.secret, dice=list(result.dice), extra=dict(result.extra),
    )
