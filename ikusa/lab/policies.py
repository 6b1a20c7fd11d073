"""Policy names as the lab takes them: ``greedy``, ``random``, ``search:200`` (and
``search:40:action``: search only decisions of that kind, greedy elsewhere), and ``SIDE=POLICY``
to give one side its own policy (``--ai 味方=search:200 --ai greedy``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ikusa.engine.errors import InputError
from ikusa.engine.protocol import Policy
from ikusa.lab.search import SearchPolicy, parse_search_spec
from ikusa.systems.registry import SystemModule

DEFAULT = "*"


def make_policy(module: SystemModule, name: str) -> Policy:
    """A system policy by name, or the search policy for ``search[:N]``."""
    from ikusa.engine.runner import policy_for

    spec = parse_search_spec(name)
    if spec is not None:
        return SearchPolicy(policy_for(module, "greedy"), *spec)
    return policy_for(module, name)


@dataclass(frozen=True, slots=True)
class PolicySpec:
    """Policy names per side (``"*"`` = every side not named)."""

    by_side: tuple[tuple[str, str], ...] = ((DEFAULT, "greedy"),)

    @classmethod
    def parse(cls, items: Iterable[str]) -> PolicySpec:
        out: dict[str, str] = {DEFAULT: "greedy"}
        for item in items:
            side, sep, name = item.rpartition("=")
            if not sep:
                side = DEFAULT
            side, name = side.strip() or DEFAULT, name.strip()
            if not name:
                raise InputError(f"--ai {item!r}: no policy name (as in greedy, random, search:200, "
                                 "SIDE=POLICY)", field="--ai")
            parse_search_spec(name)  # a bad budget is named now, not in a worker
            out[side] = name
        return cls(tuple(sorted(out.items())))

    def names(self) -> dict[str, str]:
        return dict(self.by_side)

    def label(self) -> str:
        d = self.names()
        rest = [f"{s}={n}" for s, n in sorted(d.items()) if s != DEFAULT]
        return ", ".join([d[DEFAULT], *rest]) if rest else d[DEFAULT]

    def build(self, module: SystemModule, sides: Iterable[str]) -> dict[str, Policy]:
        """One policy object per side (and ``"*"``); unknown side names are an error."""
        known = set(sides)
        d = self.names()
        for side in d:
            if side != DEFAULT and side not in known:
                raise InputError(f"--ai {side}=…: no side {side!r} in this encounter; sides: "
                                 f"{', '.join(sorted(known))}", field="--ai")
        return {side: make_policy(module, name) for side, name in d.items()}
