"""Catalog (S-G11): the shipped data carry the texts' numbers (S-R69, S-R43, S-R44), and GM
homebrew files merge over them with errors naming file + field."""

from __future__ import annotations

from pathlib import Path

import pytest

from ikusa.engine.errors import InputError
from ikusa.systems.maai.catalog import Tag, load_catalog

CAT = load_catalog()


@pytest.mark.parametrize(
    ("mid", "cost"),
    [
        ("katana.yokogiri", 2), ("katana.ukenagashi", 1), ("kanabou.kyouda", 3), ("move.onmitsu", 3),
        ("ninjatou.fui_no_ichigeki", 2), ("ninjatou.sakate_giri", 1), ("ninjatou.kinkyuu_kaihi", 1),
        ("zanbatou.zanba", 3), ("zanbatou.kiriage", 3), ("tantou.sashi", 1), ("yari.sashi", 2),
        ("yari.kensei", 2), ("katana.issen", 3), ("kodachi.renzoku_giri", 1), ("katana.sashi", 2),
        ("tanto.kyuusho_nuki", 2), ("hoya.sennen_no_ya", 4), ("daikyu.kantsuusha", 3), ("squad.command", 2),
    ],
)
def test_s_r69_costs(mid: str, cost: int) -> None:
    assert CAT.maneuver(mid).cost == cost


def test_s_r69_technique_lines() -> None:
    k = CAT.maneuver("tanto.kyuusho_nuki")
    pierce2 = Tag(kind="pierce", n=2)
    assert (k.ability, k.skill, k.damage, k.aim_focus, k.tag("pierce")) == ("技", "忍術", 2, "pierce", pierce2)
    assert "bleed" in k.effects
    s = CAT.maneuver("hoya.sennen_no_ya")
    assert (s.bonus, s.damage, s.aim_focus, s.tags, s.range) == (4, 2, "direct", (), "anywhere")
    p = CAT.maneuver("daikyu.kantsuusha")
    assert (p.bonus, p.damage, p.behind_damage, p.aim_focus, p.tag("pierce")) == (1, 2, 1, "pierce", pierce2)
    assert CAT.maneuver("shuriken.seimitsu_touteki").tag("direct") == Tag(kind="direct", n=2)
    assert CAT.maneuver("ninjatou.ansatsu").tag("direct") == Tag(kind="direct", n=None)
    assert CAT.maneuver("katana.honkoku_no_itto").tag("pierce") == Tag(kind="pierce", n=None)
    assert CAT.maneuver("teppou.shageki").tag("pierce") == Tag(kind="pierce", n=None)


def test_s_r43_special_crits() -> None:
    assert CAT.crit_damage(CAT.maneuver("katana.yokogiri")) == 2
    assert CAT.crit_damage(CAT.maneuver("zanbatou.zanba")) == CAT.crit_damage(CAT.maneuver("zanbatou.kiriage")) == 3
    gun = CAT.maneuver("teppou.shageki")
    assert (CAT.crit_damage(gun), CAT.crit_behind_damage(gun), gun.behind_damage) == (2, 1, 0)


def test_s_r44_armour_and_stances() -> None:
    assert [CAT.armour_piece(a).bonus for a in ("keikou", "juukou", "juusoukou", "tate")] == [2, 4, 6, 1]
    assert CAT.armour_piece("tate").slot == "shield"
    assert CAT.armour_piece("sokusen_sokketsu").breath_limit_bonus == 1
    assert CAT.armour_piece("reitai_bougu").spirit_defence == 2
    assert CAT.stance("fudou_no_jin").defence_bonus == 2


def test_s_r39_reservable_are_defences() -> None:
    res = {m.id for m in CAT.maneuvers.values() if m.reservable}
    assert {"katana.ukenagashi", "yari.kensei", "taijutsu.oshidashi", "katana.issen"} <= res
    assert all(CAT.maneuver(r).kind in ("defence", "counter") for r in res)


def test_short_weapons_s_r67_and_aliases_s_g68() -> None:
    assert CAT.is_short(CAT.maneuver("kodachi.renzoku_giri")) and CAT.is_short(CAT.maneuver("tantou.sashi"))
    assert not CAT.is_short(CAT.maneuver("yari.sashi")) and not CAT.is_short(CAT.maneuver("kanabou.kyouda"))
    assert CAT.by_name("突き").id == "katana.sashi"
    assert CAT.by_name("野太刀", "weapons").id == "zanbatou"
    assert CAT.is_ranged(CAT.maneuver("teppou.shageki"))
    with pytest.raises(InputError, match="ambiguous"):
        CAT.by_name("刺し")
    with pytest.raises(InputError):
        CAT.maneuver("katana.nope")


def test_every_weapon_maneuver_points_back() -> None:
    for w in CAT.weapons.values():
        for m in CAT.maneuvers_of(w.id):
            assert m.weapon == w.id, (w.id, m.id)


@pytest.mark.parametrize(
    ("text", "kind", "n"),
    [("pierce 2", "pierce", 2), ("pierce_all", "pierce", None), ("[貫通 全体]", "pierce", None),
     ("直撃 2", "direct", 2), ("direct all", "direct", None), ("spirit", "spirit", None), ("[破壊]", "break", None)],
)
def test_tag_parse(text: str, kind: str, n: int | None) -> None:
    t = Tag.parse(text)
    assert (t.kind, t.n) == (kind, n)


@pytest.mark.parametrize("text", ["pierce", "break 2", "fire 2", "pierce x"])
def test_tag_parse_rejects(text: str) -> None:
    with pytest.raises(ValueError):
        Tag.parse(text)


def test_homebrew_merges_and_overrides(tmp_path: Path) -> None:
    f = tmp_path / "home.yaml"
    f.write_text(
        "weapons:\n"
        "  - {id: kusarigama, name: 鎖鎌, skill: 鎖術, maneuvers: [kusarigama.nage]}\n"
        "maneuvers:\n"
        "  - {id: kusarigama.nage, name: 分銅投げ, weapon: kusarigama, kind: attack, cost: 2, ability: 技,"
        " tags: ['direct 1']}\n"
        "  - {id: katana.yokogiri, name: 横斬り, weapon: katana, kind: attack, cost: 1, ability: 勇}\n",
        "utf-8",
    )
    cat = load_catalog([f])
    assert cat.maneuver("kusarigama.nage").tag("direct") == Tag(kind="direct", n=1)
    assert cat.maneuver("katana.yokogiri").cost == 1
    assert CAT.maneuver("katana.yokogiri").cost == 2  # the cached default is untouched
    assert cat.origin["maneuvers:kusarigama.nage"] == str(f)


@pytest.mark.parametrize(
    ("body", "field", "msg"),
    [
        ("maneuvers:\n  - {id: x.y, name: X, weapon: bogus, kind: attack, cost: 1}\n", "maneuvers.0.weapon", "bogus"),
        ("weapons:\n  - {id: w, name: W, maneuvers: [nope.nope]}\n", "weapons.0.maneuvers.0", "nope.nope"),
        ("maneuvers:\n  - {id: x.y, name: X, kind: attack, cost: -1}\n", "maneuvers.0.cost", "greater"),
        ("maneuvers:\n  - {id: x.y, name: X, kind: attack, cost: 1, tags: [fire 2]}\n", "maneuvers.0.tags.0", "tag"),
        ("maneuvers:\n  - {id: X Y, name: X, kind: attack, cost: 1}\n", "maneuvers.0.id", "pattern"),
        ("armour:\n  - {id: a, name: A, bonus: 1, grade: 伝説}\n", "armour.0.grade", "伝説"),
        (
            "maneuvers:\n  - {id: a.b, name: A, kind: attack, cost: 1, reservable: true}\n",
            "maneuvers.0.reservable",
            "S-R39",
        ),
        ("spells: []\n", "spells", "Extra"),
    ],
)
def test_homebrew_errors_name_file_and_field(tmp_path: Path, body: str, field: str, msg: str) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(body, "utf-8")
    with pytest.raises(InputError) as err:
        load_catalog([f])
    assert err.value.source == str(f)
    assert err.value.field == field
    assert msg in err.value.message


def test_homebrew_duplicate_and_malformed(tmp_path: Path) -> None:
    f = tmp_path / "dup.yaml"
    f.write_text("stances:\n  - {id: s, name: S}\n  - {id: s, name: T}\n", "utf-8")
    with pytest.raises(InputError, match="duplicate") as err:
        load_catalog([f])
    assert err.value.field == "stances.1.id"
    g = tmp_path / "broken.yaml"
    g.write_text("weapons: [\n", "utf-8")
    with pytest.raises(InputError, match="malformed YAML"):
        load_catalog([g])
    with pytest.raises(InputError, match="not found"):
        load_catalog([tmp_path / "missing.yaml"])
