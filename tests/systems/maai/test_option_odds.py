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


def test_a_mass_battle_breath_keeps_only_the_cheap_notes() -> None:
    """Past REACTION_NOTE_MAX attack options the reaction note is left out (it made a 400-unit
    battle ten times slower, issue #12); a small battle still gets it on every attack."""
    from ikusa.systems.maai.encounter import encounter_from_dict
    from ikusa.systems.maai.option_odds import REACTION_NOTE_MAX
    from ikusa.systems.maai.state import MaaiState

    def first_breath(per_side: int) -> list[str]:
        units = [{"id": f"{tag}{i}", "name": f"{side}{i}", "side": side, "grade": "雑",
                  "abilities": {"勇": 1, "技": 0, "體": 0, "智": 0, "美": 0, "運": 0},
                  "skills": {"剣術": "習得"}, "weapons": ["katana"]}
                 for side, tag in (("味方", "a"), ("敵", "b")) for i in range(per_side)]
        enc = encounter_from_dict({"title": "雑兵", "sides": ["味方", "敵"], "units": units}, "<mass>")
        st = MaaiState(enc)
        d = st.pending()
        while d.options[0].data.get("kind") == "count_tie":  # equal 雑 ties: who breathes first
            st.apply(d.options[0].key, ScriptedSource([]))
            d = st.pending()
        return [o.label for o in d.options if o.data.get("kind") == "attack"]

    small = first_breath(3)
    assert small and all("に対し" in lab for lab in small)
    big = first_breath(REACTION_NOTE_MAX)
    assert len(big) > REACTION_NOTE_MAX and not any("に対し" in lab for lab in big)
