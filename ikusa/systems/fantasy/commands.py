"""fantasy (002 host, F.C) dice-bot commands: the 2D6 check with 自動成功/自動失敗.

``[S]2D6[+判定値 and modifiers…]>=TN`` — 達成値 = 2D6 + the listed modifiers (F-H01); success
on 達成値 ≥ TN (F-G05); a natural 2 ([1,1]) is 自動失敗 and a natural 12 ([6,6]) 自動成功
(F-G04 defaults, see :mod:`ikusa.systems.fantasy.check`).  The modifiers are listed as typed,
BCDice style::

    2D6+5-2>=12 → (2D6+5-2>=12) ＞ 7[3,4]+5-2 ＞ 10 ＞ 失敗
    2D6+3>=20   → (2D6+3>=20) ＞ 12[6,6]+3 ＞ 15 ＞ 自動成功

Flags: 成功 → success; 自動成功 → success+critical; 失敗 → failure; 自動失敗 →
failure+fumble.  Other comparisons and every other command fall back to the common BCDice
commands.
"""

from __future__ import annotations

import re

from ikusa.dice.result import RollResult
from ikusa.dice.source import DiceSource
from ikusa.systems.command_syntax import ARITH, common_fallback, eval_int, split_command, strip_secret
from ikusa.systems.fantasy.check import DEFAULT_OPTIONS, CheckOptions, CheckResult, FantasyCheck, Modifier

SYSTEM_ID = "fantasy"

CHECK_RE = re.compile(rf"^2D6(?P<mod>(?:[-+]{ARITH}*)?)>=(?P<tn>{ARITH}+)$")


def roll_command(command: str, dice: DiceSource, options: CheckOptions = DEFAULT_OPTIONS) -> RollResult | None:
    """The 2D6 check, else the common BCDice commands."""
    word, _comment = split_command(command)
    if not word:
        return None
    _w, secret, m = strip_secret(word, CHECK_RE)
    if m is None:
        return common_fallback(command, dice, roll_command)
    mod_text = m.group("mod")
    modifier = eval_int(mod_text)
    target = eval_int(m.group("tn"))
    values = dice.roll(6, 2, "2D6 判定")
    check = FantasyCheck(tuple(values), base=0, target=target,
                         modifiers=(Modifier("", modifier),) if modifier else (), options=options)
    result = check.result
    text = (f"(2D6{mod_text}>={m.group('tn')}) ＞ {check.natural}[{values[0]},{values[1]}]{mod_text}"
            f" ＞ {check.total} ＞ {result.value}")
    return RollResult(
        text=text,
        success=result.succeeded,
        failure=not result.succeeded,
        critical=result is CheckResult.AUTO_SUCCESS,
        fumble=result is CheckResult.AUTO_FAILURE,
        secret=secret,
        dice=[(v, 6) for v in values],
        extra={
            "system": SYSTEM_ID, "check": "2D6", "dice": values, "natural": check.natural,
            "modifier": modifier, "target": target, "total": check.total, "result": result.value,
            "warnings": [],
        },
    )
