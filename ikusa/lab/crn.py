"""Common random numbers: dice streams aligned per battle and per roller/purpose.

Two variants of an encounter (``+1`` on an ability, another ruleset option) fought with the
same :class:`CrnSource` seed draw *the same numbers wherever their play coincides*: each roll
draws from the stream of its key — the roller (a unit id or ``"GM"``, when the engine names it)
and the purpose with its numbers removed (``"源三郎 横斬り 命中"``) — so a roll that one variant
makes and the other does not shifts no other unit's dice.  This is what cuts the variance of
a paired difference (fishtest pairs games for the same reason).

The streams are private :class:`random.Random` generators seeded from the battle seed and a
stable hash of the key (never Python's salted ``hash``), so a battle draws the same dice in
every process.
"""

from __future__ import annotations

import random
import re
import zlib

from ikusa.dice.source import MAX_COUNT, MAX_SIDES, _check_request, randint_draws

_DIGITS = re.compile(r"[0-9０-９+\-−＋]+")


def stream_key(purpose: str, roller: str = "") -> str:
    """The stream a roll draws from: the roller (if named) and the purpose without numbers.

    >>> stream_key("源三郎 横斬り 命中 +3"), stream_key("DP3 3D6", roller="reimu")
    ('|源三郎 横斬り 命中', 'reimu|DP D')
    """
    return f"{roller}|{' '.join(_DIGITS.sub(' ', purpose).split())}"


class CrnSource:
    """A :class:`~ikusa.dice.source.DiceSource` with one stream per key, seeded by ``seed``.

    Accepts the optional ``roller`` keyword (a unit id, or ``"GM"``) that the engines pass
    when they name who rolls; without it the purpose alone keys the stream.
    """

    __slots__ = ("_streams", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._streams: dict[str, random.Random] = {}

    def _stream(self, key: str) -> random.Random:
        rng = self._streams.get(key)
        if rng is None:
            data = key.encode("utf-8")
            mix = (zlib.crc32(data) << 32) | zlib.adler32(data)
            rng = self._streams[key] = random.Random((self.seed << 64) ^ mix)
        return rng

    def roll(self, sides: int, count: int = 1, purpose: str = "", roller: str = "") -> list[int]:
        if not 1 <= sides <= MAX_SIDES or not 0 <= count <= MAX_COUNT:
            _check_request(sides, count)
        return randint_draws(self._stream(stream_key(purpose, roller)).getrandbits, sides, count)
