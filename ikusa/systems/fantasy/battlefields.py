"""Battlefields (特殊な場所での戦闘, 002 例1–例3) as data: front capacity from width,
two fronts and pincers, close-range rooms, lines of fire and cliff falls.

F-R06: a GM may add restrictions for other places, so a battlefield is a data record
(``data/battlefields.yaml``); an encounter may define its own.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache

from pydantic import BaseModel, ConfigDict, Field

from ikusa.systems.fantasy.data_files import load_definitions


class Battlefield(BaseModel):
    """Where the fight happens and what that restricts."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    name: str
    rules: tuple[str, ...] = ("F-R06",)
    section: str = "002 特殊な場所での戦闘 (GM ruling)"
    summary: str = ""
    width_m: float | None = Field(None, gt=0, description="F-G16: front cap = floor(width / 1.5), min 1")
    front_capacity: int | None = Field(None, ge=1, description="explicit front cap (overrides width)")
    two_fronts: bool = Field(False, description="F-R08: a unit may have a second front at its rear")
    pincer: bool = Field(False, description="F-R08: a front-only unit engaged on both fronts is pincered")
    all_close_range: bool = Field(False, description="F-R07: every shot and spell is close range, reaches the back")
    medium_area_covers_all: bool = Field(False, description="F-R07/F-G16: 中円 catches everyone present")
    back_to_back_line_of_fire: bool = Field(True, description="F-R09: back row may shoot the enemy back row")
    trip_fall_tn: int | None = Field(None, description="F-R09: ≪足払い≫ → 直感ST against this TN or fall")
    engage_distance_m: int = Field(2, ge=0, description="(invented) distance between engaged front rows")
    row_depth_m: int = Field(5, ge=0, description="(invented) extra distance for each back row involved")
    unit_distance_m: int = Field(20, ge=0, description="(invented) distance between units not engaged")
    close_range_m: int = Field(3, ge=0, description="F-R07 (invented figure): every distance in a narrow room")

    def rule_text(self) -> str:
        return ",".join(self.rules)

    def capacity(self, width_per_fighter: float) -> int | None:
        """F-R08/F-R09/F-G16: front-row cap; ``None`` = unlimited (F-T04: 4 m → 2, F-T05: 2 m → 1)."""
        if self.front_capacity is not None:
            return self.front_capacity
        if self.width_m is None:
            return None
        return max(1, math.floor(self.width_m / width_per_fighter + 1e-9))

    def distance(self, engaged: bool, back_rows: int) -> int:
        """Metres between two characters: engaged units are close, each back row adds
        depth; in a narrow room everything is close range (F-R07)."""
        if self.all_close_range:
            return self.close_range_m
        base = self.engage_distance_m if engaged else self.unit_distance_m
        return base + self.row_depth_m * back_rows


@cache
def builtin_battlefields() -> Mapping[str, Battlefield]:
    return load_definitions(Battlefield, "battlefields.yaml", "battlefield")


def find_battlefield(name: str, table: Mapping[str, Battlefield] | None = None) -> Battlefield | None:
    for b in (table or builtin_battlefields()).values():
        if name in (b.id, b.name):
            return b
    return None
