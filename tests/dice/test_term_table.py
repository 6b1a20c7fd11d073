"""The odds tables printed without rich (:mod:`ikusa.dice.term_table`, issue #12 target 5)
are byte for byte what rich prints, or left to rich: every system's ``ikusa odds`` render
at several console widths, and random tables of the characters the tables use."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from ikusa.cli.odds_core import odds_for
from ikusa.dice.term_table import Group, Renderable, Table, Text, cell_width, plain_lines, print_renderable

#: (system, command, fate): maai with fate and 会心拡張, a clamped modifier with warnings and the
#: reaction rows (S-R07, S-G01, S-R53), 千幻抄 DP and SGS, fantasy check and opposed, DiceBot sums
CASES = [
    ("maai", "2D10+3>=11", 0), ("maai", "2D10+3>=11CE", 2), ("maai", "2D10+12>=12R+2", 0),
    ("maai", "2D10-3>=19", 1), ("sengensyou", "DP3+7>=12", 0), ("sengensyou", "SGS+2", 0),
    ("fantasy", "2D6+5>=12", 0), ("fantasy", "2D6+5>=2D6+3", 0), ("3D6>=12", None, 0), ("2D6", None, 0),
    ("DiceBot", "10D10", 0),
]


def rich_text(renderable: Renderable, width: int) -> str:
    out = io.StringIO()
    Console(file=out, width=width, highlight=False, emoji=False, force_terminal=False,
            color_system=None).print(renderable)
    return out.getvalue()


@pytest.mark.parametrize(("system", "command", "fate"), CASES)
def test_odds_tables_print_as_rich_prints_them(system: str, command: str | None, fate: int) -> None:
    shown = odds_for(system, command, fate).render()
    plain_at = []
    for width in (30, 50, 64, 80, 120, 200):
        lines = plain_lines(shown, width)
        if lines is not None:
            assert "".join(line + "\n" for line in lines) == rich_text(shown, width), (system, command, width)
            plain_at.append(width)
    assert 200 in plain_at  # wide enough, every table prints without rich
    if plain_at[0] > 30:  # narrower than the table: rich wraps it, and only rich may print it
        assert 30 not in plain_at


def test_the_common_case_fits_80_columns() -> None:
    """``ikusa odds maai 2D10+3>=11`` at the default width 80 needs no rich (S-T52 row +3: 79%)."""
    lines = plain_lines(odds_for("maai", "2D10+3>=11", 0).render(), 80)
    assert lines is not None and any("79% (79/100)" in line for line in lines)


_ALPHABET = st.sampled_from(list("aZ09 +-%()/:=.,") + list("成功会心失着天命業報運介入なし回") + list("≥…◀█→"))
_SAFE = st.text(_ALPHABET, max_size=12)
#: mostly the tables' characters; one word in 30 has one only rich can place (markup, a tab, a combining mark)
_WORD = st.integers(0, 29).flatmap(lambda k: _SAFE if k else st.sampled_from(["[b]x", "a\tb", "e\u0301"]))


@settings(max_examples=150, deadline=None)
@given(title=_WORD, headers=st.lists(st.tuples(_WORD, st.sampled_from(["left", "right"])), min_size=1, max_size=5),
       rows=st.lists(st.lists(st.tuples(_WORD, st.booleans()), max_size=5), min_size=1, max_size=4),
       head=_WORD, width=st.integers(10, 90))
def test_random_tables_print_as_rich_or_go_to_rich(
    title: str, headers: list[tuple[str, str]], rows: list[list[tuple[str, bool]]], head: str, width: int
) -> None:
    table = Table(title=title, title_justify="left")
    for header, justify in headers:
        table.add_column(header, justify="left" if justify == "left" else "right")
    for row in rows:
        table.add_row(*[Text(c, style="bold") if styled else c for c, styled in row[: len(headers)]])
    shown = Group(Text.assemble(("ikusa ", "bold"), head), table)
    lines = plain_lines(shown, width)
    if lines is not None:
        assert "".join(line + "\n" for line in lines) == rich_text(shown, width)


def test_cell_width_counts_wide_characters_twice_and_refuses_the_unsure() -> None:
    assert cell_width("成功率 ≥ 79%") == 12
    assert cell_width("TN11") == 4
    assert cell_width("e\u0301") is None and cell_width("a\tb") is None


def test_a_terminal_gets_rich_with_its_styles(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """FORCE_COLOR makes rich treat stdout as a terminal: the styles (bold, reverse) must show,
    so rich prints; without it the same table prints plainly and identically minus the styles."""
    shown = odds_for("maai", "2D10+3>=11", 0).render()
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    print_renderable(shown)
    styled = capsys.readouterr().out
    assert "\x1b[" in styled
    monkeypatch.delenv("FORCE_COLOR")
    print_renderable(shown)
    plain = capsys.readouterr().out
    assert "\x1b[" not in plain and plain == rich_text(shown, 100)


def test_cold_odds_text_imports_no_rich() -> None:
    code = ("import json, sys; from ikusa.cli.entry import main; sys.argv[0] = 'ikusa'; main(); "
            "print(json.dumps(sorted(sys.modules)))")
    proc = subprocess.run([sys.executable, "-c", code, "odds", "maai", "2D10+3>=11"], capture_output=True,
                          text=True, check=True, env={"PATH": "/usr/bin:/bin", "COLUMNS": "80"})
    *table, modules = proc.stdout.rstrip("\n").split("\n")
    assert any("79% (79/100)" in line for line in table)  # S-R01: P(2D10+3 ≥ 11) = 79/100
    assert not [m for m in json.loads(modules) if m.split(".")[0] in ("rich", "typer", "click")]
