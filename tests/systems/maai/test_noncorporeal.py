"""非実体 units (S-G05, 001:L157-173; #13): without 退魔 入門 a physical attack cannot harm a 非実体
target (refused naming S-G05); with 入門, or with a [霊体] maneuver, the attack is normal;
``spirit.noncorporeal_without_novice: "defense_bonus:+4"`` allows it against 防備 +4."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ikusa.dice.source import ScriptedSource
from ikusa.engine.errors import RuleViolation
from tests.systems.ruling_driver import ROOT, Session

NC = "tests/systems/maai/data/noncorporeal.yaml"


def test_physical_attacks_without_taima_are_not_offered_and_are_refused() -> None:
    s = Session(NC)
    d = s.state.pending()
    assert d.actor == "samurai" and not [k for k in d.keys() if k.endswith(">yurei")]
    with pytest.raises(RuleViolation, match="S-G05") as err:
        s.state.apply("use:katana.yokogiri>yurei", ScriptedSource([9, 9]))
    assert "幽霊 is 非実体" in str(err.value)


def test_taima_novice_attacks_normally_and_spirit_maneuvers_reach_it() -> None:
    s = Session(NC)
    s.act("pass", ScriptedSource([]))
    keys = s.state.pending().keys()
    assert s.state.pending().actor == "miko"
    assert "use:tantou.sashi>yurei" in keys and "use:ofuda_h.hafuu>yurei" in keys
    st = s.state
    y, m = st.by_id["yurei"], st.by_id["miko"]
    assert st.defence_of(y, m.move_by_id["tantou.sashi"]) == 10  # 練 10: normal for 入門 (S-G05)


def test_defense_bonus_mode_allows_the_attack_against_defence_plus_4(tmp_path: Path) -> None:
    doc = yaml.safe_load((ROOT / NC).read_text("utf-8"))
    doc["options"] = {"spirit": {"noncorporeal_without_novice": "defense_bonus:+4"}}
    p = tmp_path / "nc.yaml"
    p.write_text(yaml.safe_dump(doc, allow_unicode=True), "utf-8")
    s = Session(str(p))
    d = s.state.pending()
    yoko = next(o for o in d.options if o.key == "use:katana.yokogiri>yurei")
    # 2D10 + 勇2 + 免許2 ≥ 10 + 4 = 14: P(2d10 ≥ 10) = 64/100
    assert yoko.odds == pytest.approx(0.64)
    s.act("use:katana.yokogiri>yurei", ScriptedSource([5, 4]))
    assert "源三郎 横斬り → 幽霊: 2D10[5,4]+4=13 < 防備14 失敗" in s.texts("attack")
