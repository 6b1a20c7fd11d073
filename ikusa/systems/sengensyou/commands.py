"""千幻抄 (BCDice ``Sengensyou``) dice-bot commands.

``SGS[+mod][cmp TN]`` — BCDice's 命中判定・回避判定: 3D6 + modifier; a natural 16+ is
クリティカル, a natural 5 or less ファンブル.  Without a target the text and flags are
BCDice's exactly::

    SGS      → (3D6) ＞ 8[4,1,3] ＞ 8
    SGS+4+6  → (3D6+10) ＞ 16[5,5,6] ＞ 16+10 ＞ 26 ＞ クリティカル   (critical)

``SGS`` is read exactly as BCDice 3.16.1 reads it (issue #10): the first word of the input
(bcdice-js whitespace, no full-width folding), case-insensitive, a modifier and no
comparison — BCDice's parser refuses one (``restrict_cmp_op_to(nil)``), so ``SGS+2>=12`` is
not a command, as in BCDice.  A judged check against a target is ikusa's own ``DP`` below
(``DP3+2>=12`` rolls the same 3D6 + 2).

``DP<n>[+判定値][cmp TN]`` — the dice-pool check of 003 (G-R01, G-H03): spend n DP, roll nD6,
達成値 = 判定値 + dice.  ``DP3+7>=12`` → ``(DP3+7>=12) ＞ 3D6+7 ＞ 10[4,1,5]+7 ＞ 17 ＞ 成功``.
``DP0`` is a diceless check (達成値 = 判定値): the rules allow it for movement and perception
only (G-R03); the bot cannot know the action, so it accepts it and notes G-R03 in
``extra["warnings"]``.  ``DPF<n>`` is the GM's fixed mode (G-R29): n × 3.5 rounded down
(G-G30) instead of rolling.  Comparisons: ``>= > <= < == !=`` (BCDice's set; G-G09 reads
a defence as succeeding on ≥).

Both accept the ``S`` secret prefix and a comment after a space; everything else falls back
to the common BCDice commands.
"""

from __future__ import annotations

import re
from typing import Any

from ikusa.dice.bcdice.lexer import first_word
from ikusa.dice.result import RollResult
from ikusa.dice.source import DiceSource
from ikusa.engine.errors import InputError
from ikusa.systems.command_syntax import (
    ARITH,
    common_fallback,
    compare,
    eval_int,
    format_modifier,
    normalize_cmp,
    split_command,
    strip_secret,
)
from ikusa.systems.sengensyou.check import (
    DEFAULT_FIXED_ROUNDING,
    SGS_DICE,
    FixedRounding,
    PoolCheck,
    check_dice_count,
    fixed_dice_value,
    sgs_critical,
    sgs_fumble,
)

SYSTEM_ID = "sengensyou"

_CMP = r"(?:(?P<op>>=|<=|<>|!=|==|>|<|=)(?P<tn>" + ARITH + r"+))?"
#: ``SGS[+mod][cmp TN]``: the roll reads no comparison (BCDice); ``ikusa odds`` prices one
SGS_RE = re.compile(rf"^SGS(?P<mod>(?:[-+]{ARITH}*)?){_CMP}$")
DP_RE = re.compile(rf"^DP(?P<fixed>F)?(?P<n>[0-9]+)(?P<mod>(?:[-+]{ARITH}*)?){_CMP}$")
#: what a user means as a DP check even when the rest is malformed (``DP-1``, ``DP``, ``DPx``)
DP_LIKE_RE = re.compile(r"^S?DPF?(?:[-+0-9]|$)")


def roll_command(command: str, dice: DiceSource, *,
                 fixed_rounding: FixedRounding = DEFAULT_FIXED_ROUNDING) -> RollResult | None:
    """``SGS`` and ``DP`` checks, else the common BCDice commands.  ``fixed_rounding`` is
    G-G30's ``gm.fixed_roll_rounding`` for ``DPF`` (default ``"floor"``)."""
    _w, secret, m = strip_secret(first_word(command).upper(), SGS_RE)
    if m is not None and m.group("op") is None:
        return _sgs(m, dice, secret)
    word, _comment = split_command(command)
    if not word:
        return None
    _w, secret, m = strip_secret(word, DP_RE)
    if m is not None:
        return _dp(m, dice, secret, fixed_rounding)
    if DP_LIKE_RE.match(word):
        raise InputError(f"cannot read {word!r} as a DP check: expected DP<n>[+判定値][>=TN] or "
                         "DPF<n>… with n = 0…60 dice (G-R01)", field="command")
    return common_fallback(command, dice, roll_command)


def _target(m: re.Match[str]) -> tuple[str | None, int | None]:
    if m.group("op") is None:
        return None, None
    return normalize_cmp(m.group("op")), eval_int(m.group("tn"))


def _cmp_text(op: str | None, target: int | None) -> str:
    return "" if op is None else f"{op}{target}"


def _sgs(m: re.Match[str], dice: DiceSource, secret: bool) -> RollResult:
    modifier = eval_int(m.group("mod"))
    values = dice.roll(6, SGS_DICE, "SGS 3D6")
    natural = sum(values)
    total = natural + modifier
    critical, fumble = sgs_critical(natural), sgs_fumble(natural)
    parts = [f"(3D6{format_modifier(modifier)})", f"{natural}[{','.join(map(str, values))}]"]
    if modifier != 0:
        parts.append(f"{natural}{format_modifier(modifier)}")
    parts.append(str(total))
    if critical:
        parts.append("クリティカル")
    elif fumble:
        parts.append("ファンブル")
    return RollResult(
        text=" ＞ ".join(parts), secret=secret, critical=critical, fumble=fumble, dice=[(v, 6) for v in values],
        extra={"system": SYSTEM_ID, "check": "SGS", "dice": values, "natural": natural, "modifier": modifier,
               "total": total, "critical": critical, "fumble": fumble, "warnings": []},
    )


def _dp(m: re.Match[str], dice: DiceSource, secret: bool, rounding: FixedRounding) -> RollResult:
    raw_n = m.group("n")
    if len(raw_n) > 6:
        raise InputError(f"DP{raw_n[:12]}…: far more dice than one check can use (G-R01)", field="command")
    n = int(raw_n)
    fixed = m.group("fixed") is not None
    judgement = eval_int(m.group("mod"))
    op, target = _target(m)
    check_dice_count(n, combat=False)
    warnings: list[str] = []
    mod = format_modifier(judgement)
    echo = f"(DP{'F' if fixed else ''}{n}{mod}{_cmp_text(op, target)})"
    if fixed:
        check = PoolCheck(judgement, fixed_dice=n, rounding=rounding)
        value = fixed_dice_value(n, rounding)
        arrow = "=" if n % 2 == 0 else "→"
        parts = [echo, f"固定値 {n}×3.5{arrow}{value}", f"{value}{mod}" if judgement else str(value)]
        values: list[int] = []
    elif n == 0:
        check = PoolCheck(judgement)
        warnings.append("G-R03: a diceless check (0 DP) is for movement/perception; combat actions roll ≥ 1 die")
        parts = [echo, "ダイスなし"]
        values = []
    else:
        values = dice.roll(6, n, f"DP{n} {n}D6")
        check = PoolCheck(judgement, tuple(values))
        parts = [echo, f"{n}D6{mod}", f"{sum(values)}[{','.join(map(str, values))}]{mod}"]
    if len(parts) < 3 or parts[-1] != str(check.total):
        parts.append(str(check.total))
    result = RollResult(text="", secret=secret, dice=[(v, 6) for v in values])
    if op is not None and target is not None:
        ok = compare(check.total, op, target)
        parts.append("成功" if ok else "失敗")
        result.success, result.failure = ok, not ok
    result.text = " ＞ ".join(parts)
    extra: dict[str, Any] = {
        "system": SYSTEM_ID, "check": "DP", "dp": n, "fixed": fixed, "dice": values,
        "judgement_value": judgement, "dice_value": check.dice_value, "total": check.total,
        "cmp": op, "target": target, "warnings": warnings,
    }
    result.extra = extra
    return result
