"""Encounter files for 千幻抄: pydantic schema plus the rule checks a schema cannot express
(unknown skill, row rule G-R10, …).  Every error is an :class:`InputError` naming the file
and the field, and the rule when one is broken."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from ikusa.engine.encounter import validation_error
from ikusa.engine.errors import InputError
from ikusa.systems.gm_support import EffectsSetup
from ikusa.systems.sengensyou.catalog import Catalog, catalog
from ikusa.systems.sengensyou.character import STATS, CharacterSpec
from ikusa.systems.sengensyou.options import SengensyouOptions

#: the most entries one encounter memo holds before it starts afresh (issue #12)
MEMO_CAP = 50_000


class BattleSetup:
    """What every battle of one encounter reads at its start (:meth:`Encounter.battle_setup`):
    the catalogue, the sides, the GM effects and the memos (nothing in it changes once the
    encounter is validated; the memos only gain entries)."""

    __slots__ = ("catalog", "homebrew_effects", "memos", "sides", "start_effects")

    def __init__(self, cat: Catalog, sides: list[str], homebrew_effects: dict[str, Any],
                 start_effects: list[tuple[str, Any]], memos: dict[str, dict[Any, Any]]) -> None:
        self.catalog = cat
        self.sides = sides
        self.homebrew_effects = homebrew_effects
        self.start_effects = start_effects
        self.memos = memos

    def memo(self, name: str) -> dict[Any, Any]:
        """The memo ``name`` (see :meth:`Encounter.memo`)."""
        got = self.memos.get(name)
        if got is None or len(got) > MEMO_CAP:
            got = self.memos[name] = {}
        return got


class Reinforcement(BaseModel):
    """G-R28: a character joining at the start of ``turn`` with DP = DP回復数 × 2."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    turn: int = Field(ge=2)
    character: CharacterSpec


class Surprise(BaseModel):
    """G-R24 / G-G29: ``side`` ambushes during turn 1 from ``range``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    side: str
    range: Literal["within", "outside", "far"] = "within"


class Encounter(EffectsSetup):
    """A validated 千幻抄 encounter."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    title: str = ""
    options: SengensyouOptions = SengensyouOptions()
    pc_side: str | None = Field(None, description="the players' side (ties, G-G04; simplified order, G-R30)")
    leader: str | None = Field(None, description="the NPC leader of the simplified order (G-R30)")
    characters: list[CharacterSpec] = Field(min_length=2)
    reinforcements: list[Reinforcement] = Field(default_factory=list)
    surprise: Surprise | None = None
    #: ``homebrew:`` bullets, spellcards, spells (sengensyou/homebrew.py) and effects (effects.py)
    homebrew: dict[str, Any] = Field(default_factory=dict)
    #: effects active at the start: ``{unit, effect: {...}}`` or ``{unit, name}``
    effects: list[dict[str, Any]] = Field(default_factory=list)
    _catalog: Catalog | None = PrivateAttr(None)
    #: issue #12: memos shared by every battle of this encounter (SengensyouState.option_memo …)
    _memos: dict[str, dict[Any, Any]] = PrivateAttr(default_factory=dict)
    #: issue #12: what every battle reads at its start (battle_setup)
    _setup: BattleSetup | None = PrivateAttr(None)

    def memo(self, name: str) -> dict[Any, Any]:
        """The memo ``name`` of this encounter's battles (option lists keyed by every number
        they are made from): built once, shared by every battle of the encounter (issue #12);
        emptied past MEMO_CAP entries, so a long-running table never grows without bound."""
        return self.battle_setup().memo(name)

    def battle_setup(self) -> BattleSetup:
        """The numbers and memos every battle of this encounter reads when it starts, gathered
        once (issue #12: each read of a pydantic private attribute is a ``__getattr__`` call
        of a few microseconds; a short battle made a dozen of them)."""
        got = self._setup
        if got is None:
            got = self._setup = BattleSetup(self.catalog, self.sides, dict(self._homebrew_effects),
                                            list(self._start_effects), self._memos)
        return got

    @property
    def catalog(self) -> Catalog:
        """This encounter's catalogue: the shipped one plus its ``homebrew:`` content."""
        return self._catalog if self._catalog is not None else catalog()

    @property
    def pcs(self) -> str:
        return self.pc_side or self.characters[0].side

    @property
    def sides(self) -> list[str]:
        out: list[str] = []
        for c in [*self.characters, *(r.character for r in self.reinforcements)]:
            if c.side not in out:
                out.append(c.side)
        return out


#: sanity bounds on hand-written numbers (invented: 003 gives no ranges).  DP is also bounded
#: by the dice limit of one roll (200), since a pool check rolls one die per DP.
MAX_STAT = 30
MAX_LEVEL = 20
MAX_DP = 200


def _check_character(c: CharacterSpec, where: str, source: str, cat: Catalog | None = None) -> None:
    cat = cat or catalog()
    terms = cat.terms

    def bad(field: str, msg: str) -> InputError:
        return InputError(msg, source=source, field=f"{where}.{field}")

    missing = [s for s in STATS if s not in c.stats]
    if missing:
        raise bad("stats", f"missing 特性値 {missing} (G-H01: 身体 耐久 知性 感覚 意志)")
    for s, v in c.stats.items():
        if s not in terms.stats:
            raise bad(f"stats.{s}", f"unknown 特性値 {s!r} (G-H01); known: {', '.join(terms.stats)}")
        if not 0 <= v <= MAX_STAT:
            raise bad(f"stats.{s}", f"特性値 must be 0..{MAX_STAT} (G-H01; sanity bound, invented), not {v}")
    for kind, known, values in (("skills", terms.skills, c.skills), ("abilities", terms.abilities, c.abilities),
                                ("feats", terms.feats, c.feats)):
        for name, lv in values.items():
            if name not in known:
                label = {"skills": "skill", "abilities": "ability", "feats": "feat"}[kind]
                raise bad(f"{kind}.{name}", f"unknown {label} {name!r} (G-H01/G-H02); known: {', '.join(known)}")
            if not 0 <= lv <= MAX_LEVEL:
                raise bad(f"{kind}.{name}", f"a level must be 0..{MAX_LEVEL} (G-H01/G-H02; sanity bound, invented), "
                          f"not {lv}")
    for name in ("dp", "dp_max"):
        value = getattr(c, name)
        if value is not None and value > MAX_DP:
            raise bad(name, f"DP above {MAX_DP} cannot be rolled (at most {MAX_DP} dice in one roll), not {value}")
    for i, item in enumerate(c.items):
        if item not in terms.items:
            raise bad(f"items[{i}]", f"unknown item {item!r} (G-H02); known: {', '.join(terms.items)}")
    for i, sc in enumerate(c.spell_cards):
        if sc not in cat.spellcards:
            names = ", ".join(f"{k}={v.name}" for k, v in cat.spellcards.items())
            raise bad(f"spell_cards[{i}]", f"unknown spell card {sc!r} (G-R21); known: {names}")
    for i, sp in enumerate(c.spells):
        if sp not in cat.spells:
            names = ", ".join(f"{k}={v.name}" for k, v in cat.spells.items())
            raise bad(f"spells[{i}]", f"unknown spell {sp!r} (G-G22); known: {names}")
    if c.youdan_skill is not None:
        if c.youdan_skill not in terms.skills:
            raise bad("youdan_skill", f"unknown skill {c.youdan_skill!r}")
        if c.skills.get(c.youdan_skill, 0) < c.abilities.get("妖力", 0):
            raise bad("youdan_skill", "G-R15 (003:L265): the skill combined with [妖弾化] needs Lv ≥ [妖力] Lv")


def _check_rows(chars: list[CharacterSpec], source: str) -> None:
    """G-R10 (003:L108): in each party the back row is no larger than the front row."""
    for side in dict.fromkeys(c.side for c in chars):
        front = sum(1 for c in chars if c.side == side and c.row == "front")
        back = sum(1 for c in chars if c.side == side and c.row == "back")
        if back > front:
            raise InputError(f"G-R10 (003 前衛と後衛): side {side!r} has {back} in the back row but only "
                             f"{front} in the front row; 後衛 must be ≤ 前衛", source=source, field="characters")


def _check_leader(enc: Encounter, lid: str, source: str) -> None:
    """G-R30: the leader of the simplified order is an NPC in the battle from turn 1 (checked
    even with the option off, so a typo does not wait for ``--set options.simplified=true``)."""
    late = next((r for r in enc.reinforcements if r.character.id == lid), None)
    if late is not None:
        raise InputError(f"G-R30: leader {lid!r} arrives as a reinforcement on turn {late.turn}; the leader of "
                         "the simplified order must be in the battle from turn 1", source=source, field="leader")
    leader = next((c for c in enc.characters if c.id == lid), None)
    if leader is None:
        known = ", ".join(c.id for c in enc.characters)
        raise InputError(f"G-R30: leader {lid!r} is not a character of this encounter; characters: {known}",
                         source=source, field="leader")
    if leader.side == enc.pcs:
        raise InputError(f"G-R30: leader {lid!r} is on the PC side {enc.pcs!r}; the leader is an NPC",
                         source=source, field="leader")


def _to_id(value: Any, table: Mapping[str, Any]) -> Any:
    """A spell card or spell named by its Japanese name → its id (issue #8 §6)."""
    if not isinstance(value, str) or value in table:
        return value
    return next((k for k, v in table.items() if value in _names(v.name)), value)


def _names(name: str) -> tuple[str, ...]:
    """A card's full name and its short forms: 霊符「夢想封印」 → 夢想封印; [睡眠術] → 睡眠術."""
    short = name.split("「", 1)[1].rstrip("」") if "「" in name else name.strip("[]")
    return (name, short)


def by_ids(data: dict[str, Any], cat: Catalog | None = None) -> dict[str, Any]:
    """The encounter with every character's ``spell_cards``/``spells`` given by name turned
    into ids (unknown names stay, and are refused with the names listed)."""
    cat = cat or catalog()

    def fix(c: Any) -> Any:
        if not isinstance(c, Mapping):
            return c
        c = dict(c)
        for key, table in (("spell_cards", cat.spellcards), ("spells", cat.spells)):
            if isinstance(c.get(key), list):
                c[key] = [_to_id(v, table) for v in c[key]]
        return c

    if isinstance(data.get("characters"), list):
        data["characters"] = [fix(c) for c in data["characters"]]
    if isinstance(data.get("reinforcements"), list):
        data["reinforcements"] = [{**r, "character": fix(r.get("character"))} if isinstance(r, Mapping) else r
                                  for r in data["reinforcements"]]
    return data


def encounter_from_dict(data: Mapping[str, Any], source: str) -> Encounter:
    """Validate an encounter document (without ``system``/``script``)."""
    from ikusa.systems.sengensyou.homebrew import encounter_catalog

    cat = encounter_catalog(data.get("homebrew"), source)
    try:
        enc = Encounter.model_validate(by_ids(dict(data), cat))
    except ValidationError as exc:
        raise validation_error(exc, source) from None
    enc._catalog = cat
    seen: set[str] = set()
    everyone = [(f"characters[{i}]", c) for i, c in enumerate(enc.characters)]
    everyone += [(f"reinforcements[{i}].character", r.character) for i, r in enumerate(enc.reinforcements)]
    for where, c in everyone:
        if c.id in seen:
            raise InputError(f"duplicate id {c.id!r}", source=source, field=f"{where}.id")
        seen.add(c.id)
        _check_character(c, where, source, cat)
    _check_rows(list(enc.characters), source)
    if len({c.side for c in enc.characters}) < 2:
        raise InputError("a battle needs at least two sides at the start", source=source, field="characters")
    if enc.pc_side is not None and enc.pc_side not in enc.sides:
        raise InputError(f"unknown side {enc.pc_side!r}", source=source, field="pc_side")
    if enc.surprise is not None and enc.surprise.side not in enc.sides:
        raise InputError(f"unknown side {enc.surprise.side!r}", source=source, field="surprise.side")
    if enc.leader is not None:
        _check_leader(enc, enc.leader, source)
    if enc.options.simplified and enc.leader is None:
        raise InputError("G-R30: the simplified order needs 'leader': the id of an NPC", source=source,
                         field="leader")
    from ikusa.systems.sengensyou.effects import encounter_effects

    enc._homebrew_effects, enc._start_effects = encounter_effects(
        enc.homebrew.get("effects"), enc.effects, [c.id for c in enc.characters], source)
    return enc
