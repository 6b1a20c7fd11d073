"""What a breath decision keeps so that a battle revisiting the same situation does not work
it out again (issue #12 target 1: a duel meets the same few breath situations thousands of
times across the battles of one encounter).

* :class:`BreathList`: a cached breath list of the encounter (breath_flow.cached_breath, keyed
  on the values of the situation) with its label plan (option_odds.annotation_plan) and the
  greedy AI's choices on it (policies.GreedyPolicy, keyed on what the choice also reads: the
  units' 戦力 and the policy's threshold), both worked out once.
* :func:`noted_options`: the list with its lazy noted labels (made from the state when first
  read; an AI reads none).
* :class:`BreathWait`: the pending breath decision, carrying its cached list (``memo``) or
  where its own attack options are (``spans``, a mass battle's breath).

Nothing here is global: the lists live in the encounter's caches, and every memo is bounded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from mypy_extensions import mypyc_attr

from ikusa.engine.protocol import Option
from ikusa.systems.maai.flow_base import Wait
from ikusa.systems.maai.option_odds import NotedOption, Plan

#: greedy choices kept per cached list at most (then it starts anew)
CHOICES_MAX = 64


@mypyc_attr(native_class=False)
class BreathList(list[Option]):
    """A cached breath option list (never changed once made), its label plan (``None`` until
    worked out) and the greedy choices made on it (see the module)."""

    __slots__ = ("choices", "plan")

    def __init__(self, options: Iterable[Option]) -> None:
        super().__init__(options)
        self.plan: Plan | None = None
        self.choices: dict[tuple[object, ...], str] = {}


class BreathWait(Wait):
    """A pending breath decision that also carries, for a policy that reads structured fields
    (policies.GreedyPolicy), its cached list (``memo``: the options are that list's, with noted
    labels) or where its own attack options are (``spans``: per maneuver (start, end, within);
    a mass battle's breath then decides without a pass over every option's kind, issue #12
    target 3); ``None`` when not known.  Copies and pickles as the plain Decision."""

    __slots__ = ("memo", "span_targets", "spans")

    def __init__(self, actor: str, fmt: Callable[..., str], args: tuple[Any, ...], options: tuple[Option, ...],
                 handler: Callable[[str], None], spans: list[tuple[int, int, bool | None]] | None,
                 memo: BreathList | None, span_targets: list[list[Any] | None] | None = None) -> None:
        self.actor = actor
        self.kind = "breath"
        self._prompt = None
        self._fmt = fmt
        self._args = args
        self.options = options
        self.handler = handler
        self.again = None
        self.spans = spans
        #: per span, the targets (maai Unit) of its options in order, or None (the options say)
        self.span_targets = span_targets
        self.memo = memo


def noted_options(st: Any, u: Any, hit: BreathList, plan: Plan) -> tuple[Option, ...]:
    """``hit`` with the lazy noted labels of ``plan`` for ``u``'s breath in state ``st`` (each
    made from the state as it is when first read; an AI reads none)."""
    if not plan:
        return tuple(hit)
    out = list(hit)
    for i, react, over in plan:
        out[i] = NotedOption(st, u, out[i], react, over)
    return tuple(out)
