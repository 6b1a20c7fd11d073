"""`ikusa rules maai TOPIC` text (ikusa/systems/maai/rules_text.py): every line comes from the
catalog, options, grades, costs and defence modules the engine uses (S-R69, S-T16, S-T19,
S-T20, S-G03, S-G42, S-G51)."""

from __future__ import annotations

import pytest

from ikusa.engine.errors import InputError
from ikusa.systems.maai import rules_text
from ikusa.systems.maai.catalog import SECTIONS, load_catalog
from ikusa.systems.maai.options import MaaiOptions


def text(topic: str, **kw: object) -> str:
    return "\n".join(rules_text.describe(topic, **kw))  # type: ignore[arg-type]


def test_yokogiri_cost_2_by_id_name_and_any_case_S_R69() -> None:
    out = text("katana.yokogiri")
    assert "活力 2 (S-R69" in out and "2D10 + 勇 + 剣術" in out and "000:L173" in out
    assert "命中で戦力 −1、会心で −2" in out  # S-R41/S-R43: base 1, crit 2
    assert text("横斬り") == out == text("  KATANA.Yokogiri ")


def test_ambiguous_name_lists_every_match() -> None:
    """刺し is the name of three maneuvers (打刀 / 短刀 / 槍): all are shown, with their costs (S-R69)."""
    out = rules_text.describe("刺し")
    assert "ambiguous" in out[0]
    for mid in ("katana.sashi", "tantou.sashi", "yari.sashi"):
        assert mid in out[0]
    body = "\n".join(out)
    assert body.count("[刺し]") == 3 and "活力 1 (S-R69" in body and "活力 2 (S-R69" in body


def test_shinpu_costs_from_the_cost_functions_S_T16() -> None:
    """S-T16: 短刀 刺し 1, 心府 −1 → 0 → floored to 1; 槍 刺し 2 + 1 = 3 (no school)."""
    assert "心府内の活力: 1 心府−1 = 0 → 下限 1" in text("tantou.sashi")
    assert "心府内の活力: 2 心府+1 = 3" in text("yari.sashi")
    assert "心府: 使用不可" in text("teppou.shageki") and "S-G12" in text("teppou.shageki")
    assert "心府内" not in text("katana.yokogiri")


def test_weapon_lists_its_maneuvers_with_numbers_and_invented_notes() -> None:
    cat = load_catalog()
    out = text("打刀")
    assert out == text("katana") == text("カタナ")
    for m in cat.maneuvers_of("katana"):
        assert f"{m.name} ({m.id})" in out and f"活力{m.cost}" in out
    assert "一閃 (katana.issen) 反撃 活力3 勇+剣術 戦力1/会心2 予約可" in out
    assert "[貫通 全体]" in out and "invented" in out and "000:L238" in out
    zanba = text("zanbatou")
    assert "特殊会心: 戦力 −3" in zanba and "戦力1/会心3" in zanba  # S-R43 斬馬刀


def test_reservable_defence_S_T20() -> None:
    """S-T20: 受け流し reserved → trigger 0; without a reservation → improvised 2."""
    out = text("受け流し")
    assert "予約すれば発動 0 活力" in out and "予約なし (即興) 2 活力" in out


def test_improvised_table_S_T19() -> None:
    out = text("improvised")
    assert "1→2, 2→3, 3→5" in out and "S-T19" in out and "S-R40" in out
    doubled = MaaiOptions().model_copy(update={"costs": MaaiOptions().costs.model_copy(
        update={"improvised_multiplier_num": 2, "improvised_multiplier_den": 1})})
    assert "1→2, 2→4, 3→6" in text("improvised", options=doubled)


def _grade_rows(out: list[str]) -> dict[str, list[str]]:
    rows = [line.split() for line in out]
    return {r[0]: r[1:] for r in rows if len(r) == 3 and r[0] in ("雑", "卒", "練", "将", "主", "PC")}


def test_grades_table_S_G03() -> None:
    rows = _grade_rows(rules_text.describe("grades"))
    assert rows == {"雑": ["1", "8"], "卒": ["1", "9"], "練": ["2", "10"], "将": ["3", "10"],
                    "主": ["3+體", "10"], "PC": ["3+體", "10"]}
    assert "S-G03" in text("grades")


def test_options_list_every_option_with_default_S_G51() -> None:
    out = rules_text.describe("options")
    assert "  fate.lethal_exception = true: S-G51: a target about to drop to 0 戦力" in "\n".join(out)
    n_fields = sum(len(type(getattr(MaaiOptions(), g)).model_fields) for g in MaaiOptions.model_fields)
    assert len(out) == 1 + n_fields
    assert any(line.startswith("  break.requires_hit = true: S-G45") for line in out)
    off = MaaiOptions.model_validate({"fate": {"lethal_exception": False}})
    assert "fate.lethal_exception = false" in text("options", options=off)


def test_option_group_key_and_gap_id_topics() -> None:
    assert text("S-G51").count("\n") == 1 and "fate.lethal_exception = true" in text("s-g51")
    assert "fate.max_uses_per_roll = 1" in text("fate") and "costs.floor" not in text("fate")
    assert "shinpu.ranged = 'forbidden'" in text("shinpu.ranged")


def test_defence_steps_in_order_with_rule_ids_S_G42() -> None:
    out = rules_text.describe("defence")
    body = "\n".join(out)
    assert text("防備") == body == text("defense")
    for step in ("1.", "2.", "3.", "4."):
        assert f"  {step} " in body
    order = [next(i for i, line in enumerate(out) if line.strip().startswith(label)) for label in
             ("基本: +10", "重甲: +4", "不動の陣: +2", "[貫通 2]: -2", "[直撃 1]: -1", "無防備: -4", "防備: -1")]
    assert order == sorted(order)
    assert "(構えは一つ): +0 → 16 (S-R52)" in body and "無防備: -4 → 9 (S-R64)" in body
    assert "= 防備 16 → [貫通 2] 14 → [直撃 1] 13 → 無防備 −4 → 9 → 防備 −1 → 8" in body
    assert "[霊体] 目標値 13" in body  # S-G05: 9 + 2 + 入門 2


def test_armour_stance_feat_school() -> None:
    juukou = text("重甲")
    assert "練 14" in juukou and "雑 12" in juukou and "最大活力 −1" in juukou  # S-R44, S-R26
    assert "練 12" in text("oni_hide") and "S-G44" in text("自然甲冑")  # 鬼 防備 12 (S-R69)
    assert "[霊体] 目標値 11" in text("reitai_bougu")  # S-T41: 9 + 2
    assert "宣言 1 活力 (S-G16)" in text("不動の陣") and "防備 +2" in text("不動の陣")
    assert "心府での近接技法の活力 -1 (S-R68" in text("修羅の印")
    assert "心府での槍の活力 -1" in text("竹内流")
    assert "千年の矢 (hoya.sennen_no_ya)" in text("ホヤ流")


def test_every_topic_and_name_describes() -> None:
    cat = load_catalog()
    names = [n for s in SECTIONS for e in getattr(cat, s).values() for n in (e.name, *e.aliases)]
    for topic in [*rules_text.topics(), *names]:
        lines = rules_text.describe(topic)
        assert lines and all(isinstance(line, str) for line in lines), topic
    assert {"grades", "options", "improvised", "defence", "katana.yokogiri", "juukou"} <= set(rules_text.topics())


@pytest.mark.parametrize(("topic", "close"), [("yokogri", "katana.yokogiri"), ("横切り", "横斬り"),
                                               ("grade5", "grades")])
def test_unknown_topic_names_close_matches(topic: str, close: str) -> None:
    with pytest.raises(InputError, match=f"unknown maai topic '{topic}'.*{close}"):
        rules_text.describe(topic)


def test_unknown_topic_without_close_match() -> None:
    with pytest.raises(InputError, match="no close match"):
        rules_text.describe("zzzzzz")
