"""Equipment grades, [破壊], repair: S-R49, S-R50, S-G06, S-G09, S-G45; S-T42…S-T46."""

from __future__ import annotations

import pytest

from ikusa.engine.errors import InputError, RuleViolation
from ikusa.systems.maai.catalog import Tag, load_catalog
from ikusa.systems.maai.defence import DefenceBonus, compute_defence
from ikusa.systems.maai.equipment import ArmourState, break_applies, grade_rank, resolve_break
from ikusa.systems.maai.options import options_from_dict

CAT = load_catalog()


def tags(*texts: str) -> list[Tag]:
    return [Tag.parse(t) for t in texts]


def piece(name: str, bonus: int, grade: str, slot: str = "armor") -> ArmourState:
    return ArmourState(name, name, bonus, grade, slot)  # type: ignore[arg-type]


def test_s_g06_grade_ladder() -> None:
    assert grade_rank("補給") == grade_rank("一般") == 1
    assert grade_rank("名品") == 2 and grade_rank("神機") == 3
    with pytest.raises(InputError):
        grade_rank("伝説")
    ext = options_from_dict({"equipment": {"grade_rank": [["補給", "一般"], ["名品"], ["怪異物"], ["神機"]]}})
    assert grade_rank("怪異物", ext) == 3 and break_applies("神機", "怪異物", ext)


def test_s_t42_supply_katana_vs_meihin() -> None:
    armour = piece("名品甲冑", 4, "名品")
    r = resolve_break(tags("pierce 2", "break"), "補給", [armour])
    assert r.total_loss == 0 and r.immune == ("名品甲冑",) and r.pieces[0].current == 4
    assert compute_defence(10, [DefenceBonus("名品甲冑", 4, "armour")], tags=tags("pierce 2")).final == 12


def test_s_t43_meihin_kanabou_vs_ordinary_heavy() -> None:
    armour = piece("重甲", 4, "一般")
    r = resolve_break(tags("pierce 3", "break"), "名品", [armour])
    assert r.losses == {"重甲": 3} and r.pieces[0].current == 1
    after = compute_defence(10, [DefenceBonus("重甲", r.pieces[0].current, "armour")])
    assert after.final == 11
    assert r.text == "[破壊] 重甲 −3(修理まで)"


def test_s_t44_shinki_vs_meihin() -> None:
    r = resolve_break(tags("pierce 4", "break"), "神機", [piece("名品甲冑", 6, "名品")])
    assert r.total_loss == 4 and r.pieces[0].current == 2


def test_s_t45_meihin_vs_aegis() -> None:
    r = resolve_break(tags("pierce 3", "break"), "名品", [piece("アイギス", 6, "神機")])
    assert r.total_loss == 0 and r.immune == ("アイギス",)


def test_s_g45_shield_first_and_miss() -> None:
    shield, armour = piece("盾", 1, "一般", "shield"), piece("重甲", 4, "一般")
    r = resolve_break(tags("pierce 3", "break"), "名品", [armour, shield])
    assert r.losses == {"盾": 1, "重甲": 2}
    assert resolve_break(tags("pierce 3", "break"), "名品", [armour], hit=False).total_loss == 0
    assert resolve_break(tags("pierce 3"), "名品", [armour]).total_loss == 0  # no [破壊]
    assert resolve_break(tags("pierce all", "break"), "名品", [armour, shield]).total_loss == 5


def test_s_t46_field_repair_once() -> None:
    a = ArmourState.from_catalog(CAT.armour_piece("juukou"))
    broken = resolve_break(tags("pierce 3", "break"), "名品", [a]).pieces[0]
    fixed = broken.field_repair()
    assert fixed.current == 4
    again = resolve_break(tags("pierce 2", "break"), "名品", [fixed]).pieces[0]
    with pytest.raises(RuleViolation) as err:
        again.field_repair()
    assert err.value.rule == "S-R50" and "野営" in err.value.message
    assert again.smithy_repair().field_repair().current == 4
