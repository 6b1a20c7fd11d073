"""NPC numbers out of the log lines a player or spectator receives (issue #9, secrecy).

The board shows a unit no player controls as its name, side and state only; the engines'
narrated lines still carry that unit's resource track (``槍の将 一呼吸終了 (消費2, 残り活力10)``,
``槍の将 戦力 3→2``, ``DP 16→20/22``, ``HP 9→-1``).  :func:`redact` turns the numbers of those
tracks into ``?`` in a line whose subject is such a unit, and the ``名前11`` pairs of a line
that lists every unit's 活力.  Dice and totals stay: they are rolled in the open.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: a resource word (maai 活力/戦力/運命, sengensyou HP/DP/霊力/グレイズ, fantasy HP), then its numbers
_NUMS = r"-?\d+(?:\s*→\s*-?\d+)*(?:\s+-?\d+(?:\s*→\s*-?\d+)+)?(?:/\d+)?"
_TRACK = re.compile(rf"((?:残り)?(?:活力|戦力|運命|HP|DP|霊力|グレイズ|限界)\s*)({_NUMS})")
#: what is left after a spend (``DP1消費 → 21``, ``(残2)``, ``残り0``)
_LEFT = re.compile(rf"(消費\s*→\s*|残り?\s*)({_NUMS})")
_DIGITS = re.compile(r"-?\d+")


def _hide(m: re.Match[str]) -> str:
    return m.group(1) + _DIGITS.sub("?", m.group(2))


@lru_cache(maxsize=8192)  # a pure function of strings: the same lines come back every version
def redact(text: str, npc_subject: bool, npc_names: tuple[str, ...]) -> str:
    """``text`` as a player may read it: the tracks hidden when its subject is an NPC, and every
    NPC's ``名前N`` pair hidden in any line."""
    if npc_subject:
        text = _LEFT.sub(_hide, _TRACK.sub(_hide, text))
    for name in npc_names:
        if name and name in text:
            text = _name_pair(name).sub(name + "?", text)
    return text


@lru_cache(maxsize=1024)
def _name_pair(name: str) -> re.Pattern[str]:
    """``名前N``: a unit's name and the number right after it."""
    return re.compile(re.escape(name) + r"(-?\d+)")
