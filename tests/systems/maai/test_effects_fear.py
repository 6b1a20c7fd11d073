"""S-G18 fear and S-G19's named conditions on the effect mechanism (issue #13's effect items,
issue #8 §3): a GM-called fear check 2d10 + 勇 ≥ fear.tn; on failure no attacks on the source
until the unit's next breath; 毒/呪い as 防備 −1 effects by name."""

from __future__ import annotations

import pytest

from ikusa.dice.source import ScriptedSource
from ikusa.engine.errors import InputError, RuleViolation
from tests.systems.maai.test_rulings import duel


def test_failed_fear_check_forbids_attacks_on_the_source_until_the_next_breath() -> None:
    s = duel()
    s.rule({"op": "condition", "unit": "genzaburo", "name": "恐怖>yagyu", "reason": "鬼気"}, ScriptedSource([2, 3]))
    # 勇2: 2+3+2 = 7 < fear.tn 11 (S-G18)
    assert s.texts("fear") == ["源三郎 恐怖抵抗 槍の将: 2D10[2,3]+2=7 < 11 → 失敗: 次の一呼吸まで攻撃不可"]
    keys = s.state.pending().keys()
    assert not any(k.startswith("use:") and k.endswith(">yagyu") for k in keys)
    with pytest.raises(RuleViolation, match="S-G18"):
        s.state.apply("use:katana.yokogiri>yagyu", ScriptedSource([5, 5]))
    s.act("pass", ScriptedSource([]))
    for _ in range(40):  # to 源三郎's next breath (第2間合): the fear ends as it begins
        if s.texts("effect_end") or s.state.pending() is None:
            break
        s.first(lambda k: k in ("pass", "end", "noreact"), ScriptedSource([5, 4]))
    assert s.texts("effect_end") == ["源三郎 の効果「恐怖(槍の将)」が終了 (次の呼吸まで)"]
    assert any(k.startswith("use:") and k.endswith(">yagyu") for k in s.state.pending().keys())


def test_passed_fear_check_changes_nothing_and_the_tn_is_an_option() -> None:
    s = duel()
    s.rule({"op": "condition", "unit": "genzaburo", "name": "fear>yagyu"}, ScriptedSource([5, 4]))
    assert s.texts("fear")[-1].endswith("2D10[5,4]+2=11 ≥ 11 → 成功")
    assert not s.state.fx.book.active
    with pytest.raises(InputError, match="an enemy source"):
        s.rule({"op": "condition", "unit": "genzaburo", "name": "恐怖>genzaburo"})


def test_poison_and_curse_are_defence_debuffs_by_name() -> None:
    s = duel()
    y = s.state.by_id["yagyu"]
    m = s.state.by_id["genzaburo"].move_by_id["katana.yokogiri"]
    s.rule({"op": "effect", "unit": "yagyu", "name": "毒"})
    s.rule({"op": "effect", "unit": "yagyu", "name": "呪い"})
    assert s.state.defence_of(y, m) == 12  # 14 − 1 − 1 (S-R48, S-G19)
