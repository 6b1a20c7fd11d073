"""``homebrew:`` of a 千幻抄 encounter (issue #8 §6): a GM's own bullet sources, spell cards and
spells, written like the shipped ``data/*.yaml`` (docs/encounter-format.md), plus ``effects:``
(sengensyou/effects.py).  The encounter's catalogue is the shipped one with these added.

Every problem is reported at once: the schema's (an unknown key named, with the close
matches) and the references a schema cannot check (an ability, feat, skill or item that is
not a 千幻抄 term, G-H01/G-H02; an id the shipped catalogue already has)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ikusa.engine.encounter import validation_error
from ikusa.engine.errors import InputError
from ikusa.systems.sengensyou.catalog import Bullet, Catalog, Spell, SpellCard, catalog

#: the sections of ``homebrew:``, each a mapping of id → entry
SECTIONS = ("bullets", "spellcards", "spells", "effects")


class HomebrewContent(BaseModel):
    """The content sections of ``homebrew:`` (``effects`` is read by sengensyou/effects.py)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    bullets: dict[str, Bullet] = Field(default_factory=dict, description="弾の種別 (G-R13..G-R18)")
    spellcards: dict[str, SpellCard] = Field(default_factory=dict, description="スペルカード (G-R21, G-G24)")
    spells: dict[str, Spell] = Field(default_factory=dict, description="スペル (G-G22)")
    effects: Any = None


class _Document(BaseModel):
    """Only to name ``homebrew.`` in the paths of schema errors."""

    model_config = ConfigDict(extra="ignore")
    homebrew: HomebrewContent


def _with_ids(raw: Any) -> Any:
    if not isinstance(raw, dict):
        return raw
    return {k: ({**v, "id": k} if isinstance(v, dict) else v) for k, v in raw.items()}


def encounter_catalog(homebrew: Any, source: str) -> Catalog:
    """The shipped catalogue plus the encounter's ``homebrew:`` content (the shipped one
    itself when there is none); every problem in one :class:`InputError`."""
    shipped = catalog()
    if homebrew is None or homebrew == {}:
        return shipped
    if not isinstance(homebrew, dict):
        raise InputError(f"homebrew must be a mapping of sections ({', '.join(SECTIONS)})", source=source,
                         field="homebrew")
    data = {k: (_with_ids(v) if k != "effects" else v) for k, v in homebrew.items()}
    try:
        content = _Document.model_validate({"homebrew": data}).homebrew
    except ValidationError as exc:
        raise validation_error(exc, source, _Document) from None
    problems = _reference_problems(content, shipped)
    if problems:
        field, first = problems[0]
        rest = [f"{f}: {m}" for f, m in problems[1:]]
        more = f" ({len(problems)} problems)" if len(problems) > 1 else ""
        raise InputError("; ".join([first, *rest]) + more, source=source, field=field)
    if not (content.bullets or content.spellcards or content.spells):
        return shipped
    return Catalog(bullets={**shipped.bullets, **content.bullets},
                   spellcards={**shipped.spellcards, **content.spellcards},
                   spells={**shipped.spells, **content.spells}, terms=shipped.terms)


def _reference_problems(content: HomebrewContent, shipped: Catalog) -> list[tuple[str, str]]:
    """(field, message) for each reference a schema cannot check."""
    terms = shipped.terms
    out: list[tuple[str, str]] = []

    def term(field: str, name: str, known: tuple[str, ...], what: str, rule: str) -> None:
        if name not in known:
            out.append((field, f"unknown {what} {name!r} ({rule}); known: {', '.join(known)}"))

    for section, table, shipped_table in (("bullets", content.bullets, shipped.bullets),
                                          ("spellcards", content.spellcards, shipped.spellcards),
                                          ("spells", content.spells, shipped.spells)):
        for key, entry in table.items():
            if key in shipped_table:
                out.append((f"homebrew.{section}.{key}", f"{key!r} is already a shipped entry "
                            f"({shipped_table[key].name}); give the homebrew one an id of its own"))
            clash = next((k for k, v in shipped_table.items() if v.name == entry.name and k != key), None)
            if clash is not None:
                out.append((f"homebrew.{section}.{key}.name", f"the name {entry.name!r} is the shipped "
                            f"{clash!r}'s; names stand for ids in encounters, so they must differ"))
    for key, b in content.bullets.items():
        where = f"homebrew.bullets.{key}"
        for a in b.requires.abilities:
            term(f"{where}.requires.abilities", a, terms.abilities, "ability", "G-H02")
        for a in b.requires.feats:
            term(f"{where}.requires.feats", a, terms.feats, "feat", "G-H02")
        for s in (*b.requires.skills, *b.shot_needs_skills,
                  *(x for x in (b.weapon_skill, b.fixed_damage_skill) if x is not None)):
            term(f"{where}", s, terms.skills, "skill", "G-H01")
        known = terms.abilities if b.level_kind == "ability" else terms.feats
        term(f"{where}.level", b.level_name, known, b.level_kind, "G-R13..G-R18: the damage-dice Lv")
        if b.homing_needs_item is not None:
            term(f"{where}.homing_needs_item", b.homing_needs_item, terms.items, "item", "G-H02")
    for key, c in content.spellcards.items():
        if c.ability is not None:
            term(f"homebrew.spellcards.{key}.ability", c.ability, terms.abilities, "ability", "G-G24")
        if c.type == "deploy" and c.hp == 0:
            out.append((f"homebrew.spellcards.{key}.hp", "a deploy (展開型) card needs hp > 0: damage goes to "
                        "the card first (G-R21, G-G24)"))
        if c.type == "consume" and c.damage_dice == 0:
            out.append((f"homebrew.spellcards.{key}.damage_dice", "a consume (消費型) card used as an action "
                        "deals damage_dice D + stat: give damage_dice ≥ 1 (G-G24)"))
    for key, sp in content.spells.items():
        term(f"homebrew.spells.{key}.ability", sp.ability, terms.abilities, "ability", "G-G22")
    return out
