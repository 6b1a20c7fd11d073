"""The d100 tables of maai as data a GM supplies or edits (S-G07, S-R11, S-R36; issue #13):
決定的瞬間表 (天命), 致命的失敗表 (業報) and 妖魔乱入遭遇表 (小康), and the reinforcements the last
one brings in.

The texts name the three tables but print none (001:L324, L346; 000:L201), so the shipped file
``ikusa/systems/maai/data/tables/d100.yaml`` holds S-G07's placeholders (bands invented).  An
encounter replaces any of them under ``homebrew: tables:`` in the same format
(docs/maai-catalog.md "d100 tables"); every problem of a table file is listed in one error.

* ``tenmei`` / ``gouhou``: ``{upto, outcome, text}`` bands, ``upto`` rising to 100, each outcome
  one the engine applies (options.TABLE_OUTCOMES).  The options ``tables.tenmei`` /
  ``tables.gouhou`` hold the same bands and are used when an encounter sets them or gives no
  table of its own (their defaults equal the shipped file; a test keeps them equal).
* ``youma``: the 妖魔乱入遭遇表 rolled at 小康 when the GM rules ``env:ambush``
  (``tables.ambush_encounter``): each band has an ``event`` (``none``, ``ambush``, ``fire``,
  ``fog``, ``collapse``, or any name), a ``text``, an optional ``effect`` (an effect as in
  ``effects:``, put on every able unit: a battlefield change) and ``units`` (ids of
  ``reinforcements``: they join the battle, S-R35).
* ``reinforcements``: id → a unit as in ``units:`` (side, zone … checked at load).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ikusa.engine.effects import EffectSpec
from ikusa.engine.errors import InputError
from ikusa.systems.maai.options import TABLE_OUTCOMES

#: the environment events the GM may rule at 小康 (S-R36, 000:L201)
ENV_EVENTS = ("none", "ambush", "fire", "fog", "collapse")


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Band(_Model):
    upto: int = Field(ge=1, le=100)
    outcome: str
    text: str = ""


class EnvBand(_Model):
    upto: int = Field(ge=1, le=100)
    event: str = Field(min_length=1)
    text: str = ""
    effect: EffectSpec | None = None
    units: tuple[str, ...] = ()


class TableFile(_Model):
    tenmei: tuple[Band, ...] | None = None
    gouhou: tuple[Band, ...] | None = None
    youma: tuple[EnvBand, ...] | None = None
    reinforcements: dict[str, dict[str, Any]] = Field(default_factory=dict)


class Tables:
    """The tables in force for one encounter."""

    def __init__(self, tenmei: tuple[Band, ...], gouhou: tuple[Band, ...], youma: tuple[EnvBand, ...],
                 reinforcements: dict[str, dict[str, Any]], own: frozenset[str]) -> None:
        self.tenmei = tenmei
        self.gouhou = gouhou
        self.youma = youma
        self.reinforcements = reinforcements
        #: the tables the encounter gave itself (the others are the shipped placeholders)
        self.own = own

    def bands(self, table: str, opts: Any, options_given: bool) -> tuple[tuple[int, str], ...]:
        """(upto, outcome) of 天命 (``tenmei``) or 業報 (``gouhou``): the encounter's own table,
        unless its options set ``tables.<table>`` (then the options' bands)."""
        if table in self.own and not options_given:
            return tuple((b.upto, b.outcome) for b in getattr(self, table))
        return tuple(getattr(opts.tables, table))

    def env(self, roll: int) -> EnvBand:
        return next((b for b in self.youma if roll <= b.upto), self.youma[-1])


def _problems(data: Any, where: str) -> list[str]:
    """Every problem of one table file's data (empty: valid)."""
    if not isinstance(data, dict):
        return [f"{where}: must be a mapping with tenmei, gouhou, youma, reinforcements"]
    try:
        tf = TableFile.model_validate(data)
    except ValidationError as exc:
        return [f"{where}.{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', 'invalid')}"
                for e in exc.errors()]
    out: list[str] = []
    for name in ("tenmei", "gouhou", "youma"):
        bands = getattr(tf, name)
        if bands is None:
            continue
        if not bands:
            out.append(f"{where}.{name}: a d100 table needs at least one band")
            continue
        last = 0
        for i, b in enumerate(bands):
            if b.upto <= last:
                out.append(f"{where}.{name}.{i}.upto: bands must rise; {b.upto} after {last}")
            last = max(last, b.upto)
            if isinstance(b, Band) and b.outcome not in TABLE_OUTCOMES:
                out.append(f"{where}.{name}.{i}.outcome: unknown outcome {b.outcome!r}; known: "
                           f"{', '.join(TABLE_OUTCOMES)}")
            if isinstance(b, EnvBand):
                out += [f"{where}.{name}.{i}.units: unknown reinforcement {u!r} (reinforcements: "
                        f"{', '.join(tf.reinforcements) or 'none'})" for u in b.units if u not in tf.reinforcements]
        if last != 100:
            out.append(f"{where}.{name}: the last band must reach 100, not {last}")
    return out


def parse_tables(data: Any, source: str, where: str = "tables") -> TableFile:
    """A table file's data, validated; every problem in one :class:`InputError`."""
    problems = _problems(data, where)
    if problems:
        raise InputError("; ".join(problems), source=source, field=where)
    return TableFile.model_validate(data)


@cache
def shipped() -> TableFile:
    """The shipped placeholder tables (S-G07)."""
    text = resources.files("ikusa.systems.maai").joinpath("data", "tables", "d100.yaml").read_text("utf-8")
    return parse_tables(yaml.safe_load(text), "maai/data/tables/d100.yaml")


def encounter_tables(raw: Any, enc: Any, source: str) -> Tables:
    """An encounter's ``homebrew: tables:`` over the shipped ones; its reinforcements checked as
    units of this encounter (side, zone, catalog names), each problem naming its field."""
    base = shipped()
    own = parse_tables(raw, source, "homebrew.tables") if raw is not None else TableFile()
    reinf = {**base.reinforcements, **own.reinforcements}
    youma = tuple(_canonical(b, i, source) for i, b in enumerate(own.youma or base.youma or ()))
    tables = Tables(own.tenmei or base.tenmei or (), own.gouhou or base.gouhou or (), youma,
                    reinf, frozenset(k for k in ("tenmei", "gouhou", "youma") if getattr(own, k) is not None))
    if own.youma is not None or own.reinforcements:
        _check_reinforcements(tables, enc, source)
    return tables


def _canonical(b: EnvBand, i: int, source: str) -> EnvBand:
    """A band whose effect has maai's canonical modifier keys (命中 → attack …), or an error
    naming the field."""
    if b.effect is None:
        return b
    from ikusa.systems.gm_support import check_effect
    from ikusa.systems.maai.effects import CLOCKS, MODIFIER_KEYS

    where = f"homebrew.tables.youma.{i}.effect"
    try:
        return b.model_copy(update={"effect": check_effect(b.effect, MODIFIER_KEYS, CLOCKS, {}, where)})
    except InputError as exc:
        raise InputError(exc.message, source=source, field=exc.field or where) from None


def _check_reinforcements(tables: Tables, enc: Any, source: str) -> None:
    from ikusa.systems.maai.encounter import UnitSpec, _resolve_unit

    ids = {u.id for u in enc.units}
    problems: list[str] = []
    for rid, spec in tables.reinforcements.items():
        where = f"homebrew.tables.reinforcements.{rid}"
        try:
            u = UnitSpec.model_validate({"id": rid, **spec})
        except ValidationError as exc:
            problems += [f"{where}.{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg')}" for e in exc.errors()]
            continue
        if rid in ids:
            problems.append(f"{where}: id {rid!r} is already a unit of the encounter")
        if u.side not in enc.sides:
            problems.append(f"{where}.side: {u.side!r} is not one of sides {enc.sides}")
        if u.zone is not None and u.zone not in enc.zones:
            problems.append(f"{where}.zone: {u.zone!r} is not one of zones {enc.zones}")
        if u.operator is not None:
            problems.append(f"{where}.operator: a 式神/傀儡 cannot join mid-fight (S-G24)")
        try:
            _resolve_unit(enc.catalog, enc.opts, u, 0, source)
        except InputError as exc:
            problems.append(f"{where}: {exc.message}")
    if problems:
        raise InputError("; ".join(problems), source=source, field="homebrew.tables")
