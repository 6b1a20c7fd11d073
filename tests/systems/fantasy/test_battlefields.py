"""Battlefields (002 特殊な場所での戦闘): F-T04…F-T07, F-R06…F-R09, F-G16, F-G17."""

from __future__ import annotations

import pytest

from ikusa.dice.source import ScriptedSource
from ikusa.engine.errors import InputError, RuleViolation
from ikusa.systems.fantasy.actions import attack_mods, spell_targets
from ikusa.systems.fantasy.battlefields import Battlefield, builtin_battlefields
from tests.systems.fantasy.helpers import BOW, ch, make, start


def test_t04_t05_front_capacity_from_width() -> None:
    """F-T04: 4 m → 2; F-T05: 2 m → 1 (floor(width/1.5), min 1)."""
    bf = builtin_battlefields()
    assert bf["corridor"].capacity(1.5) == 2
    assert bf["cliff_ledge"].capacity(1.5) == 1
    assert bf["open"].capacity(1.5) is None
    assert Battlefield(id="x", name="x", width_m=1.0).capacity(1.5) == 1
    assert Battlefield(id="x", name="x", width_m=4.5).capacity(1.5) == 3


def test_corridor_capacity_refused_at_setup_and_on_advance() -> None:
    """F-R08: a third front-liner in a corridor is refused (file + field); advancing into a full front too."""
    chars = [ch("a", "r"), ch("b", "r"), ch("c", "r"), ch("z", "e")]
    with pytest.raises(InputError) as exc:
        make(chars, battlefield="corridor")
    assert exc.value.field == "characters[2].row" and "F-R08" in str(exc.value)
    st = make([ch("a", "r"), ch("b", "r"), ch("c", "r", row="back", values={"initiative": 10}), ch("z", "e")],
              battlefield="corridor")
    start(st, [1, 2] * 4)
    assert "advance:fore" not in st.pending().keys()  # type: ignore[union-attr]
    with pytest.raises(RuleViolation) as rv:
        st.apply("advance:fore", ScriptedSource([]))
    assert rv.value.rule == "F-R08"
    st.apply("advance:rear", ScriptedSource([]))  # the rear front has room
    assert st.fighters["c"].row == "front" and st.fighters["c"].front == "rear"


def test_t06_pincer_bonus() -> None:
    """F-T06/F-R08: a unit of front-liners only, engaged front and rear → attacks +1; not with a back row."""
    chars = [ch("p1", "pc"), ch("p2", "pc", front="rear"),
             ch("g1", "gob", unit="front_gob"), ch("g2", "gob", unit="rear_gob")]
    st = make(chars, battlefield="corridor",
              engagements=[["pc.fore", "front_gob.fore"], ["pc.rear", "rear_gob.fore"]])
    g1, p1 = st.fighters["g1"], st.fighters["p1"]
    assert st.formation.pincered("pc")
    assert [(m.source, m.value, m.rule) for m in attack_mods(st, g1, p1, ("attack.melee",))] == [
        ("挟み撃ち", 1, "F-R08")]
    assert [(m.source, m.value) for m in attack_mods(st, g1, p1, ("attack.ranged",))] == [("挟み撃ち", 1)]
    st2 = make([*chars, ch("p3", "pc", row="back")], battlefield="corridor",
               engagements=[["pc.fore", "front_gob.fore"], ["pc.rear", "rear_gob.fore"]])
    assert not st2.formation.pincered("pc")
    assert attack_mods(st2, st2.fighters["g1"], st2.fighters["p1"], ("attack.melee",)) == []


def test_corridor_areas() -> None:
    """F-R08/F-G16: 小円 covers one front (and its opposing front); 中円 the whole unit."""
    small = {"id": "s", "name": "小", "target": "area", "area": "小円", "center": "other", "damage_dice": 1}
    medium = {"id": "m", "name": "中", "target": "area", "area": "中円", "center": "other", "damage_dice": 1}
    chars = [ch("p1", "pc"), ch("p2", "pc", front="rear"), ch("p3", "pc", row="back"),
             ch("g1", "gob", unit="fg", spells=[small, medium]), ch("g2", "gob", unit="rg")]
    st = make(chars, battlefield="corridor", engagements=[["pc.fore", "fg.fore"], ["pc.rear", "rg.fore"]])
    g1 = st.fighters["g1"]
    sp_s, sp_m = g1.spell("s"), g1.spell("m")
    assert sp_s is not None and sp_m is not None
    assert [f.id for f in spell_targets(st, g1, sp_s, "pc.rear")] == ["p2", "g2"]
    assert [f.id for f in spell_targets(st, g1, sp_m, "pc")] == ["p1", "p2", "p3"]


def test_narrow_room_close_range_and_medium_area_everyone() -> None:
    """F-R07: every shot is close range and reaches the back row; 中円 catches everyone."""
    medium = {"id": "m", "name": "中", "target": "area", "area": "中円", "center": "other", "damage_dice": 1}
    short_bow = {**BOW, "range_m": 4}
    chars = [ch("a", "r", row="back", weapons=[short_bow], spells=[medium]), ch("a2", "r"),
             ch("b", "e"), ch("b2", "e", row="back")]
    room = make(chars, battlefield="narrow_room")
    a, b2 = room.fighters["a"], room.fighters["b2"]
    assert room.formation.distance(a, b2) == 3
    sp = a.spell("m")
    assert sp is not None
    assert sorted(f.id for f in spell_targets(room, a, sp, "e")) == ["a", "a2", "b", "b2"]
    opn = make(chars)
    assert opn.formation.distance(opn.fighters["a"], opn.fighters["b2"]) == 12
    start(room, [1, 2] * 4)
    start(opn, [1, 2] * 4)
    actor = room.pending().actor  # type: ignore[union-attr]
    assert actor == "a" and "attack:bow:b2" in room.pending().keys()  # type: ignore[union-attr]
    assert "attack:bow:b2" not in opn.pending().keys()  # type: ignore[union-attr]
    with pytest.raises(RuleViolation) as rv:
        opn.apply("attack:bow:b2", ScriptedSource([]))
    assert rv.value.rule == "F-H05" and "12m" in rv.value.message


def test_cliff_no_back_to_back_line_of_fire() -> None:
    """F-R09: on the cliff the back row cannot shoot the enemy back row (front row still can)."""
    chars = [ch("a", "r", row="back", weapons=[BOW], values={"initiative": 10}), ch("a2", "r"),
             ch("b", "e"), ch("b2", "e", row="back")]
    st = make(chars, battlefield="cliff_ledge")
    start(st, [1, 2] * 4)
    keys = st.pending().keys()  # type: ignore[union-attr]
    assert "attack:bow:b" in keys and "attack:bow:b2" not in keys
    with pytest.raises(RuleViolation) as rv:
        st.apply("attack:bow:b2", ScriptedSource([]))
    assert rv.value.rule == "F-R09"


@pytest.mark.parametrize(("dice", "fell"), [([4, 4], True), ([4, 5], False)])
def test_t07_cliff_trip_fall(dice: list[int], fell: bool) -> None:
    """F-T07/F-R09/F-G05: ≪足払い≫ hits; 直感ST 2D+3 = 11 < 12 → falls (F-G17 out, not left 伏せ on
    the ledge); 12 → stays, 伏せ."""
    st = make([ch("a", "r", values={"initiative": 10}), ch("b", "e", values={"intuition": 3, "evasion": 0})],
              battlefield="cliff_ledge")
    start(st, [1, 2, 1, 2])
    ev = st.apply("trip:b", ScriptedSource([5, 5, 1, 2, *dice]))
    check = next(e for e in ev if e.kind == "fall_check")
    assert check.data == {"id": "b", "tn": 12, "fell": fell}
    assert f"={11 if fell else 12}" in check.text
    assert st.fighters["b"].fallen is fell and st.fighters["b"].has("prone") is not fell
    if fell:
        assert st.summary()["winner"] == "r" and st.pending() is None


def test_trip_on_open_field_only_prones() -> None:
    st = make([ch("a", "r", values={"initiative": 10}), ch("b", "e", values={"evasion": 0})])
    start(st, [1, 2, 1, 2])
    ev = st.apply("trip:b", ScriptedSource([5, 5, 1, 2]))
    assert not any(e.kind == "fall_check" for e in ev) and st.fighters["b"].has("prone")


def test_custom_battlefield_in_encounter() -> None:
    """F-R06: a GM defines another battlefield in data; bad data names the field."""
    bridge = {"id": "bridge", "name": "吊り橋", "width_m": 1.6, "trip_fall_tn": 10, "rules": ["F-R06"]}
    st = make([ch("a", "r"), ch("b", "e")], battlefield="bridge", battlefields=[bridge])
    assert st.field.trip_fall_tn == 10 and st.formation.cap == 1
    with pytest.raises(InputError) as exc:
        make([ch("a", "r"), ch("b", "e")], battlefield="bridge", battlefields=[{**bridge, "width_m": -1}])
    assert exc.value.field.startswith("battlefields.0.width_m")
    with pytest.raises(InputError) as exc:
        make([ch("a", "r"), ch("b", "e")], battlefield="swamp")
    assert exc.value.field == "battlefield" and "corridor" in exc.value.message


def test_cliff_trip_option_odds_and_spell_line_of_fire() -> None:
    """F-R09: the trip option carries P(fall) = P(2D+3 < 12) = 26/36; a single-target spell from the
    back row cannot reach the enemy back row either (no line of fire)."""
    bolt = {"id": "bolt", "name": "ボルト", "target": "single", "damage_dice": 1}
    st = make([ch("a", "r", values={"initiative": 10}), ch("m", "r", row="back", spells=[bolt]),
               ch("b", "e", values={"intuition": 3}), ch("b2", "e", row="back")], battlefield="cliff_ledge")
    start(st, [1, 2] * 4)
    trip = next(o for o in st.pending().options if o.key == "trip:b")  # type: ignore[union-attr]
    assert trip.data["fall_odds"] == pytest.approx(26 / 36) and trip.odds is not None
    st.apply("end", ScriptedSource([]))
    assert st.pending().actor == "m"  # type: ignore[union-attr]
    keys = st.pending().keys()  # type: ignore[union-attr]
    assert "cast:bolt:b" in keys and "cast:bolt:b2" not in keys
    with pytest.raises(RuleViolation) as rv:
        st.apply("cast:bolt:b2", ScriptedSource([]))
    assert rv.value.rule == "F-R09"
