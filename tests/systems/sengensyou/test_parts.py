"""Options, catalogue, the pool helper and odds, escape track, hidden characters."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ikusa.dice.source import ScriptedSource
from ikusa.systems.sengensyou.catalog import catalog
from ikusa.systems.sengensyou.character import CharacterSpec, dp_max_of, dp_recovery_of, hp_of, reiryoku_of
from ikusa.systems.sengensyou.checks_flow import p_at_least, p_beats, pool
from ikusa.systems.sengensyou.options import SengensyouOptions
from tests.systems.sengensyou.helpers import char, combat, fi, keys, kind, of_kind, push, st, start_turn, texts


def test_every_option_cites_its_gap_or_rule() -> None:
    """Every G-G default is a named option whose description cites the id."""
    for name, field in SengensyouOptions.model_fields.items():
        assert field.description and ("G-" in field.description or "invented" in field.description), name


def test_derived_numbers_follow_g_d_defaults() -> None:
    """G-G03 / G-G23: DP最大値 10+身体+耐久+意志; DP回復数 max(2, ceil((知性+感覚)/3));
    HP 10+耐久×4; 霊力 意志×4."""
    spec = CharacterSpec.model_validate(char("a", "x", stats={"身体": 4, "耐久": 5, "知性": 4, "感覚": 6, "意志": 3}))
    opt = SengensyouOptions()
    assert (dp_max_of(spec, opt), dp_recovery_of(spec, opt), hp_of(spec, opt), reiryoku_of(spec, opt)) == (
        22, 4, 30, 12)
    low = CharacterSpec.model_validate(char("b", "x", stats={"知性": 1, "感覚": 1}))
    assert dp_recovery_of(low, opt) == 2


def test_shipped_catalogue_is_valid() -> None:
    cat = catalog()
    assert {"onmyou", "magic", "element", "youdan", "gun", "blade_wave"} <= set(cat.bullets)
    assert cat.bullets["gun"].homing_needs_item == "業物"
    assert all(c.type in ("deploy", "consume") for c in cat.spellcards.values())


def test_pool_rolls_and_fixed_values() -> None:
    """G-R01: 達成値 = 判定値 + n d6; G-R29 fixed: no dice drawn."""
    r = pool(7, 3, ScriptedSource([1, 2, 6]), "t")
    assert (r.total, r.faces, r.show()) == (16, (1, 2, 6), "7+3D6[1,2,6]=16")
    f = pool(7, 3, ScriptedSource([]), "t", fixed=True)
    assert (f.total, f.faces) == (17, ())
    assert pool(5, 0, ScriptedSource([]), "t").show() == "5(ダイス無し)=5"


def test_exact_odds() -> None:
    assert p_at_least(0, 2, 7) == pytest.approx(float(Fraction(21, 36)))
    assert p_at_least(10, 1, 5) == 1.0 and p_at_least(0, 1, 7) == 0.0
    assert p_beats(0, 1, 0, 1) == pytest.approx(21 / 36)  # ties to A
    assert p_beats(3, 2, 3, 2) + p_beats(3, 2, 3, 2) - 1 == pytest.approx(
        sum(c * c for c in (1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)) / 36**2)


def test_defence_options_carry_exact_odds() -> None:
    """Odds are shown before DP is committed (Option.odds)."""
    c = combat([char("a", "x", skills={"ショット": 1}, abilities={"魔法": 2}), char("b", "y")])
    start_turn(c, declare={"a": 19, "b": 0})
    push(c, "shot:b:1:magic", [6])  # 10
    o = c.pending().option("evade:2")  # type: ignore[union-attr]
    assert o is not None and o.odds == pytest.approx(p_at_least(3, 2, 10)) and o.cost == 2


def test_escape_track_option_flow() -> None:
    """G-R09 / G-G27: with the running score the escaper needs +3."""
    c = combat([char("a", "x", skills={"飛行": 3}), char("b", "y")], options={"escape_track": True})
    start_turn(c, declare={"a": 19, "b": 0})
    push(c, "escape")
    push(c, "wait")
    push(c, "wait")
    push(c, "escape_dp:0")
    ev = push(c, "pursue_dp:0")  # 3+3 = 6 > 3
    assert fi(c, "a").escape_score == 1 and not fi(c, "a").escaped and "逃走値 1/3" in texts(ev)


def test_hidden_waiting_character_rolls_stealth_each_turn() -> None:
    """G-R27: not acting → 待機 and an opposed 隠密 vs 感知 (diceless, ties to the perceiver)."""
    c = combat([char("h", "x", skills={"隠密": 1}, hidden=True), char("x2", "x"),
                char("b", "y", skills={"感知": 1})])
    start_turn(c, declare={"h": 19, "x2": 0, "b": 0})
    ev = push(c, "wait")  # 身体3+1 = 4 vs 感覚3+1 = 4 → found
    assert "発見された" in texts(ev) and not fi(c, "h").hidden


def test_simplified_mode_uses_fixed_npc_dice_by_default() -> None:
    c = combat([char("p", "pc"), char("n", "npc", skills={"ショット": 1}, abilities={"魔法": 2})],
               pc_side="pc", leader="n", options={"simplified": True})
    start_turn(c)
    assert st(c).order == ["p", "n"] and kind(c) == "action"
    push(c, "wait")
    ev = push(c, "shot:p:2:magic", [])  # 4 + 7, no dice
    assert of_kind(ev, "shot")[0].data["total"] == 11 and "evade:1" in keys(c)


def test_dp_left_after_a_tense_lead_in() -> None:
    """G-R23 / G-G35: a character may start with the DP left from the lead-in."""
    c = combat([char("a", "x", dp=7), char("b", "y")])
    assert fi(c, "a").dp == 7 and fi(c, "b").dp == 19
