"""A scripted ``ikusa play`` session in a real terminal (pexpect), issue #8 "done when":
a GM runs a maai battle with the NPC on ai:greedy and auto dice and the PC on manual dice,
makes two rulings, applies an effect that expires by itself, undoes an action and
re-applies it with the same dice, redoes, presses Ctrl-C, and resumes from the autosave to
the same state."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pexpect

from tests.child_signals import default_sigint

ROOT = Path(__file__).resolve().parents[2]
PROMPT = r"> $"


def _spawn(args: list[str], cwd: Path) -> pexpect.spawn:
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm", "COLUMNS": "200", "PYTHONUNBUFFERED": "1"}
    child = pexpect.spawn(sys.executable, ["-c", "from ikusa.cli.main import app; app()", *args], cwd=str(cwd),
                          env=env, encoding="utf-8", timeout=60, dimensions=(60, 200),
                          preexec_fn=default_sigint)
    return child


def _say(child: pexpect.spawn, line: str, expect: str = PROMPT) -> str:
    """Send ``line`` and wait for ``expect`` (the next prompt by default); the output between."""
    child.sendline(line)
    child.expect(expect)
    return str(child.before)


def test_gm_session_rulings_effect_undo_redo_ctrl_c_resume(tmp_path: Path) -> None:
    (tmp_path / "duel.yaml").write_text((ROOT / "examples" / "maai" / "duel.yaml").read_text("utf-8"), "utf-8")
    child = _spawn(["play", "duel.yaml", "--seed", "5", "--control", "敵=ai:greedy", "--control", "味方=manual"],
                   tmp_path)
    child.expect(PROMPT)
    first = str(child.before)
    assert "活力" in first and "戦力" in first and "AI greedy" in first  # the tracker and who controls

    # two GM rulings and an effect that lasts until the NPC's own next breath
    out = _say(child, "!set yagyu wounds 2 かすり傷")
    assert "槍の将 戦力 3→2" in out and "かすり傷" in out
    out = _say(child, "!effect yagyu 毒 defense=-1 for breath 毒霧を吸った")
    assert "効果「毒」" in out

    # the PC attacks; its dice are typed; undo keeps them; the same attack again reuses them
    out = _say(child, "use:katana.yokogiri>yagyu", r"🎲 .*2D10.*> $")
    out = _say(child, "3 5")
    assert "2D10[3,5]" in out
    hit_line = next(line for line in out.splitlines() if "2D10[3,5]" in line)
    out = _say(child, "undo")
    assert "undone:" in out and "dice kept: 3, 5" in out
    out = _say(child, "use:katana.yokogiri>yagyu")  # no dice prompt: the kept dice
    assert hit_line.strip() in out and "🎲" not in out
    out = _say(child, "undo")
    out = _say(child, "redo")
    assert "redone:" in out and hit_line.strip() in out

    # 防備 −1 made fate worth offering (12 vs 13): decline, then end the breath; the NPC's
    # breath begins and the effect ends by itself
    out = _say(child, "nofate")
    assert "失敗" in out
    out = _say(child, "end", r"(> $|🎲.*> $)")
    assert "「毒」が終了" in out
    autosave = tmp_path / "duel.play.json"
    saved = json.loads(autosave.read_text("utf-8"))
    kinds = [e.get("kind", "decision") for e in saved["entries"]]
    assert kinds.count("ruling") == 2  # !set and !effect
    assert any(e.get("reused") for e in saved["entries"])

    # Ctrl-C: nothing is lost
    child.sendintr()
    child.expect("中断")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    at_interrupt = json.loads(autosave.read_text("utf-8"))

    # resume from the autosave: the same log, the same state, the same question
    child = _spawn(["play", "--load", "duel.play.json"], tmp_path)
    child.expect(r"(> $|🎲.*> $)")
    resumed = str(child.before)
    _say(child, "save after.json")
    _say(child, "state")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    after = json.loads((tmp_path / "after.json").read_text("utf-8"))
    for key in ("entries", "partial", "redo", "setup"):
        assert after.get(key) == at_interrupt.get(key), key
    assert "活力" in resumed and "槍の将" in resumed
