"""`ikusa roll`: one BCDice-style dice-bot command, or a batch of them (issue #2 §4).

``ikusa roll [--system ID] [--dice 4,1,3] [--seed N] [--json] COMMAND`` prints BCDice's
text (``(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功``); text that is not a command prints nothing on
stdout (a one-line hint on stderr) and exits 0; an error is one line on stderr and exit code 2.  ``--json`` prints
``{"text", "success", "failure", "critical", "fumble", "secret", "dice"}``; a non-command
prints the same shape with ``"text": ""`` and every flag false.

``--dice`` scripts the dice in order: a value outside a die's range or too few dice is an
error, and so are scripted dice left over after the command ran (the script did not match
the command; nothing is printed).  A non-command consumes no dice and is not an error.

``--batch FILE`` (``-`` for stdin) reads JSON lines ``{"system": ID, "command": STR,
"dice": [ints]}`` (``system`` and ``dice`` optional, no other keys; blank lines skipped;
a line that is not UTF-8 is an error line) and writes one
JSON line per input line in the ``--json`` shape (a non-command gives ``"text": ""``).
A failing line gives ``{"error": MESSAGE, "line": N}`` and the batch goes on; the exit
code is 0 unless the file cannot be read.  Lines without ``dice`` draw from one random
source seeded by ``--seed`` (reproducible).  ``--system`` is the default for lines
without a ``system``.  ``DiceBot`` (any case) is the plain dice bot.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, BinaryIO

import typer

from ikusa.cli.common import err_console, fail, user_errors, write_json_line
from ikusa.dice.result import RollResult
from ikusa.dice.source import DiceSource, RandomSource, ScriptedSource, parse_dice_list
from ikusa.engine.errors import DiceError, IkusaError, InputError
from ikusa.engine.int_limit import is_int_limit_error, too_long_integer

#: the --json shape of a text that is not a command
EMPTY: dict[str, Any] = RollResult("").to_json()


def register(app: typer.Typer) -> None:
    """Add `roll` to the app."""
    app.command("roll")(roll_cmd)


def roll_cmd(
    command: Annotated[str | None, typer.Argument(help="The command, e.g. '2D6>=7' or 'x3 5B6>=4'.")] = None,
    system: Annotated[
        str | None, typer.Option(help="Game system id: DiceBot (default), maai (2D10+3>=11, options CE and "
                                      "one of F1+ F1- F2+ F2- FB appended: 2D10+3>=11CEFB), sengensyou "
                                      "(SGS+2>=10, DP3+7>=12, DPF3+7), fantasy (2D6+5>=12).")
    ] = None,
    dice: Annotated[str | None, typer.Option(help="Scripted dice in order, e.g. '4,1,3'.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for random dice: same seed, same result.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as one JSON object.")] = False,
    batch: Annotated[
        str | None, typer.Option(help="Read JSON lines {system, command, dice} from FILE ('-' = stdin).")
    ] = None,
) -> None:
    """Roll one BCDice-style command (or a batch of them) and print the result."""
    if batch is not None:
        if command is not None or dice is not None:
            fail("--batch takes its commands and dice from the file, not the command line")
        run_batch(batch, system, seed)
        return
    if command is None:
        fail("give a COMMAND (e.g. ikusa roll '2D6>=7') or --batch FILE")
    with user_errors():
        scripted = ScriptedSource(parse_dice_list(dice)) if dice is not None else None
        result = roll_one(command, system, scripted if scripted is not None else RandomSource(seed))
    if as_json:
        write_json_line(result.to_json() if result is not None else EMPTY)
    elif result is not None:
        sys.stdout.write(result.text + "\n")
        # the systems' notes (S-G01 even TN, S-R07 clamp, G-R03 diceless …) are in ``extra``;
        # a person at a terminal sees them on stderr, stdout stays BCDice's text
        for note in _warnings(result):
            err_console.print(f"note: {note}", markup=False, soft_wrap=True)
    else:
        # BCDice prints nothing for a non-command; a person at a terminal gets a hint on
        # stderr (stdout stays empty and the exit code 0, so bots see BCDice's behaviour)
        shown = command if len(command) <= 60 else command[:60] + "…"
        err_console.print(f"not a dice command for {system or 'DiceBot'}: {shown!r} (nothing rolled)",
                          markup=False, soft_wrap=True)


def _warnings(result: RollResult) -> list[str]:
    raw = result.extra.get("warnings", [])
    return [str(w) for w in raw] if isinstance(raw, list) else []


def roll_one(command: str, system: str | None, source: DiceSource) -> RollResult | None:
    """Dispatch through :func:`ikusa.api.roll`; scripted dice must all be used."""
    from ikusa.api import roll

    try:
        result = roll(command, system, dice=source)
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("ikusa.systems."):
            raise
        raise InputError(f"system {system!r} has no dice-bot commands yet", field="system") from None
    if result is not None and isinstance(source, ScriptedSource) and source.remaining:
        raise DiceError(
            f"{source.remaining} scripted dice left unused after {source.consumed} "
            f"(the command drew fewer dice than scripted)"
        )
    return result


def run_batch(path: str, system: str | None, seed: int | None) -> None:
    rng = RandomSource(seed)
    stream: BinaryIO
    if path == "-":
        stream = sys.stdin.buffer
    else:
        try:
            stream = Path(path).open("rb")
        except OSError as exc:
            fail(f"cannot read batch file {path}: {exc.strerror or exc}")
    with stream:
        for n, raw in enumerate(stream, 1):
            try:
                line = raw.decode("utf-8-sig")  # tolerate a byte-order mark
            except UnicodeDecodeError:
                # one bad line is an error line, like any other garbage; the batch goes on
                write_json_line({"error": "line: not UTF-8 text", "line": n})
                continue
            if not line.strip():
                continue
            try:
                write_json_line(batch_line(line, system, rng))
            except IkusaError as exc:
                write_json_line({"error": str(exc), "line": n})


def batch_line(line: str, default_system: str | None, rng: DiceSource) -> dict[str, Any]:
    """One batch line to its JSON answer (raises :class:`IkusaError` for a bad line)."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg}", field="line") from None
    except RecursionError:
        raise InputError("not a batch line: nested too deeply", field="line") from None
    except ValueError as exc:  # an integer longer than Python converts (#13): this line only
        if not is_int_limit_error(exc):
            raise
        raise too_long_integer(line, "json", "") from None
    if not isinstance(obj, dict):
        raise InputError("each line must be a JSON object {system, command, dice}")
    unknown = set(obj) - {"system", "command", "dice"}
    if unknown:
        raise InputError(f"unknown key(s) {sorted(unknown)}; a line has system, command, dice", field="line")
    command = obj.get("command")
    if not isinstance(command, str):
        raise InputError("'command' must be a string", field="command")
    system = obj.get("system", default_system)
    if system is not None and not isinstance(system, str):
        raise InputError("'system' must be a string", field="system")
    dice = obj.get("dice")
    source: DiceSource = rng
    if dice is not None:
        if not isinstance(dice, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in dice):
            raise InputError("'dice' must be a list of whole numbers", field="dice")
        source = ScriptedSource(dice)
    result = roll_one(command, system, source)
    return result.to_json() if result is not None else dict(EMPTY)
