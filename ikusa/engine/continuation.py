"""An action paused at a person's roll, kept alive until the dice arrive (issue #8 §1).

Table mode runs each entry's ``apply`` in a greenlet.  When a roll needs typed dice,
:class:`~ikusa.engine.dice_request.TableDice` calls :meth:`Continuation.wait`, which hands
the :class:`~ikusa.engine.dice_request.DiceRequest` back to the caller and parks the rules
code exactly where it asked; :meth:`Continuation.resume` continues it with the typed dice.
The rules modules never see the pause (they just called ``dice.roll``), and nothing is
replayed: the old way (stop with :class:`~ikusa.engine.dice_request.NeedDice`, rebuild the
state by replaying every entry, re-apply the action from its start with every die so far)
cost a full replay per typed roll (``bench/bench_dice_request.py``).

While parked, the state is the state *during* the action (the effects of the part already
resolved are in it, as are the events ``events_so_far()`` shows).  Whoever drops a paused
action (an undo, a ruling in the middle) calls :meth:`abort` and rebuilds the state.

A greenlet runs only on the thread that made it: :meth:`usable` says whether this thread
may resume it (a web server answers requests on a pool of threads).  When it may not, the
caller falls back to the replay: same dice, same result, only slower.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from greenlet import GreenletExit, getcurrent, greenlet

from ikusa.engine.dice_request import DiceRequest, Die
from ikusa.engine.events import Event

#: what :meth:`Continuation.start`/:meth:`~Continuation.resume` return: the roll waited
#: for, or the events of the finished action
Step = DiceRequest | list[Event]


class Continuation:
    """One entry's ``apply`` running in its own greenlet, parked at each person's roll."""

    __slots__ = ("_g", "_thread")

    def __init__(self, run: Callable[[], list[Event]]) -> None:
        def body(*_start: object) -> tuple[str, Any]:
            return ("done", run())

        self._g = greenlet(body)
        self._thread = threading.get_ident()

    # -- the caller's side ------------------------------------------------------------
    def start(self) -> Step:
        """Run the action until it finishes or waits for dice (its errors propagate)."""
        return self._switch(None)

    def resume(self, dice: list[Die]) -> Step:
        """Continue a parked action with the dice of its request."""
        return self._switch(dice)

    def usable(self) -> bool:
        """True if this thread may resume the parked action."""
        return not self._g.dead and threading.get_ident() == self._thread

    def abort(self) -> None:
        """End a parked action without finishing it (its state is to be rebuilt)."""
        if self.usable() and bool(self._g):
            self._g.parent = getcurrent()
            self._g.throw(GreenletExit)

    def _switch(self, value: list[Die] | None) -> Step:
        self._g.parent = getcurrent()
        tag, payload = self._g.switch(value)
        if tag == "need":
            assert isinstance(payload, DiceRequest)
            return payload
        events: list[Event] = payload
        return events

    # -- the rules code's side (inside the greenlet) ----------------------------------
    def wait(self, request: DiceRequest) -> list[Die]:
        """Park the action until :meth:`resume` brings the dice of ``request``."""
        parent = self._g.parent
        assert parent is not None
        dice: list[Die] = parent.switch(("need", request))
        return dice
