"""The greedy AI's attack pick in a mass battle's breath, at C speed (issue #12, target 3).

A breath of a large battle offers an attack on every enemy in reach (hundreds of options).
:class:`~ikusa.systems.maai.policies.GreedyPolicy` picks the attack within the breath limit
(S-R28) with odds of at least ``min_odds`` on the weakest target (least 戦力), the best odds
among those, the first listed on a tie.  Here that pick is one pass of ``map``/``compress``/
``max`` over the options instead of a Python loop per option; the policy's loop then runs over
the few other options only.  Same pick as the loop, option for option.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import compress, count, repeat
from operator import attrgetter, eq, itemgetter, methodcaller, neg, not_
from typing import Any

from ikusa.engine.protocol import Option

#: from this many options on, the policy's breath pick goes through :func:`split_attacks`
MANY = 32

_DATA = attrgetter("data")
_ODDS = attrgetter("odds")
_WOUNDS = attrgetter("wounds")
_KIND = methodcaller("get", "kind")
_WITHIN = methodcaller("get", "within")
_TARGET = itemgetter("target")


def split_attacks(options: Sequence[Option], by_id: Mapping[str, Any],
                  min_odds: float) -> tuple[Option | None, list[Option]]:
    """The greedy attack among ``options`` (``None`` if none qualifies) and the options that
    are not attacks, in their order."""
    attack = list(map(eq, map(_KIND, map(_DATA, options)), repeat("attack")))
    others = list(compress(options, map(not_, attack)))
    cands = list(compress(options, attack))
    cands = list(compress(cands, map(_WITHIN, map(_DATA, cands))))  # within the breath limit
    odds = list(map(_ODDS, cands))
    if None in odds:
        odds = [p or 0.0 for p in odds]
    keep = list(map(float(min_odds).__le__, odds))
    cands = list(compress(cands, keep))
    if not cands:
        return None, others
    odds = list(compress(odds, keep))
    weakest = map(neg, map(_WOUNDS, map(by_id.__getitem__, map(_TARGET, map(_DATA, cands)))))
    # the highest (−戦力, odds); on a tie the first listed (the highest −position)
    _, _, back = max(zip(weakest, odds, count(0, -1), strict=False))
    return cands[-back], others
