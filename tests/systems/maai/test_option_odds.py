"""Breath option labels show the attack's odds against the defender's best available reaction
and what an overloading option risks (#13; maai/option_odds.py).  The option's ``odds`` (what the
AIs read) stays the chance of reaching 防備."""

from __future__ import annotations

from ikusa.dice.source import ScriptedSource
from tests.systems.maai.test_odds_reaction import plain_count
from tests.systems.ruling_driver import Session

DUEL = "examples/maai/duel.yaml"


def label(s: Session, key: str) -> str:
    return next(o.label for o in s.state.pending().options if o.key == key)


def test_attack_label_gives_the_odds_against_the_best_improvised_reaction() -> None:
    s = Session(DUEL)
    o = next(o for o in s.state.pending().options if o.key == "use:katana.yokogiri>yagyu")
    # 源三郎 2D10 + 勇2 + 剣術免許2 ≥ 将10 + 重甲4 = 14 → 64%; 槍の将 can only improvise 牽制
    # (2D10 + 技1 + 槍術免許2 ≥ the hit total): the hit lands 917/2000 ≈ 46%
    assert o.odds == 0.64
    assert plain_count(4, 14, 3) * 100 > 45 and plain_count(4, 14, 3) * 100 < 46
    assert o.label == "横斬り → 槍の将 (活力2) [牽制即興に対し 46%]"


def test_overloading_option_says_so_with_the_overload_check_odds() -> None:
    s = Session(DUEL)
    for _ in range(4):
        s.act("reserve:katana.ukenagashi", ScriptedSource([]))
    # spent 4 of the limit 5: 横斬り (2) overloads by 1 → 2D10 + 體1 − 1 ≥ 11: 55% (S-R29)
    assert label(s, "use:katana.yokogiri>yagyu").endswith("[過負荷+1: 判定 55%, 失敗→無防備]")
    assert "過負荷" not in label(s, "reserve:katana.ukenagashi")  # 1 more fits the limit
