"""`ikusa rules sengensyou TOPIC`: the text is built from the engine's own data, and the engine
does what the text says (G-R11, G-R12, G-R15..G-R21, G-G options)."""

from __future__ import annotations

import re

import pytest

from ikusa.engine.errors import InputError
from ikusa.systems.sengensyou import graze
from ikusa.systems.sengensyou.bullets import BARRAGE_DP, HOMING_DP_PER_TARGET, round_up_half
from ikusa.systems.sengensyou.catalog import catalog
from ikusa.systems.sengensyou.options import NOT_IMPLEMENTED, SengensyouOptions
from ikusa.systems.sengensyou.rules_text import describe, topics
from tests.systems.sengensyou.helpers import char, combat, fi, push, start_turn

SHOOTER = {"skills": {"ショット": 1, "弾幕": 1, "ホーミング": 3}, "abilities": {"魔法": 2}}


def text(topic: str, **opts: object) -> str:
    return "\n".join(describe(topic, options=SengensyouOptions(**opts) if opts else None))  # type: ignore[arg-type]


def test_every_topic_describes() -> None:
    for t in topics():
        assert describe(t), t


def test_bullets_follow_the_catalogue_and_damage_table() -> None:
    """G-R15 / G-R16 / G-R18: every bullet, its attack types, homing dice ceil(Lv/2), [業物]."""
    out = text("bullets")
    for b in catalog().bullets.values():
        assert f"{b.name} ({b.id})" in out
        one = text(b.id)
        assert ("ホーミング:" in one) == ("homing" in b.attacks)
        assert ("業物" in one) == (b.homing_needs_item is not None)
    homing = text("ホーミング")
    assert ", ".join(f"Lv{lv}→{round_up_half(lv)}D" for lv in range(1, 7)) in homing
    assert "Lv5→3D" in homing and "Lv4→2D" in homing  # G-T10


def test_barrage_numbers_follow_the_option() -> None:
    """G-G06: DP減少数 = Lv (min 1), damage = Lv + barrage_base_damage."""
    assert "Lv1→1/1" in text("magic") and "Lv3→3/5" in text("magic", barrage_base_damage=2)


def test_graze_rates_are_the_engines() -> None:
    """G-R11 / G-R12: gains and the spend rates as graze.py applies them."""
    out = text("グレイズ")
    assert f"{graze.REIRYOKU_RATE}点ごとに霊力+1" in out and f"{graze.RESIST_RATE}点ごとに抵抗" in out
    assert f"{graze.BOOST_RATE['shot']}点ごとにダメージ+1" in out and f"{graze.REIGEKI_RATE}点ごとに自分への弾幕" in out
    assert f"回避のダイス数 × {graze.HOMING_EVADE_FACTOR}" in out and "ガードで防いだ: ガード側が 0" in out


def test_costs_printed_are_what_the_engine_charges() -> None:
    """G-R20: the 弾幕 and ホーミング costs in the text are the DP the engine takes."""
    assert f"DP消費{BARRAGE_DP}" in text("弾幕") and f"対象数 × {HOMING_DP_PER_TARGET}" in text("homing")
    c = combat([char("a", "x", **SHOOTER), char("b", "y"), char("d", "y")])
    start_turn(c, declare={"a": 19, "b": 0, "d": 0})
    push(c, "barrage:magic")
    assert fi(c, "a").dp == 19 - BARRAGE_DP
    c = combat([char("a", "x", **SHOOTER), char("b", "y"), char("d", "y")])
    start_turn(c, declare={"a": 19, "b": 0, "d": 0})
    push(c, "homing:magic:b,d")
    assert fi(c, "a").dp == 19 - 2 * HOMING_DP_PER_TARGET


def test_spell_cards_and_spells() -> None:
    """G-R21 / G-G24 / G-G22: card type, HP, damage; recovery formula follows sc_recovery."""
    for sc in catalog().spellcards.values():
        one = text(sc.id)
        assert sc.name in one and ("展開型" in one) == (sc.type == "deploy")
        if sc.type == "deploy":
            assert f"HP {sc.hp}" in one
        elif sc.damage_dice:
            assert f"{sc.damage_dice}D + {sc.stat}" in one
    assert "max([能力]Lv, 3)" in text("spellcards") and "能力が無ければ3" in text("spellcards", sc_recovery="lv_or_3")
    for sp in catalog().spells.values():
        assert f"霊力{sp.reiryoku}" in text(sp.id) and f"≥ {sp.tn}" in text(sp.name)


def test_options_list_every_field_and_find_by_gap_id() -> None:
    out = text("options")
    for name in SengensyouOptions.model_fields:
        assert f"  {name} = " in out
    ids = set(re.findall(r"G-G\d\d", out))
    assert {"G-G03", "G-G06", "G-G09", "G-G12", "G-G15", "G-G24", "G-G29", "G-G30", "G-G35"} <= ids
    assert "homing_boost_repeatable = False" in text("G-G12") and "dp_start" not in text("G-G12")
    assert "focus_bonus = 7" in text("focus_bonus", focus_bonus=7)
    assert "+7" in text("防御専念", focus_bonus=7)


def test_unimplemented_lists_every_gap_left_out() -> None:
    out = text("未実装")
    for rid, why in NOT_IMPLEMENTED:
        assert f"{rid}: {why}" in out


def test_unknown_topic_names_close_matches() -> None:
    with pytest.raises(InputError, match="unknown sengensyou topic") as err:
        describe("homign")
    assert err.value.field == "TOPIC" and "homing" in str(err.value)


def test_rule_id_finds_topics_options_and_gaps() -> None:
    """A rule id lists every topic heading and option citing it (G-G1 is not G-G12)."""
    out = text("G-R16")
    assert out.startswith("ホーミング (G-R16") and "G-R07" not in out
    assert "homing_boost_repeatable" in text("g-g12") and "ホーミング (" in text("g-g12")
    assert "left open by 003" in text("G-G36") and "default" in text("G-G36")
    assert "視界遮断" in text("G-G08") and "left open" not in text("G-G08")  # #13: status conditions exist
    with pytest.raises(InputError):
        describe("G-G1")
