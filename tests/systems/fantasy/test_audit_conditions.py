"""Audit: condition effects of 002 not covered elsewhere — 水中's useless missile weapons (F-R17),
暗闇 not negated by エルフ 低光量視覚 (F-R13), 範囲（選択） around oneself in darkness (F-R13)."""

from __future__ import annotations

import pytest

from ikusa.dice.source import ScriptedSource
from ikusa.engine.errors import RuleViolation
from tests.systems.fantasy.helpers import ch, make, start

SLING = {"id": "sling", "name": "スリング", "kind": "ranged", "category": "sling", "damage_dice": 1,
         "damage_type": "叩", "range_m": 30}
XBOW = {"id": "xbow", "name": "クロスボウ", "kind": "ranged", "category": "crossbow", "damage_dice": 1,
        "damage_type": "刺", "range_m": 40}
DAGGER = {"id": "dagger", "name": "ダガー", "category": "dagger", "damage_dice": 1, "damage_type": "刺"}


@pytest.mark.parametrize("env", ["水中", "水場"])
def test_f_r17_bow_crossbow_sling_useless_underwater_only(env: str) -> None:
    """F-R17: 弓、機械弓、投石器は役に立たない 水中; in 水場 (F-R16) they still work; a dagger works in both."""
    st = make([ch("a", "pc", values={"initiative": 9}, weapons=[SLING, XBOW, DAGGER]), ch("b", "gob")],
              environment=[{"id": env}])
    start(st, [1, 2, 1, 2])
    keys = st.pending().keys()  # type: ignore[union-attr]
    assert "attack:dagger:b" in keys
    for bad in ("attack:sling:b", "attack:xbow:b"):
        if env == "水場":
            assert bad in keys
            continue
        assert bad not in keys
        with pytest.raises(RuleViolation) as rv:
            st.apply(bad, ScriptedSource([]))
        assert rv.value.rule == "F-R17" and "役に立たない" in str(rv.value)


def test_f_r13_elf_low_light_vision_does_not_negate_darkness() -> None:
    """F-R13 names only ドワーフの暗視 for 暗闇; エルフの低光量視覚 cancels only 視界不良 (F-R14)."""
    st = make([ch("e", "pc", race="elf"), ch("d", "pc", race="dwarf"), ch("g", "gob")],
              environment=[{"id": "暗闇", "cause": "light"}])
    assert [(a.source, a.value) for a in st.mods(st.fighters["e"], ("attack.melee",))] == [("暗闇・盲目", -4)]
    assert st.mods(st.fighters["d"], ("attack.melee",)) == []
    st = make([ch("e", "pc", race="elf"), ch("g", "gob")], environment=[{"id": "視界不良", "cause": "light"}])
    assert st.mods(st.fighters["e"], ("attack.melee",)) == []


def test_f_r13_select_area_around_self_in_darkness_excludes_allies() -> None:
    """F-R13: blind, a caster may use an area spell centred on itself, and with 範囲（選択） leave
    out chosen targets inside it: the ally in its engagement area is spared, the enemy is not."""
    nova = {"id": "nova", "name": "ノヴァ", "target": "area", "area": "小円", "center": "self", "select": True,
            "save": "will", "damage_dice": 1}
    st = make([ch("a", "pc", values={"initiative": 9, "magic": 5}, spells=[nova],
                  conditions=[{"id": "盲目", "cause": "physical"}]),
               ch("p", "pc"), ch("b", "gob", values={"will": 0})])
    start(st, [1, 2, 1, 2, 1, 2])
    ev = st.apply("cast:nova:self", ScriptedSource([4, 4, 1, 2, 3]))
    cast = next(e for e in ev if e.kind == "cast")
    assert cast.data["targets"] == ["b"]
    assert next(e for e in ev if e.kind == "hp").data == {"id": "b", "hp": 17}
