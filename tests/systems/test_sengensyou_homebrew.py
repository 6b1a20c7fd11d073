"""sengensyou ``homebrew:`` (issue #8 §6): a GM's own bullet sources, spell cards and spells in
the encounter, named by id or by their Japanese names, validated with every problem listed;
each encounter holds its own catalogue (shipped + homebrew), so nothing leaks between them."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from ikusa.dice.source import RandomSource
from ikusa.engine.driver import make_policy
from ikusa.engine.errors import InputError
from ikusa.engine.runner import Loaded, load_encounter
from ikusa.systems.sengensyou.catalog import catalog

DUEL = Path(__file__).resolve().parents[2] / "examples" / "sengensyou" / "spellcard_duel.yaml"

HOMEBREW: dict[str, Any] = {
    "spellcards": {
        "yin_yang_orb": {"name": "宝具「陰陽鬼神玉」", "type": "consume", "ability": "神術・陰陽術",
                         "damage_dice": 5, "stat": "知性", "targets": "one"},
    },
    "spells": {
        "thunder": {"name": "雷撃の術", "ability": "神術・陰陽術", "stat": "知性", "reiryoku": 1, "tn": 6,
                    "damage_dice": 1, "damage_stat": "知性"},
    },
    "bullets": {
        "amulet": {"name": "[御札]", "requires": {"abilities": ["神術・陰陽術"]}, "level": "ability:神術・陰陽術",
                   "stats": ["感覚"], "attacks": ["barrage", "shot"]},
    },
}


def _doc(**change: Any) -> dict[str, Any]:
    doc: dict[str, Any] = yaml.safe_load(DUEL.read_text("utf-8"))
    doc.update(change)
    return doc


def _load(tmp_path: Path, doc: dict[str, Any], name: str = "enc.yaml") -> Loaded:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), "utf-8")
    return load_encounter(path)


def _reimu_with(doc: dict[str, Any], **fields: Any) -> dict[str, Any]:
    doc["characters"][0].update(fields)
    return doc


def test_homebrew_cards_spells_and_bullets_by_japanese_name_are_played(tmp_path: Path) -> None:
    doc = _reimu_with(_doc(homebrew=HOMEBREW), spell_cards=["陰陽鬼神玉", "musou_fuuin"], spells=["雷撃の術"])
    loaded = _load(tmp_path, doc)
    enc = loaded.encounter
    reimu = enc.characters[0]
    assert reimu.spell_cards == ["yin_yang_orb", "musou_fuuin"] and reimu.spells == ["thunder"]
    c = loaded.new_combat()
    offered: set[str] = set()
    rng, dice = random.Random(2), RandomSource(2)
    pol = make_policy(loaded.module, "greedy")
    while not c.over:
        d = c.pending()
        assert d is not None
        if d.actor == "reimu" and d.kind == "action":
            offered.update(o.key for o in d.options)
        c.push(pol.choose(c.state, d, rng), dice)
    assert any("yin_yang_orb" in k for k in offered), sorted(offered)  # the homebrew card (G-R21)
    assert any("thunder" in k for k in offered), sorted(offered)  # the homebrew spell (G-G22)
    assert any("amulet" in k for k in offered), sorted(offered)  # the homebrew bullet source (G-R13)
    assert "yin_yang_orb" not in catalog().spellcards  # the shipped catalogue is untouched


def test_each_encounter_has_its_own_catalogue(tmp_path: Path) -> None:
    _load(tmp_path, _reimu_with(_doc(homebrew=HOMEBREW), spell_cards=["yin_yang_orb"]), "a.yaml")
    with pytest.raises(InputError) as err:
        _load(tmp_path, _reimu_with(_doc(), spell_cards=["yin_yang_orb"]), "b.yaml")
    assert err.value.field == "characters[0].spell_cards[0]"
    assert "unknown spell card 'yin_yang_orb'" in err.value.message
    assert "musou_fuuin=霊符「夢想封印」" in err.value.message  # names listed with the ids


def test_every_problem_is_listed_and_unknown_keys_get_close_matches(tmp_path: Path) -> None:
    bad = {
        "spelcards": {},
        "spells": {"x": {"name": "X", "ability": "神術・陰陽術", "stat": "知性", "reiryoku": -1, "tn": 6,
                         "damage_dice": 1, "damage_stat": "知性", "tnn": 3}},
    }
    with pytest.raises(InputError) as err:
        _load(tmp_path, _doc(homebrew=bad))
    msg = err.value.message
    assert "unknown key 'spelcards'" in msg and "spellcards" in msg.split("unknown key 'spelcards'")[1]
    assert err.value.field == "homebrew.spells.x.reiryoku"  # ge=0: the first problem, named by its field
    assert msg.startswith("Input should be greater than or equal to 0")
    assert "unknown key 'tnn'" in msg and "tn" in msg
    assert "(3 problems)" in msg


def test_references_a_schema_cannot_check_are_all_named(tmp_path: Path) -> None:
    bad = {
        "spellcards": {
            "musou_fuuin": {"name": "新・夢想封印", "type": "consume", "damage_dice": 3},
            "wall": {"name": "結界「壁」", "type": "deploy", "ability": "陰陽術"},
        },
        "bullets": {"b": {"name": "[b]", "level": "ability:火遁", "stats": ["知性"], "attacks": ["shot"]}},
    }
    with pytest.raises(InputError) as err:
        _load(tmp_path, _doc(homebrew=bad))
    msg = err.value.message
    assert err.value.field == "homebrew.spellcards.musou_fuuin"
    assert "already a shipped entry" in msg
    assert "homebrew.spellcards.wall.ability: unknown ability '陰陽術'" in msg and "神術・陰陽術" in msg
    assert "homebrew.spellcards.wall.hp: a deploy" in msg
    assert "homebrew.bullets.b.level: unknown ability '火遁'" in msg
    assert "(4 problems)" in msg


def test_a_reinforcement_ruling_takes_the_homebrew_card_by_name(tmp_path: Path) -> None:
    loaded = _load(tmp_path, _doc(homebrew=HOMEBREW))
    c = loaded.new_combat()
    sanae = {"id": "sanae", "name": "東風谷早苗", "side": "reimu_side", "stats": {"身体": 3, "耐久": 3, "知性": 5,
             "感覚": 4, "意志": 4}, "skills": {"回避": 2, "弾幕": 2}, "abilities": {"神術・陰陽術": 2},
             "spell_cards": ["陰陽鬼神玉"]}
    c.rule({"op": "add_unit", "unit": sanae}, RandomSource(1))
    f = c.state.fighters["sanae"]
    assert f.spec.spell_cards == ["yin_yang_orb"] and f.cat.spellcards["yin_yang_orb"].damage_dice == 5
