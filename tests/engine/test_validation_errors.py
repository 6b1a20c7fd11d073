"""Validation errors show every problem with its path, and unknown keys are named with the
close matches (issue #8 §6)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ikusa.engine.errors import InputError
from ikusa.engine.runner import load_encounter

ROOT = Path(__file__).resolve().parents[2]


def _broken(tmp_path: Path, example: str, edit: object) -> InputError:
    data = yaml.safe_load((ROOT / "examples" / example).read_text("utf-8"))
    edit(data)  # type: ignore[operator]
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    with pytest.raises(InputError) as err:
        load_encounter(path)
    return err.value


def test_maai_every_problem_and_close_matches(tmp_path: Path) -> None:
    def edit(d: dict) -> None:  # type: ignore[type-arg]
        d["units"][0]["weapns"] = ["katana"]
        d["units"][1]["abilities"]["勇"] = "x"
        d["titel"] = "x"

    err = _broken(tmp_path, "maai/duel.yaml", edit)
    text = str(err)
    assert err.field == "units.0.weapns"
    assert "unknown key 'weapns' (did you mean weapons" in text
    assert "units.1.abilities" in text and "titel: " in text and "did you mean title?" in text
    assert "(3 problems)" in text and "more problem" not in text


def test_sengensyou_and_fantasy_unknown_keys(tmp_path: Path) -> None:
    def s_edit(d: dict) -> None:  # type: ignore[type-arg]
        d["characters"][0]["statz"] = 3

    err = _broken(tmp_path, "sengensyou/spellcard_duel.yaml", s_edit)
    assert "unknown key 'statz' (did you mean stats?)" in str(err)

    def f_edit(d: dict) -> None:  # type: ignore[type-arg]
        d["characters"][0]["hpx"] = 3
        d["optionz"] = {}

    text = str(_broken(tmp_path, "fantasy/water_fight.yaml", f_edit))
    assert "unknown key 'hpx' (did you mean hp?)" in text and "unknown key 'optionz' (did you mean options" in text


def test_control_section_errors_name_the_field(tmp_path: Path) -> None:
    def edit(d: dict) -> None:  # type: ignore[type-arg]
        d["control"] = {"sides": {"敵": "ai:greedy"}, "units": {"yagyuu": {"dice": "manual"}}}

    err = _broken(tmp_path, "maai/duel.yaml", edit)
    assert err.field == "control.units.yagyuu" and "did you mean yagyu" in str(err)

    def policy(d: dict) -> None:  # type: ignore[type-arg]
        d["control"] = {"sides": {"敵": "ai:gredy"}}

    err = _broken(tmp_path, "maai/duel.yaml", policy)
    assert err.field == "control.sides.敵" and "unknown AI policy 'gredy'" in str(err)
