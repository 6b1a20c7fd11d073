"""Issue #12 shortcuts of 千幻抄 that the option and byte-identity guards do not reach directly:
a ColumnOption behaves as the Option it stands for (label made on first read from its column,
kept, copied and pickled as a plain Option, resolved by the core's fix_labels), and the
encounter's battle setup is gathered once, shared by every battle and clone, and its memos
still start afresh past MEMO_CAP."""

from __future__ import annotations

import copy
import pickle
import random
from pathlib import Path
from typing import Any

import pytest

from ikusa.dice.source import RandomSource
from ikusa.engine.protocol import Decision, Option, fix_labels
from ikusa.engine.runner import load_encounter
from ikusa.systems.sengensyou import encounter as encounter_module
from ikusa.systems.sengensyou.column_option import ColumnOption, column_option
from ikusa.systems.sengensyou.state import SengensyouState

ROOT = Path(__file__).resolve().parents[3]
DUEL = ROOT / "examples" / "sengensyou" / "spellcard_duel.yaml"


def _label(who: str, base: int, n: int, odds: float | None) -> str:
    _label.calls += 1  # type: ignore[attr-defined]
    return f"{who} {base}+{n}D6 ({odds})"


def test_a_column_option_is_the_option_it_stands_for() -> None:
    _label.calls = 0  # type: ignore[attr-defined]
    col = (_label, ("霊夢", 7))
    o = column_option("shot:a:3:b", col, 3, 0.25, {"kind": "shot", "dp": 3})
    plain = Option("shot:a:3:b", "霊夢 7+3D6 (0.25)", 3, 0.25, {"kind": "shot", "dp": 3})
    assert isinstance(o, Option) and isinstance(o, ColumnOption)
    assert _label.calls == 0  # nothing is formatted until the label is read
    assert o == plain and plain == o
    assert o.label == plain.label and _label.calls == 1
    assert o.label == plain.label and _label.calls == 1  # made once, kept
    assert repr(o) == repr(plain)
    for twin in (pickle.loads(pickle.dumps(o)), copy.deepcopy(o), copy.copy(o)):
        assert type(twin) is Option and twin == plain
    other = column_option("shot:a:4:b", col, 4, None, {})
    assert other.label == "霊夢 7+4D6 (None)"  # the same column, its own cost and odds


def test_fix_labels_resolves_column_options() -> None:
    o = column_option("evade:2", (_label, ("咲夜", 9)), 2, 0.5, {})
    d = Decision("sakuya", "defence", "p", (o,))
    assert o._label is None
    fix_labels(d)
    assert o._label == "咲夜 9+2D6 (0.5)"


def _play(state: SengensyouState, seed: int, steps: int) -> None:
    rng, dice = random.Random(seed), RandomSource(seed)
    for _ in range(steps):
        d = state.pending()
        if d is None:
            return
        state.apply(rng.choice(d.options).key, dice)


def test_every_battle_and_clone_of_an_encounter_shares_one_setup_and_its_memos() -> None:
    loaded = load_encounter(DUEL)
    enc = loaded.encounter
    a, b = SengensyouState(enc), SengensyouState(enc)
    setup = enc.battle_setup()
    assert enc.battle_setup() is setup
    assert a.grow_memo is b.grow_memo is setup.memos["growing"] is enc.memo("growing")
    assert a.sides == b.sides == setup.sides and a.sides is not setup.sides  # the state's own list
    _play(a, 1, 400)
    rng, dice = random.Random(2), RandomSource(2)
    for _ in range(5):  # past the first action decision (initiative and rows come first)
        b.apply(rng.choice(b.pending().options).key, dice)  # type: ignore[union-attr]
    for _ in range(100):
        if b.can_clone():
            break
        b.apply(rng.choice(b.pending().options).key, dice)  # type: ignore[union-attr]
    c = b.clone()
    assert c.grow_memo is a.grow_memo and c.option_memo is a.option_memo and c.fighter_memo is a.fighter_memo


def test_a_memo_past_its_cap_starts_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encounter_module, "MEMO_CAP", 5)
    loaded = load_encounter(DUEL)
    first = SengensyouState(loaded.encounter)
    _play(first, 3, 200)
    full: dict[Any, Any] = first.grow_memo
    assert len(full) > 5
    later = SengensyouState(loaded.encounter)
    assert later.grow_memo is not full and len(later.grow_memo) <= 5
    _play(later, 3, 200)  # a new battle plays on with the fresh memo
