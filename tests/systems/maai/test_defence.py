"""防備 computation: S-T21…S-T28, S-T29 (stance), S-T36, S-T41, S-T47…S-T50 (防備 parts),
properties of the floors (S-R45, S-R46, S-G42)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ikusa.systems.maai.catalog import Tag
from ikusa.systems.maai.defence import DefenceBonus, compute_defence, spirit_tn, stance_bonus, vs_noncorporeal

KEIKOU = DefenceBonus("軽甲", 2, "armour")
JUUKOU = DefenceBonus("重甲", 4, "armour")
JUUSOU = DefenceBonus("重装甲", 6, "armour")
FUDOU = DefenceBonus("不動の陣", 2, "stance")
KEKKAI = DefenceBonus("結界", 2, "barrier")
COVER = DefenceBonus("遮蔽", 2, "cover")


def t(text: str) -> Tag:
    return Tag.parse(text)


def test_s_t21_ashigaru_in_light_armour() -> None:
    assert compute_defence(9, [KEIKOU]).final == 11


def test_s_t22_thrust_pierce_2() -> None:
    assert compute_defence(10, [JUUKOU], tags=[t("pierce 2")]).final == 12
    unarmoured = compute_defence(10, tags=[t("pierce 2")])
    assert unarmoured.final == 10 and unarmoured.steps[-1].delta == 0


def test_s_t23_shuriken_direct_2() -> None:
    b = compute_defence(10, [JUUKOU], [FUDOU], tags=[t("direct 2")])
    assert (b.composed, b.final) == (16, 14)


def test_s_t24_pierce_all() -> None:
    assert compute_defence(10, [JUUSOU], tags=[t("pierce all")]).final == 10
    assert compute_defence(10, tags=[t("pierce all")]).final == 10


def test_s_t25_gun_keeps_cover() -> None:
    assert compute_defence(10, [JUUKOU], tags=[t("pierce all")]).final == 10
    assert compute_defence(10, [JUUKOU], [COVER], tags=[t("pierce all")]).final == 12


def test_s_t26_defenceless_and_pierce_all() -> None:
    b = compute_defence(10, [JUUKOU], tags=[t("pierce all")], defenceless=True)
    assert [s.value for s in b.steps if s.phase != "compose"] == [10, 6]
    assert b.final == 6
    assert b.text == "防備 14 → [貫通 全体] 10 → 無防備 −4 → 6"
    assert b.rules == ("S-R44", "S-R46", "S-R45", "S-R64")


def test_s_t27_s_t28_direct_all() -> None:
    assert compute_defence(10, [KEIKOU], [KEKKAI], tags=[t("direct all")]).final == 12
    assert compute_defence(10, [], [KEKKAI], tags=[t("direct all")]).final == 10


def test_s_t29_one_stance_only() -> None:
    second = DefenceBonus("防御姿勢", 2, "stance")
    b = compute_defence(10, [], [FUDOU, second])
    assert b.final == 12
    assert any(s.rule == "S-R52" for s in b.steps)
    assert stance_bonus([FUDOU, second]) == 2


def test_s_t36_defenceless_samurai() -> None:
    assert compute_defence(10, defenceless=True).final == 6


def test_s_t41_spirit_armour() -> None:
    b = spirit_tn(None, 2)
    assert b.final == 11 and not b.immune
    assert compute_defence(10, [JUUKOU], [FUDOU], tags=[t("spirit")], spirit_defence=2).final == 11


def test_s_g05_taima_tiers() -> None:
    assert spirit_tn().final == 9
    assert spirit_tn("入門").final == 11 and spirit_tn("習得").final == 11
    assert spirit_tn("免許").immune and spirit_tn("聖人").immune
    assert vs_noncorporeal(None) == "auto_miss" and vs_noncorporeal("入門") == "normal"


def test_s_g26_spirit_ignores_defenceless() -> None:
    assert compute_defence(10, tags=[t("spirit")], defenceless=True, debuffs=[2]).final == 9


def test_s_t47_kyuusho_pierce_5() -> None:
    assert compute_defence(10, [JUUKOU], tags=[t("pierce 2"), t("pierce 3")]).final == 10


def test_s_t48_sennen_direct_1() -> None:
    assert compute_defence(10, [], [FUDOU], tags=[t("direct 1")]).final == 11


def test_s_t49_s_t50_kantsuusha() -> None:
    assert compute_defence(10, [JUUSOU], tags=[t("pierce 2")]).final == 14
    assert compute_defence(10, [JUUSOU], tags=[t("pierce 4")]).final == 12
    assert compute_defence(10, [JUUSOU], tags=[t("pierce 5")]).final == 11


def test_s_r48_debuffs_and_global_floor() -> None:
    b = compute_defence(8, debuffs=[DefenceBonus("呪い虫", 1), 2], defenceless=True)
    assert b.final == 2
    assert b.text == "防備 8 → 無防備 −4 → 4 → 防備 呪い虫 −1 → 3 → 防備 −2 → 1 → 下限 +1 → 2"


def test_s_g44_natural_armour_option() -> None:
    from ikusa.systems.maai.options import MaaiOptions

    hide = DefenceBonus("鬼の鱗", 2, "natural")
    assert compute_defence(10, [hide], tags=[t("pierce all")]).final == 10
    o = MaaiOptions()
    off = o.model_copy(update={"defense": o.defense.model_copy(update={"pierce_affects_natural_armor": False})})
    assert compute_defence(10, [hide], tags=[t("pierce all")], options=off).final == 12


def test_both_tags_independent_s_g42() -> None:
    assert compute_defence(10, [JUUKOU], [FUDOU, COVER], tags=[t("pierce 2"), t("direct 3")]).final == 13


bonus_st = st.builds(
    DefenceBonus, st.sampled_from(["a", "b"]), st.integers(0, 6),
    st.sampled_from(["armour", "shield", "natural", "stance", "barrier", "cover"]),
)
tag_st = st.builds(Tag, kind=st.sampled_from(["pierce", "direct"]), n=st.one_of(st.none(), st.integers(0, 8)))


@settings(max_examples=150)
@given(st.sampled_from([8, 9, 10]), st.lists(bonus_st, max_size=4), st.lists(tag_st, max_size=2))
def test_tags_never_break_their_floors(base: int, parts: list[DefenceBonus], tags: list[Tag]) -> None:
    plain = compute_defence(base, parts)
    tagged = compute_defence(base, parts, tags=tags)
    assert base <= tagged.final <= plain.final
    if not any(tg.kind == "pierce" for tg in tags):
        assert tagged.final >= base + plain.armour  # [直撃] floor: base + armour


@settings(max_examples=100)
@given(st.sampled_from([8, 9, 10]), st.lists(bonus_st, max_size=4), st.lists(tag_st, max_size=2),
       st.booleans(), st.lists(st.integers(0, 6), max_size=3))
def test_final_never_below_global_floor(
    base: int, parts: list[DefenceBonus], tags: list[Tag], dl: bool, debuffs: list[int]
) -> None:
    assert compute_defence(base, parts, tags=tags, defenceless=dl, debuffs=debuffs).final >= 2
