"""連撃疲労 (combo fatigue): 000 §3.9 (S-R66…S-R68, S-G46).

The k-th melee attack in one breath (k ≥ 4) takes −(k−2); a short weapon in 心府 (or
another source of the 心府 cost bonus such as 修羅の印) mitigates it one step to −(k−3).
Mitigation never exceeds one step, however many sources (same-named effects do not stack).

>>> [fatigue_penalty(k) for k in range(1, 7)]
[0, 0, 0, -2, -3, -4]
>>> [fatigue_penalty(k, mitigations=["short_weapon_shinpu"]) for k in range(1, 7)]
[0, 0, 0, -1, -2, -3]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ikusa.systems.maai.catalog import Catalog, Maneuver
from ikusa.systems.maai.options import or_default

if TYPE_CHECKING:
    from ikusa.systems.maai.options import MaaiOptions


def fatigue_penalty(k: int, mitigations: Sequence[str] | bool = (), options: MaaiOptions | None = None) -> int:
    """S-R66/S-R67: hit penalty (≤ 0) of the ``k``-th (1-based) melee attack in a breath.
    ``mitigations`` names the active mitigation sources (or is simply ``True``); any number
    of them is one step (S-R68).  Counters and reactions are outside the breath and not
    counted (S-G46)."""
    if k < 1:
        raise ValueError(f"attack index starts at 1, not {k}")
    start = or_default(options).fatigue.start_at
    if k < start:
        return 0
    steps = 1 if mitigations else 0
    return min(0, -(k - (start - 2)) + steps)


def fatigue_penalties(n: int, mitigations: Sequence[str] | bool = (), options: MaaiOptions | None = None) -> list[int]:
    """Penalties of attacks 1…n of one breath (S-T37, S-T38)."""
    return [fatigue_penalty(k, mitigations, options) for k in range(1, n + 1)]


def mitigation_sources(
    maneuver: Maneuver,
    catalog: Catalog,
    *,
    in_shinpu: bool,
    feats: Sequence[str] = (),
    options: MaaiOptions | None = None,
) -> list[str]:
    """S-R67/S-R68, S-G46: which mitigation sources apply to this melee attack.  In 心府, a
    short weapon (S-R67 list; 棒・金剛杵 are not short) and a feat with
    ``fatigue_mitigation`` (修羅の印).  With ``fatigue.mitigation_mode =
    "floor_blocked_only"`` the short-weapon source applies only when the 心府 −1 is blocked by
    the floor (base cost 1)."""
    if not in_shinpu or catalog.is_ranged(maneuver):
        return []
    o = or_default(options)
    out: list[str] = []
    if catalog.is_short(maneuver) and (o.fatigue.mitigation_mode == "always_in_shinpu" or maneuver.cost <= 1):
        out.append("short_weapon_shinpu")
    for fid in feats:
        f = catalog.feat(fid)
        if f.fatigue_mitigation:
            out.append(f.name)
    return out
