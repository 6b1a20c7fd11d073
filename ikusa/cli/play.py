"""`ikusa play FILE`: run an encounter at the table, in the terminal (issue #8 §5).

The terminal resolves what no human needs to answer — decisions of ``ai:<policy>`` units
and dice of rollers on ``auto`` — and asks only the people: the GM's and players'
decisions (a short menu grouped by target with cost and odds; ``all`` for the full list)
and manual dice (all of a roll's dice on one line).  A standing tracker shows the board
after each entry.  GM rulings (``!set``, ``!effect``, ``!undo``, ``!redo``, ``!reroll``,
``!control`` …, see ``!help``) work at any prompt.  The combat is saved after every entry
(next to the encounter, or at ``--save``); Ctrl-C and ``quit`` never lose it and
``ikusa play --load LOG`` resumes it.
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
from ikusa.cli.gm_commands import HELP as GM_HELP
from ikusa.cli.gm_commands import RecordCommand, parse_gm
from ikusa.cli.manual_dice import dice_hint, read_dice
from ikusa.cli.menus import grouped, hidden_fate, only_declining_fate, read_choice, short
from ikusa.cli.play_setup import apply_control_flags, autosave_path
from ikusa.cli.tracker import show_board
from ikusa.dice.source import DiceSource, RandomSource
from ikusa.engine.combat import Combat
from ikusa.engine.control import DICE_MODES, DiceMode
from ikusa.engine.dice_request import DiceRequest
from ikusa.engine.driver import AutoPilot
from ikusa.engine.errors import IkusaError, InputError
from ikusa.engine.events import Event
from ikusa.engine.protocol import Decision
from ikusa.systems.registry import load_system

HELP = (
    "number or option key = choose · text = filter · all = every option · undo · redo · "
    "save FILE · log · board · state · ai (AI picks this one) · dice auto|manual|ask · "
    "fate all|better · !help = GM commands · help · quit"
)


def register(app: typer.Typer) -> None:
    app.command("play")(play_cmd)


def play_cmd(
    file: Annotated[Path | None, typer.Argument(help="Encounter file (YAML, TOML or JSON).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for software dice and the AI helper.")] = None,
    dice: Annotated[str | None, typer.Option(
        help="This terminal's dice for every roller: auto (software), manual (type physical dice) or ask "
             "(per roll). Without it, each unit's control: dice mode applies.")] = None,
    load: Annotated[Path | None, typer.Option(
        help="Resume a saved log (or autosave) instead of a fresh encounter.")] = None,
    ai: Annotated[str, typer.Option(help="AI policy used by the 'ai' command.")] = "greedy",
    control: Annotated[list[str] | None, typer.Option(
        "--control", help="Who decides / rolls, as in the encounter's control: section: "
                          "SIDE|UNIT|default|gm=CONTROLLER[,DICE] (e.g. 敵=ai:greedy, 味方=player:alice,manual). "
                          "Repeatable.")] = None,
    save: Annotated[Path | None, typer.Option(
        help="Autosave here after every entry (default: next to the encounter as NAME.play.json; "
             "with --load: the log itself).")] = None,
    autosave: Annotated[bool, typer.Option(help="Save after every entry.")] = True,
    all_fate: Annotated[bool, typer.Option(help="Offer every fate intervention, not only those that help.")] = False,
) -> None:
    """Play an encounter at the table: AI units and auto dice run by themselves; people are
    asked for their decisions and their typed dice.

    Dice prompt: 3 5 6 1 (all dice on one line; 0 = a d10's 10) · =17 (a pool's sum) · roll · undo

    Any prompt: number/key · all · undo · redo · save FILE · log · board · ai · !help (GM rulings) · quit"""
    from ikusa.engine.runner import ai_rng, load_encounter, load_log, policy_for, run_script

    mode: DiceMode | None = None
    with user_errors():
        if dice is not None and dice not in DICE_MODES:
            raise IkusaError(f"--dice must be 'auto', 'manual' or 'ask', not {dice!r}")
        mode = None if dice is None else next(m for m in DICE_MODES if m == dice)
    auto_dice = RandomSource(seed)  # one dice stream for the script and the session, as in fight
    with user_errors():
        if load is not None and file is not None:
            raise IkusaError("give an encounter FILE or --load LOG, not both (a log carries its own setup)")
        if load is not None:
            if control:
                raise IkusaError("--control applies to a new encounter; in a loaded combat use !control")
            combat = load_log(load, auto_dice)
            module = load_system(combat.system)
        elif file is not None:
            loaded = load_encounter(file)
            apply_control_flags(loaded, control or [])
            combat = loaded.new_combat()
            combat.auto_dice = auto_dice
            module = loaded.module
            run_script(combat, loaded, auto_dice)
        else:
            raise IkusaError("give an encounter FILE or --load LOG")
        policy = policy_for(module, ai)
        path = autosave_path(file, load, save) if autosave else None
        if path is not None and file is not None:
            refuse_overwrite(path, file)
    session = PlaySession(combat, auto_dice, manual=mode == "manual", ask=_ask_line)
    if mode is not None:
        session.set_dice(mode, quiet=True)
    session.protected = [file] if file is not None else []
    session.rng = ai_rng(seed)
    session.policy_choose = lambda decision: policy.choose(combat.state, decision, session.rng)
    session.autosave = path
    session.all_fate = all_fate
    try:
        session.run()
    except KeyboardInterrupt:
        session.save_now()
        where = f"; resume with --load {escape(str(path))}" if path is not None else ""
        console.print(f"\n中断 (Ctrl-C): nothing is lost{where}")
        raise typer.Exit(130) from None


def _ask_line(prompt: str) -> str:
    return console.input(escape(prompt))


class PlaySession:
    """The interactive loop, separated from typer so tests can drive it with scripted input."""

    def __init__(self, combat: Combat, auto_dice: DiceSource, *, manual: bool,
                 ask: Callable[[str], str]) -> None:
        self.combat = combat
        self.auto_dice = auto_dice
        combat.auto_dice = auto_dice
        self.ask = ask
        self.rng = random.Random()
        self.policy_choose: Callable[[Decision], str] | None = None
        self.done = False
        #: files 'save' must not overwrite: the encounter being played (re-saving over the
        #: --load log is fine: that is how a GM updates a saved game)
        self.protected: list[Path] = []
        self.autosave: Path | None = None
        self.all_fate = False
        #: how many prompts a person was shown (decisions and dice): the table's workload
        self.prompts = 0
        self._pilot: AutoPilot | None = None
        self._board_at = -1
        self._shown_partial = 0
        self._shown_rolls = 0
        self._save_warned = False
        self._menu_mark: tuple[object, ...] = ()
        if manual:
            self.set_dice("manual", quiet=True)

    # -- settings -----------------------------------------------------------------
    @property
    def manual(self) -> bool:
        return self.combat.dice_override == "manual"

    def set_dice(self, mode: DiceMode | None, quiet: bool = False) -> None:
        self.combat.dice_override = mode
        if not quiet:
            console.print(f"  dice: {mode or 'per unit (control)'}")

    @property
    def pilot(self) -> AutoPilot:
        if self._pilot is None:
            self._pilot = AutoPilot(load_system(self.combat.system), self.rng)
        self._pilot.rng = self.rng
        return self._pilot

    # -- the loop -----------------------------------------------------------------
    def run(self) -> None:
        console.print(f"[bold]ikusa play[/] · {escape(self.combat.system)} · {escape(HELP)}")
        self.show_events(self.combat.events)
        self._loop()

    def _loop(self) -> None:
        while not self.done:
            if not self._auto():
                return
            w = self.combat.awaiting()
            if w is None:
                console.rule("[bold]終了 (combat over)[/]")
                self.show_board(force=True)
                self.show_state()
                self._after_end()
                return
            self.show_board()
            self.prompts += 1
            if isinstance(w, DiceRequest):
                self._dice_prompt(w)
            else:
                self._decision_prompt(w)

    def _auto(self) -> bool:
        """AI decisions, forced answers (one option; fate that cannot help); False = stop."""
        while True:
            try:
                events = self.pilot.run(self.combat)
            except IkusaError as exc:
                err_console.print(f"  [red]AI stopped:[/] {escape(str(exc))}")
                return True
            if events:
                self.show_events(events)
                self.after_entry()
            w = self.combat.awaiting()
            if not isinstance(w, Decision):
                return True
            if len(w.options) == 1:
                key = w.options[0].key
                note = "唯一の選択肢"
            elif only_declining_fate(w, self.all_fate):
                key = "nofate"
                note = "運命介入で結果は良くならない"
            else:
                return True
            label = w.options[0].label if key != "nofate" else "運命介入しない"
            console.print(f"  {escape(self.name(w.actor))}: {escape(label)} [dim]({note})[/]")
            if not self._push(key):
                return True

    # -- decisions ----------------------------------------------------------------
    def _decision_prompt(self, d: Decision) -> None:
        mark = (len(self.combat.record), len(self.combat.redo_stack), d.actor, d.kind, d.prompt)
        if mark != self._menu_mark:  # a command or a refusal does not repeat the whole menu
            self.show_decision(d)
            self._menu_mark = mark
        try:
            raw = self.ask("> ").strip()
        except EOFError:
            self._leave("end of input")
            return
        self.handle(raw, d)

    def handle(self, raw: str, decision: Decision) -> None:
        if not raw:
            return
        if self._command(raw):
            return
        if raw in ("all", "menu"):
            self.show_decision(decision, full=raw == "all")
            return
        if raw == "ai":
            if self.policy_choose is None:
                err_console.print("no AI policy available")
                return
            raw = self.policy_choose(decision)
            console.print(f"  AI → {escape(raw)}")
            self._push(raw)
            return
        choice = read_choice(raw, decision)
        if choice.error:
            err_console.print(f"  [red]refused:[/] {escape(choice.error)}")
            return
        if choice.needle:
            self.show_decision(decision, needle=choice.needle, full=True)
            return
        if choice.key:
            self._push(choice.key)

    def _push(self, key: str) -> bool:
        try:
            events = self.combat.push(key)
        except IkusaError as exc:
            err_console.print(f"  [red]refused:[/] {escape(str(exc))}")
            return False
        self._entered(events)
        return True

    def _entered(self, events: list[Event]) -> None:
        """Show what an entry caused (skipping what the waiting action showed already)."""
        if self.combat.partial is None:
            self.show_events(events[self._shown_partial:])
            self._shown_partial = self._shown_rolls = 0
        self.after_entry()

    # -- dice ---------------------------------------------------------------------
    def _dice_prompt(self, req: DiceRequest) -> None:
        new = self.combat.partial_events[self._shown_partial:]
        if new:
            self.show_events(new)
            self._shown_partial += len(new)
        for purpose, values in req.earlier[self._shown_rolls:]:
            console.print(f"  出目: {escape(purpose)} [{', '.join(map(str, values))}] = {sum(values)}")
        self._shown_rolls = len(req.earlier)
        who = self.name(req.roller)
        what = req.purpose if req.purpose.startswith(who) else f"{who}: {req.purpose}"
        hint = "roll = ソフト" if req.mode == "ask" else "roll · help"
        if req.sum_only and req.count > 1:
            hint = "合計だけでも可 · " + hint
        try:
            raw = self.ask(f"  🎲 {what} {req.notation} ({hint}) > ").strip()
        except EOFError:
            # the action stays waiting in the autosave: nothing half-applied, nothing lost
            self._leave("end of input while waiting for typed dice; the action was not applied")
            return
        if not raw:
            return  # an accidental Enter must not roll for the table: type values or 'roll'
        word = raw.lower()
        try:
            if word in ("r", "roll"):
                events = self.combat.roll_pending()
            elif word in ("undo", "cancel"):
                self._undo()
                return
            elif word in ("quit", "q", "exit"):
                self._leave("quit")
                return
            elif word.startswith("dice "):
                self._command(raw)
                if word == "dice auto":
                    self._entered(self.combat.roll_pending())
                return
            elif word in ("help", "?"):
                console.print("  " + escape(dice_hint(req)))
                return
            elif raw.startswith(("!", "！")):
                self._gm(raw[1:])
                return
            elif self._command(raw):
                return
            else:
                typed = read_dice(raw, req)
                if typed.total is not None:
                    events = self.combat.supply_sum(typed.total, by=self._typist(req))
                else:
                    assert typed.values is not None
                    events = self.combat.supply(typed.values, by=self._typist(req))
        except IkusaError as exc:
            err_console.print(f"  {escape(str(exc))}")  # the roll is still waiting: ask again
            return
        self._entered(events)

    def _typist(self, req: DiceRequest) -> str:
        """Who typed the dice: the unit's player, or the GM (who types for GM/AI units)."""
        ctl = self.combat.control.of(req.roller)
        return ctl.controller if ctl.kind == "player" else "GM"

    # -- GM rulings ---------------------------------------------------------------
    def _gm(self, text: str) -> None:
        roster = self.combat.roster()
        units = {u for u, _, _ in roster} | {n for _, n, _ in roster}
        sides = {s for _, _, s in roster}
        try:
            cmd = parse_gm(text, units, sides)
            if isinstance(cmd, RecordCommand):
                self._record_command(cmd)
                return
            if isinstance(cmd.get("unit"), str) and cmd["unit"] != "GM":
                cmd["unit"] = self.combat.control.check_unit(cmd["unit"], "<ruling>", "unit")
            events = self.combat.rule(cmd)
        except IkusaError as exc:
            err_console.print(f"  [red]refused:[/] {escape(str(exc))}")
            return
        self._entered(events)

    def _record_command(self, cmd: RecordCommand) -> None:
        if cmd.name == "help":
            console.print(escape(GM_HELP))
        elif cmd.name == "undo":
            self._undo()
        elif cmd.name == "redo":
            self._redo()
        else:
            try:
                events = self.combat.reroll(cmd.reason)
            except IkusaError as exc:
                err_console.print(f"  [red]refused:[/] {escape(str(exc))}")
                return
            console.print("  GM: 振り直し (reroll) — the old dice stay in the log")
            self._entered(events)

    # -- commands -----------------------------------------------------------------
    def _command(self, raw: str) -> bool:
        word, _, rest = raw.partition(" ")
        low = word.lower()
        if raw.startswith(("!", "！")):
            self._gm(raw[1:])
            return True
        if low in ("quit", "q", "exit"):
            self._leave("quit")
            return True
        if low in ("help", "?"):
            console.print(escape(HELP))
            return True
        if low == "undo":
            self._undo()
            return True
        if low == "redo":
            self._redo()
            return True
        if low == "log":
            self.show_events(self.combat.events[-30:])
            return True
        if low == "state":
            self.show_state()
            return True
        if low == "board":
            self.show_board(force=True)
            return True
        if low == "fate":
            self.all_fate = rest.strip() == "all"
            console.print(f"  fate: {'every intervention' if self.all_fate else 'only those that help'}")
            return True
        if low == "save":
            return self._save_cmd(rest.strip())
        if low == "dice":
            mode = rest.strip()
            if mode not in (*DICE_MODES, "control"):
                err_console.print("  usage: dice auto|manual|ask|control")
                return True
            self.set_dice(None if mode == "control" else next(m for m in DICE_MODES if m == mode))
            return True
        return False

    def _save_cmd(self, path: str) -> bool:
        if not path:
            err_console.print("  usage: save FILE")
            return True
        try:
            refuse_overwrite(path, *self.protected)
            self.combat.save(path)
        except IkusaError as exc:
            err_console.print(f"  {escape(str(exc))}")
            return True
        console.print(f"  saved {len(self.combat.record)} decisions to {escape(path)}")
        return True

    def _undo(self) -> None:
        try:
            entry = self.combat.undo()
        except IkusaError as exc:
            err_console.print(f"  {escape(str(exc))}")
            return
        self._shown_partial = self._shown_rolls = 0
        kept = f" (dice kept: {', '.join(str(v) for v, _ in entry.dice)})" if entry.dice else ""
        console.print(f"  undone: {escape(self.name(entry.actor))} {escape(entry.action)}{kept}")
        self.after_entry()

    def _redo(self) -> None:
        try:
            top = self.combat.redo_stack[-1] if self.combat.redo_stack else None
            events = self.combat.redo()
        except IkusaError as exc:
            err_console.print(f"  {escape(str(exc))}")
            return
        if top is not None:
            console.print(f"  redone: {escape(self.name(top.actor))} {escape(top.action)}")
        self._entered(events)

    def _leave(self, why: str) -> None:
        self.done = True
        self.save_now()
        where = f"; saved to {self.autosave} (resume with --load)" if self.autosave is not None else ""
        console.print(escape(f"{why}; leaving{where}"))

    def after_entry(self) -> None:
        self.save_now()

    def save_now(self) -> None:
        if self.autosave is None:
            return
        try:
            self.combat.save(self.autosave)
        except InputError as exc:
            if not self._save_warned:
                err_console.print(f"  [red]autosave failed:[/] {escape(str(exc))}")
                self._save_warned = True

    def _after_end(self) -> None:
        while True:
            try:
                raw = self.ask("(combat over) undo · save FILE · log · state · quit > ").strip()
            except EOFError:
                return
            if raw in ("quit", "q", "exit", ""):
                self.save_now()
                return
            if raw in ("undo", "!undo"):
                self._undo()
                return self._loop()
            if raw.startswith(("!", "！")) or raw.split(" ")[0] in ("save", "log", "state", "board", "help", "?"):
                self._command(raw)
                if not self.combat.over:
                    return self._loop()
                continue
            err_console.print(f"  the combat is over; {escape(repr(raw))} is not available here "
                              "(undo · save FILE · log · state · quit)")

    # -- display ------------------------------------------------------------------
    def name(self, unit: str) -> str:
        return self.combat.control.name_of(unit)

    def show_board(self, force: bool = False) -> None:
        n = len(self.combat.record)
        if not force and n == self._board_at:
            return
        self._board_at = n
        try:
            show_board(console, self.combat.system, self.combat.state, self.combat.control)
        except Exception as exc:  # pragma: no cover - a board bug must not end the session
            err_console.print(f"  (board unavailable: {escape(str(exc))})")

    def show_decision(self, d: Decision, needle: str = "", full: bool = False) -> None:
        if not needle:
            ctl = self.combat.control.of(d.actor)
            console.rule(f"[bold]{escape(self.name(d.actor))}[/] · {escape(d.kind)} · {escape(ctl.label())}")
            console.print(escape(d.prompt))
        hidden = set() if needle else hidden_fate(d, self.all_fate)
        groups = grouped(d, {u: n for u, n, _ in self.combat.roster()}, hidden, needle)
        total = sum(len(r) for _, r in groups)
        shown, left = (groups, 0) if full else short(groups, total)
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        for col, just in (("#", "right"), ("option", "left"), ("cost", "right"), ("odds", "right"), ("key", "left")):
            table.add_column(col, justify=just, style="dim" if col == "key" else None)  # type: ignore[arg-type]
        for label, rows in shown:
            if label and len(shown) > 1:
                table.add_row("", f"[bold]{escape(label)}[/]", "", "", "")
            for i, o in rows:
                table.add_row(str(i), escape(o.label), "" if o.cost is None else str(o.cost),
                              "" if o.odds is None else f"{o.odds:.0%}", escape(o.key))
        console.print(table)
        if left:
            console.print(f"  … {left} more: 'all' lists every option, or type part of a key or label")
        if hidden:
            console.print(f"  ({len(hidden)} fate option(s) that do not help hidden: 'fate all' shows them)")
        if needle and not total:
            console.print(f"  no option matches {escape(repr(needle))}")

    def show_events(self, events: list[Event]) -> None:
        for e in events:
            rule = f" [dim]({escape(e.rule)})[/]" if e.rule else ""
            console.print("  " + escape(e.text) + rule, soft_wrap=True)

    def show_state(self) -> None:
        console.print_json(data=self.combat.state.summary())
