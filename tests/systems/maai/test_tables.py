"""The d100 tables as data (S-G07, S-R11, S-R36; #13): the shipped placeholders equal the
options' defaults, an encounter's own tables are validated with every problem listed, its
妖魔乱入遭遇表 brings real units in at 小康 and battlefield changes are effects."""

from __future__ import annotations

import pytest

from ikusa.dice.source import ScriptedSource
from ikusa.engine.errors import InputError
from ikusa.systems.maai.options import DEFAULT_OPTIONS
from ikusa.systems.maai.tables import parse_tables, shipped
from tests.systems.ruling_driver import Session

AMBUSH = "tests/systems/maai/data/ambush_table.yaml"


def test_shipped_tables_are_the_s_g07_placeholders_of_the_options() -> None:
    t = shipped()
    assert tuple((b.upto, b.outcome) for b in t.gouhou or ()) == DEFAULT_OPTIONS.tables.gouhou
    assert tuple((b.upto, b.outcome) for b in t.tenmei or ()) == DEFAULT_OPTIONS.tables.tenmei
    assert [b.upto for b in t.youma or ()][-1] == 100


def test_every_problem_of_a_table_file_is_listed() -> None:
    bad = {"gouhou": [{"upto": 50, "outcome": "explode"}, {"upto": 40, "outcome": "none"}],
           "youma": [{"upto": 100, "event": "ambush", "units": ["ghost"]}]}
    with pytest.raises(InputError) as err:
        parse_tables(bad, "t.yaml")
    msg = str(err.value)
    assert "gouhou.0.outcome: unknown outcome 'explode'" in msg
    assert "gouhou.1.upto: bands must rise; 40 after 50" in msg
    assert "gouhou: the last band must reach 100, not 50" in msg
    assert "youma.0.units: unknown reinforcement 'ghost'" in msg
    assert "\n" not in msg


def to_lull_question(s: Session) -> None:
    for _ in range(200):
        d = s.state.pending()
        if d.kind == "gm_event":
            return
        s.first(lambda k: k in ("pass", "end", "noreact", "nofate", "done"), ScriptedSource([5, 4] * 10))
    raise AssertionError("no 小康 question")


def test_ambush_band_brings_the_reinforcements_in() -> None:
    s = Session(AMBUSH)
    to_lull_question(s)
    s.act("env:ambush", ScriptedSource([77]))  # 51–100: two 小鬼
    st = s.state
    assert "小康: 妖魔乱入 d100=77 → 小鬼の群れ" in s.texts("environment")
    assert {"koni", "koni_2"} <= set(st.by_id)
    assert st.by_id["koni_2"].name == "小鬼2" and st.by_id["koni"].side == "敵" and st.by_id["koni"].able
    assert st.maai == 2


def test_battlefield_change_is_an_effect_on_everyone_for_the_coming_maai() -> None:
    s = Session(AMBUSH)
    to_lull_question(s)
    s.act("env:ambush", ScriptedSource([12]))  # 01–50: 霧
    st = s.state
    assert s.texts("environment_effect") == ["戦場変化「霧」attack-1 (1間合): 全員"]
    assert {e.target for e in st.fx.book.active if e.spec.name == "霧"} == {"samurai", "oni"}
    assert st.fx.total("samurai", ("attack", "check")) == -1


def test_an_encounter_table_replaces_the_gouhou_placeholder() -> None:
    s = Session(AMBUSH)
    assert s.state.enc.tables.bands("gouhou", s.state.opts, False) == ((100, "weapon_broken"),)
    assert s.state.enc.tables.bands("tenmei", s.state.opts, False) == DEFAULT_OPTIONS.tables.tenmei
