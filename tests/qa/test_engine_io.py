"""QA regressions for the generic drivers (engine/runner, engine/combat, cli fight/play/sim):
a user error is one line naming file and field, exit code 2, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ikusa.cli.main import app
from ikusa.cli.play import PlaySession
from ikusa.dice.source import RandomSource
from ikusa.engine.errors import DiceError, InputError
from ikusa.engine.runner import fight, load_log

runner = CliRunner()

pytestmark = pytest.mark.usefixtures("toy_system")


def _enc(tmp_path: Path, text: str = "system: toy\nhp: 6\n") -> Path:
    p = tmp_path / "enc.yaml"
    p.write_text(text, "utf-8")
    return p


def _saved_log(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    combat = fight(_enc(tmp_path), seed=3)
    log = tmp_path / "log.json"
    combat.save(log)
    return log, json.loads(log.read_text("utf-8"))


def test_fight_save_to_a_directory_is_one_line_exit_2(tmp_path: Path) -> None:
    """Was: IsADirectoryError traceback from Combat.save (exit 1)."""
    res = runner.invoke(app, ["fight", str(_enc(tmp_path)), "--seed", "1", "--save", str(tmp_path)])
    assert res.exit_code == 2
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert "cannot save the log" in res.stderr and str(tmp_path) in res.stderr


def test_play_save_to_unwritable_path_keeps_playing(tmp_path: Path) -> None:
    combat = fight(_enc(tmp_path), seed=1)
    combat.pop()
    answers = iter([f"save {tmp_path / 'no' / 'such' / 'dir.json'}", "quit"])
    PlaySession(combat, RandomSource(1), manual=False, ask=lambda _p: next(answers)).run()
    assert not (tmp_path / "no").exists()


def _edit(tmp_path: Path, data: dict[str, object]) -> Path:
    p = tmp_path / "edited.json"
    p.write_text(json.dumps(data), "utf-8")
    return p


def test_hand_edited_log_illegal_action_names_file_and_entry(tmp_path: Path) -> None:
    _, data = _saved_log(tmp_path)
    data["entries"][0]["action"] = "fly"  # type: ignore[index]
    p = _edit(tmp_path, data)
    with pytest.raises(InputError) as err:
        load_log(p)
    assert err.value.source == str(p) and err.value.field == "entries[0]"
    assert "T-R01" in str(err.value)


def test_hand_edited_log_wrong_actor_is_refused(tmp_path: Path) -> None:
    """Was: silently accepted (the actor was never checked)."""
    _, data = _saved_log(tmp_path)
    data["entries"][0]["actor"] = "b"  # type: ignore[index]
    with pytest.raises(InputError, match="recorded for 'b'") as err:
        load_log(_edit(tmp_path, data))
    assert err.value.field == "entries[0].actor"


def test_hand_edited_log_wrong_sides_is_refused(tmp_path: Path) -> None:
    """Was: a [value, sides] pair with the wrong sides replayed silently."""
    _, data = _saved_log(tmp_path)
    entry = next(e for e in data["entries"] if e["dice"])  # type: ignore[attr-defined]
    entry["dice"][0][1] = 20
    with pytest.raises(InputError, match=r"sides \[20\].*rolls \[6\]"):
        load_log(_edit(tmp_path, data))


@pytest.mark.parametrize("bad", [[[True, 6]], [[3, 6, 1]], [[3.5, 6]], [[3, 0]]])
def test_hand_edited_log_malformed_dice(tmp_path: Path, bad: list[list[object]]) -> None:
    """Was: ``[true, 6]`` was read as the die value 1."""
    _, data = _saved_log(tmp_path)
    data["entries"][0]["dice"] = bad  # type: ignore[index]
    with pytest.raises(InputError, match="value, sides"):
        load_log(_edit(tmp_path, data))


def test_hand_edited_log_unknown_entry_key(tmp_path: Path) -> None:
    _, data = _saved_log(tmp_path)
    data["entries"][0]["dcie"] = []  # type: ignore[index]
    with pytest.raises(InputError, match="unknown key"):
        load_log(_edit(tmp_path, data))


def test_hand_edited_log_extra_die_names_file(tmp_path: Path) -> None:
    _, data = _saved_log(tmp_path)
    entry = next(e for e in data["entries"] if e["dice"])  # type: ignore[attr-defined]
    entry["dice"].append([1, 6])
    p = _edit(tmp_path, data)
    with pytest.raises(DiceError, match="unused") as err:
        load_log(p)
    assert str(err.value).startswith(f"{p}:entries[")


def test_unedited_log_still_replays(tmp_path: Path) -> None:
    log, _ = _saved_log(tmp_path)
    assert load_log(log).state.summary() == fight(_enc(tmp_path), seed=3).state.summary()


def test_play_eof_while_typing_dice_leaves_cleanly(tmp_path: Path) -> None:
    """Was: EOF at a manual-dice prompt escaped as typer's 'Aborted.' with exit 1 (and the
    state could be left half-applied).  Now the action is refused and play ends."""
    res = runner.invoke(app, ["play", str(_enc(tmp_path)), "--dice", "manual"], input="attack\n")
    assert res.exit_code == 0, res.output
    assert "end of input" in res.output


def test_play_after_the_end_answers_unknown_input(tmp_path: Path) -> None:
    """Was: at the '(combat over)' prompt, any other input (a number, 'ai') was silently
    ignored; and undo there re-printed the whole log."""
    res = runner.invoke(app, ["play", str(_enc(tmp_path, "system: toy\nhp: 1\n")), "--seed", "2"],
                        input="ai\n" * 8 + "1\nundo\nquit\n")
    assert res.exit_code == 0, res.output
    assert "the combat is over; '1' is not available here" in res.stderr
    assert "undone:" in res.stdout
    assert res.stdout.count("ikusa play") == 1


def test_play_file_and_load_together_is_refused(tmp_path: Path) -> None:
    """Was: FILE was silently ignored when --load was given too."""
    log, _ = _saved_log(tmp_path)
    res = runner.invoke(app, ["play", str(_enc(tmp_path)), "--load", str(log)], input="quit\n")
    assert res.exit_code == 2 and "not both" in res.stderr


def test_play_superscript_digit_is_refused_not_a_traceback(tmp_path: Path) -> None:
    """Was: '²' passed str.isdigit() and int('²') raised ValueError (traceback)."""
    res = runner.invoke(app, ["play", str(_enc(tmp_path)), "--seed", "1"], input="²\n１\nquit\n")
    assert res.exit_code == 0, res.output
    assert "refused" in res.stderr  # '²' is neither a number nor a key
    assert "a rolls" in res.stdout  # full-width '１' chose option 1 (attack)


def test_fight_save_over_the_encounter_is_refused(tmp_path: Path) -> None:
    """Was: ``ikusa fight enc.yaml --save enc.yaml`` replaced the encounter by the log."""
    enc = _enc(tmp_path)
    before = enc.read_text("utf-8")
    res = runner.invoke(app, ["fight", str(enc), "--seed", "1", "--save", str(enc)])
    assert res.exit_code == 2 and "refusing to overwrite" in res.stderr
    assert enc.read_text("utf-8") == before


def test_play_save_over_the_encounter_is_refused_but_over_the_log_is_fine(tmp_path: Path) -> None:
    enc = _enc(tmp_path)
    before = enc.read_text("utf-8")
    res = runner.invoke(app, ["play", str(enc), "--seed", "1"], input=f"1\nsave {enc}\nquit\n")
    assert res.exit_code == 0 and "refusing to overwrite" in res.stderr
    assert enc.read_text("utf-8") == before
    log, _ = _saved_log(tmp_path)
    res = runner.invoke(app, ["play", "--load", str(log)], input=f"undo\nsave {log}\nquit\n")
    assert res.exit_code == 0 and "saved" in res.stdout


def test_manual_dice_empty_line_asks_again(tmp_path: Path) -> None:
    """Was: an empty line at the manual-dice prompt silently rolled software dice,
    though the prompt says "values, or 'r' to roll"."""
    res = runner.invoke(app, ["play", str(_enc(tmp_path)), "--dice", "manual"], input="1\n\n\n5\nquit\n")
    assert res.exit_code == 0, res.output
    assert "a rolls 5" in res.stdout
