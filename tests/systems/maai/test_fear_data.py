"""S-G18 fear from data (#13): the [素養] 鬼気 (effect fear_aura) and 威嚇 (effect fear) trigger
the check 2d10 + 勇 ≥ fear.tn; a failure forbids attacks on the source (an effect on the
breath clock, refused naming S-G18)."""

from __future__ import annotations

import pytest

from ikusa.dice.source import ScriptedSource
from ikusa.engine.errors import RuleViolation
from tests.systems.ruling_driver import Session

FEAR = "tests/systems/maai/data/fear.yaml"


def attacks_on(s: Session, uid: str) -> list[str]:
    return [k for k in s.state.pending().keys() if k.startswith("use:") and k.endswith(f">{uid}")]


def test_aura_check_fails_and_forbids_attacks_on_the_source_in_that_breath() -> None:
    s = Session(FEAR)
    s.act("first:genzaburo", ScriptedSource([3, 4]))
    # 勇+2: 3+4+2 = 9 < fear.tn 11 as 源三郎's first breath of the 間合 begins (S-G18)
    assert s.texts("fear") == ["源三郎 恐怖抵抗 赤鬼: 2D10[3,4]+2=9 < 11 → 失敗: 攻撃不可 (1呼吸)"]
    assert attacks_on(s, "oni") == []
    with pytest.raises(RuleViolation, match="S-G18"):
        s.state.apply("use:katana.yokogiri>oni", ScriptedSource([9, 9]))
    assert s.state.fx.book.on("genzaburo")[0].spec.duration.clock == "breath"


def test_aura_check_passed_at_the_tn_leaves_the_attacks() -> None:
    s = Session(FEAR)
    s.act("first:genzaburo", ScriptedSource([4, 5]))  # 4+5+2 = 11 ≥ 11
    assert s.texts("fear")[-1].endswith("2D10[4,5]+2=11 ≥ 11 → 成功")
    assert attacks_on(s, "oni")
    assert not s.state.fx.book.active


def test_each_unit_rolls_once_per_maai_against_an_aura() -> None:
    s = Session(FEAR)
    s.act("first:genzaburo", ScriptedSource([9, 9]))
    s.act("pass", ScriptedSource([9, 8]))  # 源三郎 passes: 楓's breath begins and she rolls (勇+0)
    s.act("pass", ScriptedSource([]))  # 楓 passes; 赤鬼's breath: nobody rolls again this 間合
    texts = s.texts("fear")
    assert texts[0].startswith("源三郎 恐怖抵抗 赤鬼: 2D10[9,9]+2=20")
    assert texts[1].startswith("楓 恐怖抵抗 赤鬼: 2D10[9,8]+0=17")
    assert len(texts) == 2


def test_fear_maneuver_hit_makes_the_target_roll_and_the_failure_covers_its_next_breath() -> None:
    s = Session(FEAR)
    s.act("first:genzaburo", ScriptedSource([9, 9]))
    s.act("pass", ScriptedSource([9, 9]))
    s.act("pass", ScriptedSource([]))
    assert s.state.pending().actor == "oni"
    # 威嚇: 2D10 + 美2 vs 楓's 防備 10; then 楓's fear check 1+2+0 = 3 < 11
    s.act("use:youma.ikaku>kaede", ScriptedSource([6, 5]))
    s.act("noreact", ScriptedSource([1, 2]))
    texts = s.texts()
    assert "赤鬼 威嚇 → 楓: 2D10[6,5]+2=13 ≥ 防備10 命中" in texts
    assert "楓 恐怖抵抗 赤鬼: 2D10[1,2]+0=3 < 11 → 失敗: 攻撃不可 (1呼吸)" in texts
    eff = s.state.fx.book.on("kaede")[0]
    assert eff.spec.condition == "fear>oni" and eff.left == 2  # this tick and her next breath (S-G18)
