"""`ikusa play FILE`: run an encounter interactively in the terminal.

At every prompt the GM sees whose decision it is, the legal options with their costs and
odds, and types a number or an option key.  Dice are rolled by the software or typed from
physical dice (``--dice manual``, or ``dice manual`` at any prompt).  ``undo``, ``save
FILE``, ``log``, ``state``, ``ai`` (let the AI choose this once), ``help`` and ``quit``
work at any prompt.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from ikusa.cli.common import console, err_console, refuse_overwrite, user_errors
from ikusa.dice.source import DiceSource, ManualSource, RandomSource, parse_dice_list
from ikusa.engine.combat import Combat
from ikusa.engine.errors import DiceError, IkusaError
from ikusa.engine.events import Event
from ikusa.engine.protocol import Decision
from ikusa.systems.registry import load_system

HELP = (
    "number or option key = choose · other text = filter the options · all = list every option · undo · "
    "save FILE · log · state · ai (AI picks this one) · dice auto|manual · help · quit"
)

#: longer option lists are cut to this many rows; type text to filter them
MAX_ROWS = 40


def register(app: typer.Typer) -> None:
    app.command("play")(play_cmd)


def play_cmd(
    file: Annotated[Path | None, typer.Argument(help="Encounter file (YAML, TOML or JSON).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for software dice and the AI helper.")] = None,
    dice: Annotated[str, typer.Option(help="'auto' (software rolls) or 'manual' (type physical dice).")] = "auto",
    load: Annotated[Path | None, typer.Option(help="Resume a saved log instead of a fresh encounter.")] = None,
    ai: Annotated[str, typer.Option(help="AI policy used by the 'ai' command.")] = "greedy",
) -> None:
    """Play an encounter interactively: choose every decision, roll or type every die.

    At every prompt: a number or option key · undo · save FILE · log · state · ai · help · quit

    --dice manual: type the dice as 4,1 (or 'r' to roll); 'dice auto|manual' switches."""
    from ikusa.engine.runner import ai_rng, load_encounter, load_log, policy_for, run_script

    if dice not in ("auto", "manual"):
        with user_errors():
            raise IkusaError(f"--dice must be 'auto' or 'manual', not {dice!r}")
    auto_dice = RandomSource(seed)  # one dice stream for the script and the session, as in fight
    with user_errors():
        if load is not None and file is not None:
            raise IkusaError("give an encounter FILE or --load LOG, not both (a log carries its own setup)")
        if load is not None:
            combat = load_log(load)
            module = load_system(combat.system)
        elif file is not None:
            loaded = load_encounter(file)
            combat = loaded.new_combat()
            module = loaded.module
            run_script(combat, loaded, auto_dice)
        else:
            raise IkusaError("give an encounter FILE or --load LOG")
        policy = policy_for(module, ai)
    session = PlaySession(combat, auto_dice, manual=dice == "manual", ask=_ask_line)
    session.protected = [file] if file is not None else []
    session.policy_choose = lambda decision: policy.choose(combat.state, decision, session.rng)
    session.rng = ai_rng(seed)
    session.run()


def _ask_line(prompt: str) -> str:
    return console.input(prompt)


class PlaySession:
    """The interactive loop, separated from typer so tests can drive it with scripted input."""

    def __init__(self, combat: Combat, auto_dice: DiceSource, *, manual: bool,
                 ask: Callable[[str], str]) -> None:
        self.combat = combat
        self.auto_dice = auto_dice
        self.manual = manual
        self.ask = ask
        self.rng = random.Random()
        self.policy_choose: Callable[[Decision], str] | None = None
        self.done = False
        #: files 'save' must not overwrite: the encounter being played (re-saving over the
        #: --load log is fine: that is how a GM updates a saved game)
        self.protected: list[Path] = []

    # -- dice ---------------------------------------------------------------------
    def _typed(self, sides: int, count: int, purpose: str) -> list[int]:
        while True:
            try:
                raw = self.ask(f"  🎲 {count}d{sides} {purpose} (values, 'r' to roll, 'undo' to cancel): ").strip()
            except EOFError:
                # a DiceError makes Combat.push rebuild the state: nothing half-applied
                raise DiceError("end of input while waiting for typed dice; the action was not applied") from None
            if not raw:
                continue  # an accidental Enter must not roll for the table: type values or 'r'
            word = raw.lower()
            if word in ("r", "roll"):
                return self.auto_dice.roll(sides, count, purpose)
            if word in ("undo", "cancel", "quit", "q", "exit"):
                # back out of the action being resolved (the DiceError makes Combat.push rebuild
                # the state: nothing half-applied, nothing recorded); 'quit' then leaves
                self.done = word in ("quit", "q", "exit")
                raise DiceError(f"'{word}' at the dice prompt: the action was not applied (nothing recorded)")
            if word == "dice auto":
                self.manual = False
                console.print("  dice: auto")
                return self.auto_dice.roll(sides, count, purpose)
            if word in ("help", "?"):
                console.print(f"  type {count} value(s) 1..{sides} (e.g. {','.join(['4'] * count)}), 'r' to roll "
                              "this one, 'dice auto' to roll from now on, 'undo' to cancel this action")
                continue
            try:
                return parse_dice_list(raw)
            except DiceError as exc:
                err_console.print(f"  {_esc(str(exc))}")

    def dice(self) -> DiceSource:
        return ManualSource(self._typed) if self.manual else self.auto_dice

    # -- display ------------------------------------------------------------------
    def show_decision(self, d: Decision, needle: str = "", limit: int | None = MAX_ROWS) -> None:
        if not needle:
            console.rule(f"[bold]{_esc(d.actor)}[/] · {_esc(d.kind)}")
            console.print(_esc(d.prompt))
        rows = [(i, o) for i, o in enumerate(d.options, 1)
                if not needle or needle.lower() in o.key.lower() or needle in o.label]
        shown = rows if limit is None else rows[:limit]
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        table.add_column("#", justify="right")
        table.add_column("option")
        table.add_column("cost", justify="right")
        table.add_column("odds", justify="right")
        table.add_column("key", style="dim")
        for i, o in shown:
            table.add_row(str(i), _esc(o.label), "" if o.cost is None else str(o.cost),
                          "" if o.odds is None else f"{o.odds:.0%}", _esc(o.key))
        console.print(table)
        if len(shown) < len(rows):
            console.print(f"  … {len(rows) - len(shown)} more: type part of a key or label to filter, 'all' to list")
        elif needle and not rows:
            console.print(f"  no option matches {_esc(repr(needle))}")

    def show_events(self, events: list[Event]) -> None:
        for e in events:
            rule = f" [dim]({e.rule})[/]" if e.rule else ""
            console.print("  " + _esc(e.text) + rule, soft_wrap=True)

    def show_state(self) -> None:
        console.print_json(data=self.combat.state.summary())

    # -- loop ---------------------------------------------------------------------
    def run(self) -> None:
        console.print(f"[bold]ikusa play[/] · {self.combat.system} · {HELP}")
        self.show_events(self.combat.events)
        self._loop()

    def _loop(self) -> None:
        while not self.done:
            decision = self.combat.pending()
            if decision is None:
                console.rule("[bold]終了 (combat over)[/]")
                self.show_state()
                self._after_end()
                return
            self.show_decision(decision)
            try:
                raw = self.ask("> ").strip()
            except EOFError:
                console.print("end of input; leaving (use 'save FILE' to keep a log)")
                return
            self.handle(raw, decision)

    def _after_end(self) -> None:
        while True:
            try:
                raw = self.ask("(combat over) undo · save FILE · log · state · quit > ").strip()
            except EOFError:
                return
            if raw in ("quit", "q", "exit", ""):
                return
            if raw == "undo":
                self._undo()
                return self._loop()
            if not self._command(raw):
                err_console.print(f"  the combat is over; {_esc(repr(raw))} is not available here "
                                  "(undo · save FILE · log · state · quit)")

    def handle(self, raw: str, decision: Decision) -> None:
        if not raw:
            return
        if self._command(raw):
            return
        if raw == "undo":
            self._undo()
            return
        if raw == "all":
            self.show_decision(decision, limit=None)
            return
        if raw == "ai":
            if self.policy_choose is None:
                err_console.print("no AI policy available")
                return
            raw = self.policy_choose(decision)
            console.print(f"  AI → {_esc(raw)}")
        key = raw
        if not raw.isdecimal() and decision.option(raw) is None and _matches(decision, raw):
            self.show_decision(decision, needle=raw, limit=None)
            return
        if raw.isdecimal():  # "3" or full-width "３"; not isdigit(), which lets "²" through to int()
            n = int(raw)
            if not 1 <= n <= len(decision.options):
                err_console.print(f"  choose 1..{len(decision.options)}")
                return
            key = decision.options[n - 1].key
        try:
            events = self.combat.push(key, self.dice())
        except IkusaError as exc:
            err_console.print(f"  [red]refused:[/] {_esc(str(exc))}")
            return
        self.show_events(events)

    def _command(self, raw: str) -> bool:
        word, _, rest = raw.partition(" ")
        if word in ("quit", "q", "exit"):
            self.done = True
            return True
        if word in ("help", "?"):
            console.print(HELP)
            return True
        if word == "log":
            self.show_events(self.combat.events[-30:])
            return True
        if word == "state":
            self.show_state()
            return True
        if word == "save":
            path = rest.strip()
            if not path:
                err_console.print("  usage: save FILE")
                return True
            try:
                refuse_overwrite(path, *self.protected)
                self.combat.save(path)
            except IkusaError as exc:
                err_console.print(f"  {_esc(str(exc))}")
                return True
            console.print(f"  saved {len(self.combat.record)} decisions to {_esc(path)}")
            return True
        if word == "dice":
            mode = rest.strip()
            if mode not in ("auto", "manual"):
                err_console.print("  usage: dice auto|manual")
                return True
            self.manual = mode == "manual"
            console.print(f"  dice: {mode}")
            return True
        return False

    def _undo(self) -> None:
        try:
            entry = self.combat.pop()
        except IkusaError as exc:
            err_console.print(f"  {_esc(str(exc))}")
            return
        console.print(f"  undone: {_esc(entry.actor)} {_esc(entry.action)}")


def _matches(decision: Decision, needle: str) -> bool:
    low = needle.lower()
    return any(low in o.key.lower() or needle in o.label for o in decision.options)


def _esc(text: str) -> str:
    """Text from files and users is shown as is, never read as rich markup."""
    return escape(text)
