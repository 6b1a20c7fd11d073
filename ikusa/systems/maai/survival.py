"""The post-combat survival roll (000 §3.8 戦闘不能と生死判定; 001 戦闘不能): S-R62, S-G25,
S-G27, S-G28.

``2d10 + max(體, 運) ≥ 11`` → survives with 重傷; otherwise death.  Fate intervention may be
used on this roll (at most ``fate.max_uses_per_roll`` uses).  Doubles mean nothing here
(S-G28: survival is neither a crit nor a fumble check).

>>> survival_check((5, 7), tai=1, luck=0).survived, survival_check((3, 5), tai=1, luck=0).survived
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ikusa.systems.maai.check import Check
from ikusa.systems.maai.options import or_default

if TYPE_CHECKING:
    from ikusa.systems.maai.options import MaaiOptions


@dataclass(frozen=True, slots=True)
class SurvivalResult:
    check: Check
    fate_used: int

    @property
    def survived(self) -> bool:
        """S-R62: success → 重傷 but alive; failure → death."""
        return self.check.success

    @property
    def text(self) -> str:
        a, b = self.check.dice
        fate = f" (運命介入 {self.fate_used})" if self.fate_used else ""
        res = "成功 → 重傷で生存" if self.survived else "失敗 → 死亡"
        return f"生死判定 2D10[{a},{b}]{self.check.applied_modifier:+d}={self.check.total} ≥ 11{fate} {res}"


def survival_modifier(tai: int, luck: int) -> int:
    """S-R62: the higher of 體 and 運."""
    return max(tai, luck)


def survival_check(
    dice: tuple[int, int],
    tai: int,
    luck: int,
    fate_left: int = 0,
    options: MaaiOptions | None = None,
) -> SurvivalResult:
    """S-R62 / S-T35.  If the roll fails and ``fate_left`` uses (capped by
    ``fate.max_uses_per_roll``, S-G27) can raise the dice enough, they are spent (one die
    +1 per use, alternating dice); otherwise none is spent."""
    o = or_default(options)
    c = Check(dice, survival_modifier(tai, luck), o.death.tn)
    if c.success:
        return SurvivalResult(c, 0)
    uses = min(fate_left, o.fate.max_uses_per_roll)
    need = c.target - c.total
    if need > uses:
        return SurvivalResult(c, 0)
    cand = c
    used = 0
    i = 0
    while not cand.success and used < uses:
        idx = i % 2 if cand.dice[i % 2] < 10 else 1 - i % 2
        if cand.dice[idx] >= 10:
            break
        cand = cand.with_fate(idx, +1)
        used += 1
        i += 1
    if not cand.success:
        return SurvivalResult(c, 0)
    return SurvivalResult(cand, used)
