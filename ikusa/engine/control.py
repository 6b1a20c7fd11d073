"""Who decides for each unit and who rolls its dice (issue #8 §1).

Every unit has a *controller* — ``gm`` (the GM decides), ``player:<name>`` (a named
player decides) or ``ai:<policy>`` (an AI policy of the system decides) — and a *dice
mode*: ``auto`` (the software rolls), ``manual`` (physical dice are typed in) or ``ask``
(the roller chooses per roll).  Defaults are set per side and overridden per unit, in an
encounter's ``control:`` section::

    control:
      default: {controller: gm, dice: auto}      # every unit not named below
      gm: {dice: manual}                         # the GM's own rolls (d100 tables …)
      sides:
        pc: {controller: "player:alice", dice: manual}
        npc: ai:greedy                           # shorthand: the controller alone
      units:
        oni: {dice: ask}

or mid-combat by a logged ``control`` ruling (:class:`~ikusa.engine.rulings.SetControl`).
The table is part of the combat record: the encounter's section plus every ``control``
entry, so a replay reproduces it.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from ikusa.engine.errors import InputError

DiceMode = Literal["auto", "manual", "ask"]
DICE_MODES: tuple[DiceMode, ...] = ("auto", "manual", "ask")

#: the id of the game master as a decider and a roller
GM = "GM"

_CONTROLLER = re.compile(r"^(gm|player:[^\s:][^:]{0,79}|ai:[A-Za-z0-9_.-]{1,40})$")


@dataclass(slots=True, frozen=True)
class UnitControl:
    """Who decides for one unit (``controller``) and how its dice are rolled (``dice``)."""

    controller: str = "gm"
    dice: DiceMode = "auto"

    @property
    def kind(self) -> str:
        """``gm``, ``player`` or ``ai``."""
        return self.controller.partition(":")[0]

    @property
    def who(self) -> str:
        """The player's name or the AI policy's name (``""`` for the GM)."""
        return self.controller.partition(":")[2]

    @property
    def is_ai(self) -> bool:
        return self.kind == "ai"

    @property
    def human(self) -> bool:
        return not self.is_ai

    def label(self) -> str:
        names = {"gm": "GM", "player": f"PL {self.who}", "ai": f"AI {self.who}"}
        return f"{names.get(self.kind, self.controller)} · ダイス{_DICE_JA[self.dice]}"


_DICE_JA = {"auto": "自動", "manual": "手入力", "ask": "都度選択"}


def check_controller(value: Any, source: str, where: str) -> str:
    """A valid controller string (``gm``, ``player:<name>``, ``ai:<policy>``), lower-cased kind."""
    if not isinstance(value, str):
        raise InputError(f"must be 'gm', 'player:<name>' or 'ai:<policy>', not {value!r}",
                         source=source, field=where)
    text = value.strip()
    kind, sep, rest = text.partition(":")
    text = kind.lower() + sep + rest
    if not _CONTROLLER.match(text):
        hint = ""
        if kind.lower() in ("player", "ai") and not rest:
            hint = f" ({kind.lower()}:<{'name' if kind.lower() == 'player' else 'policy'}>)"
        raise InputError(f"must be 'gm', 'player:<name>' or 'ai:<policy>', not {value!r}{hint}",
                         source=source, field=where)
    return text


def check_dice(value: Any, source: str, where: str) -> DiceMode:
    if value not in DICE_MODES:
        raise InputError(f"must be one of auto, manual, ask, not {value!r}", source=source, field=where)
    mode: DiceMode = value
    return mode


@dataclass(slots=True, frozen=True)
class ControlPart:
    """One partial setting: ``None`` = inherit."""

    controller: str | None = None
    dice: DiceMode | None = None

    def over(self, base: UnitControl) -> UnitControl:
        return UnitControl(self.controller or base.controller, self.dice or base.dice)

    def to_json(self) -> dict[str, str]:
        out: dict[str, str] = {}
        if self.controller is not None:
            out["controller"] = self.controller
        if self.dice is not None:
            out["dice"] = self.dice
        return out


def _part(raw: Any, source: str, where: str) -> ControlPart:
    if isinstance(raw, str):
        if raw in DICE_MODES:
            return ControlPart(dice=check_dice(raw, source, where))
        return ControlPart(controller=check_controller(raw, source, where))
    if not isinstance(raw, dict):
        raise InputError("must be a mapping {controller, dice} or a controller such as 'ai:greedy'",
                         source=source, field=where)
    unknown = sorted(set(raw) - {"controller", "dice"})
    if unknown:
        raise InputError(_unknown_keys(unknown, ["controller", "dice"]), source=source, field=where)
    ctl = raw.get("controller")
    dice = raw.get("dice")
    return ControlPart(None if ctl is None else check_controller(ctl, source, f"{where}.controller"),
                       None if dice is None else check_dice(dice, source, f"{where}.dice"))


def _unknown_keys(unknown: list[str], known: list[str]) -> str:
    parts = []
    for k in unknown:
        close = difflib.get_close_matches(k, known, n=3, cutoff=0.5)
        parts.append(f"{k!r}" + (f" (did you mean {', '.join(close)}?)" if close else ""))
    return f"unknown key(s) {', '.join(parts)}; known: {', '.join(known)}"


@dataclass(slots=True)
class ControlSpec:
    """The ``control:`` section of an encounter, parsed but not yet checked against the
    roster (the unit ids and sides come from the state: :meth:`ControlTable.build`)."""

    default: ControlPart = field(default_factory=ControlPart)
    gm: ControlPart = field(default_factory=ControlPart)
    sides: dict[str, ControlPart] = field(default_factory=dict)
    units: dict[str, ControlPart] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.default.to_json():
            out["default"] = self.default.to_json()
        if self.gm.to_json():
            out["gm"] = self.gm.to_json()
        if self.sides:
            out["sides"] = {k: v.to_json() for k, v in self.sides.items()}
        if self.units:
            out["units"] = {k: v.to_json() for k, v in self.units.items()}
        return out


_SECTION_KEYS = ["default", "gm", "sides", "units"]


def parse_control(raw: Any, source: str, where: str = "control") -> ControlSpec:
    """Validate the syntax of a ``control:`` section (every field named in errors)."""
    spec = ControlSpec()
    if raw is None:
        return spec
    if not isinstance(raw, dict):
        raise InputError("must be a mapping with default, gm, sides and/or units", source=source, field=where)
    unknown = sorted(set(raw) - set(_SECTION_KEYS))
    if unknown:
        raise InputError(_unknown_keys(unknown, _SECTION_KEYS), source=source, field=where)
    if raw.get("default") is not None:
        spec.default = _part(raw["default"], source, f"{where}.default")
    if raw.get("gm") is not None:
        spec.gm = _part(raw["gm"], source, f"{where}.gm")
        if spec.gm.controller not in (None, "gm"):
            raise InputError("the GM's own decisions are the GM's: only 'dice' may be set here",
                             source=source, field=f"{where}.gm.controller")
    for group in ("sides", "units"):
        items = raw.get(group)
        if items is None:
            continue
        if not isinstance(items, dict):
            raise InputError("must be a mapping of id: {controller, dice}", source=source, field=f"{where}.{group}")
        target: dict[str, ControlPart] = getattr(spec, group)
        for key, val in items.items():
            target[str(key)] = _part(val, source, f"{where}.{group}.{key}")
    return spec


#: one unit as the state lists it: (unit id, name, side)
RosterRow = tuple[str, str, str]


@dataclass(slots=True)
class ControlTable:
    """Who decides and who rolls, for every unit of a combat and for the GM."""

    spec: ControlSpec
    roster: list[RosterRow]
    #: mid-combat overrides (logged ``control`` rulings), unit id → setting
    overrides: dict[str, ControlPart] = field(default_factory=dict)
    side_overrides: dict[str, ControlPart] = field(default_factory=dict)

    @classmethod
    def build(cls, spec: ControlSpec | None, roster: list[RosterRow], source: str = "",
              where: str = "control") -> ControlTable:
        """Check ``spec``'s unit ids and sides against the roster, naming any unknown one
        with the close matches."""
        spec = spec or ControlSpec()
        table = cls(spec, list(roster))
        for uid in spec.units:
            table.check_unit(uid, source, f"{where}.units.{uid}")
        for side in spec.sides:
            table.check_side(side, source, f"{where}.sides.{side}")
        return table

    # -- lookups ------------------------------------------------------------------
    @property
    def unit_ids(self) -> list[str]:
        return [u for u, _, _ in self.roster]

    @property
    def sides(self) -> list[str]:
        return list(dict.fromkeys(s for _, _, s in self.roster))

    def side_of(self, unit: str) -> str | None:
        return next((s for u, _, s in self.roster if u == unit), None)

    def name_of(self, unit: str) -> str:
        if unit == GM:
            return "GM"
        return next((n for u, n, _ in self.roster if u == unit), unit)

    def check_unit(self, uid: str, source: str = "", where: str = "unit") -> str:
        """``uid`` itself, or its id when a unit's name was given; unknown → InputError."""
        ids = self.unit_ids
        if uid in ids:
            return uid
        by_name = [u for u, n, _ in self.roster if n == uid]
        if len(by_name) == 1:
            return by_name[0]
        close = difflib.get_close_matches(uid, ids + [n for _, n, _ in self.roster], n=3, cutoff=0.5)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        listed = ", ".join(f"{u} ({n})" for u, n, _ in self.roster)
        raise InputError(f"unknown unit {uid!r}{hint}; units: {listed}", source=source, field=where)

    def check_side(self, side: str, source: str = "", where: str = "side") -> str:
        if side in self.sides:
            return side
        close = difflib.get_close_matches(side, self.sides, n=3, cutoff=0.5)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise InputError(f"unknown side {side!r}{hint}; sides: {', '.join(self.sides)}", source=source, field=where)

    def resolve(self, who: str) -> str:
        """A roller as a unit id: ids stay, a unique unit name becomes its id (fantasy rolls
        name their roller by name), anything else is the GM's."""
        if who in (GM, "") or who in self._ids():
            return who or GM
        by_name = [u for u, n, _ in self.roster if n == who]
        return by_name[0] if len(by_name) == 1 else GM

    def _ids(self) -> set[str]:
        return {u for u, _, _ in self.roster}

    def of(self, actor: str) -> UnitControl:
        """The control of a unit id, or of the GM (``"GM"``/``""``: the GM always decides)."""
        actor = self.resolve(actor)
        if actor in (GM, ""):
            return UnitControl("gm", self.spec.gm.dice or self.spec.default.dice or "auto")
        ctl = self.spec.default.over(UnitControl())
        side = self.side_of(actor)
        if side is not None:
            part = self.spec.sides.get(side)
            if part is not None:
                ctl = part.over(ctl)
            part = self.side_overrides.get(side)
            if part is not None:
                ctl = part.over(ctl)
        part = self.spec.units.get(actor)
        if part is not None:
            ctl = part.over(ctl)
        part = self.overrides.get(actor)
        if part is not None:
            ctl = part.over(ctl)
        return ctl

    def everyone(self) -> dict[str, UnitControl]:
        return {u: self.of(u) for u in self.unit_ids}

    # -- changes ------------------------------------------------------------------
    def set(self, unit: str | None, side: str | None, controller: str | None, dice: DiceMode | None) -> str:
        """Apply a ``control`` ruling; returns the narrated line (Japanese labels)."""
        if controller is not None:
            controller = check_controller(controller, "<ruling>", "controller")
        if dice is not None:
            dice = check_dice(dice, "<ruling>", "dice")
        if controller is None and dice is None:
            raise InputError("a control ruling needs a controller and/or dice", field="ruling")
        if unit is not None and side is not None:
            raise InputError("give a unit or a side, not both", field="ruling")
        if unit is not None:
            if unit in (GM, "gm"):
                if controller not in (None, "gm"):
                    raise InputError("the GM's own decisions are the GM's: only dice may change", field="ruling.unit")
                self.spec = replace(self.spec, gm=ControlPart("gm", dice or self.spec.gm.dice))
                return f"GM のダイス: {_DICE_JA[self.of(GM).dice]}"
            uid = self.check_unit(unit, "<ruling>", "ruling.unit")
            old = self.overrides.get(uid, ControlPart())
            self.overrides[uid] = ControlPart(controller or old.controller, dice or old.dice)
            return f"{self.name_of(uid)}: {self.of(uid).label()}"
        if side is not None:
            s = self.check_side(side, "<ruling>", "ruling.side")
            old = self.side_overrides.get(s, ControlPart())
            self.side_overrides[s] = ControlPart(controller or old.controller, dice or old.dice)
            # a side-wide change also wins over earlier per-unit overrides of that side
            for uid in [u for u, _, sd in self.roster if sd == s]:
                o = self.overrides.get(uid)
                if o is not None:
                    self.overrides[uid] = ControlPart(None if controller else o.controller,
                                                      None if dice else o.dice)
            return f"陣営 {s}: " + ControlPart(controller, dice).over(UnitControl()).label()
        # neither: the default of everybody
        self.spec = replace(self.spec, default=ControlPart(controller or self.spec.default.controller,
                                                           dice or self.spec.default.dice))
        self.overrides.clear()
        self.side_overrides.clear()
        return "全員: " + self.spec.default.over(UnitControl()).label()

    def add_unit(self, row: RosterRow) -> None:
        """A combatant joined mid-fight (``add_unit`` ruling): it inherits its side's control."""
        if row[0] not in self.unit_ids:
            self.roster.append(row)
