"""Fate in flow and the end of combat: S-T35 survival, S-G51 lethal-hit exception, S-G25."""

from __future__ import annotations

from .maai_flow_support import find, push, state, unit

KEN = {"剣術": "入門"}


def _duel(t_fate: int) -> object:
    return state(unit("x", "A", yu=2, gi=1, fate=0, skills=KEN, maneuvers=["katana.yokogiri"]),
                 unit("t", "B", tai=1, un=0, wounds=1, fate=t_fate, maneuvers=["katana.yokogiri"]))


def test_s_t35_survival_roll_survives() -> None:
    """S-T35: 體+1, 運+0 → mod +1; [5,7] → 13 ≥ 11 → survives (重傷)."""
    s = _duel(1)
    ev = push(s, "use:katana.yokogiri>t", 8, 4, 5, 7)
    sv = find(ev, "survival")
    assert (sv.data["total"], sv.data["survived"]) == (13, True)
    assert s.by_id["t"].status == "重傷" and s.pending() is None and s.winner == "A"


def test_s_t35_survival_roll_death_fate_cannot_save() -> None:
    """S-T35: [3,5] → 9 < 11 → death; the one fate use lifts a die by 1 at most → 10: no
    fate question is even asked, and the unit dies."""
    s = _duel(1)
    ev = push(s, "use:katana.yokogiri>t", 8, 4, 3, 5)
    sv = find(ev, "survival")
    assert (sv.data["total"], sv.data["survived"]) == (9, False)
    assert s.by_id["t"].status == "死亡" and s.by_id["t"].fate_left == 1


def test_survival_fate_offered_when_it_helps() -> None:
    """S-R62: fate may be used on the survival roll: [4,5] + 1 = 10 → +1 on a die → 11."""
    s = _duel(1)
    push(s, "use:katana.yokogiri>t", 8, 4, 4, 5)
    d = s.pending()
    assert d is not None and d.kind == "fate" and d.actor == "t"
    ev = push(s, "fate:0+1")
    assert find(ev, "survival").data == {"unit": "t", "total": 11, "survived": True}


def test_s_g51_lethal_hit_exception() -> None:
    """S-G51: a target that would drop to 0 may spend its own fate to move one die of the
    attack roll: [6,4] + 0 = 10 ≥ 10 → −1 on the 6 → 9: the lethal hit misses."""
    s = state(unit("x", "A", yu=0, gi=1, fate=0, skills=KEN, maneuvers=["katana.yokogiri"]),
              unit("t", "B", wounds=1, fate=1, maneuvers=["katana.yokogiri"]))
    push(s, "use:katana.yokogiri>t", 6, 4)
    d = s.pending()
    assert d is not None and d.kind == "fate" and d.actor == "t"
    assert set(d.keys()) == {"fate:0-1", "fate:1-1", "nofate"}
    ev = push(s, "fate:0-1")
    assert find(ev, "fate").rule == "S-G51"
    assert find(ev, "attack").data["total"] == 9
    t = s.by_id["t"]
    assert t.wounds == 1 and t.fate_left == 0


def test_own_fate_turns_a_miss_into_a_hit() -> None:
    """S-R14: the attacker moves one of its own dice: [5,4] + 0 = 9 < 10 → +1 → 10 hit."""
    s = state(unit("x", "A", yu=0, gi=1, fate=1, skills=KEN, maneuvers=["katana.yokogiri"]),
              unit("t", "B", wounds=3, fate=0, maneuvers=["katana.yokogiri"]))
    push(s, "use:katana.yokogiri>t", 5, 4)
    d = s.pending()
    assert d is not None and d.actor == "x"
    assert {o.key for o in d.options if o.data.get("better")} == {"fate:0+1", "fate:1+1"}
    push(s, "fate:1+1")  # [5,5]: 会心 → 2
    assert s.by_id["t"].wounds == 1 and s.by_id["x"].fate_left == 0


def test_mooks_make_no_survival_roll() -> None:
    """S-G25: 雑/卒/練 NPCs at 0 are out without a roll; the battle ends at once."""
    s = state(unit("x", "A", yu=2, gi=1, fate=0, skills=KEN, maneuvers=["katana.yokogiri"]),
              unit("m", "B", grade="卒", fate=0, maneuvers=["katana.yokogiri"]))
    ev = push(s, "use:katana.yokogiri>m", 8, 4)
    assert [e.kind for e in ev][-2:] == ["down", "end"] and s.pending() is None


def test_greedy_fate_choices() -> None:
    """The greedy AI spends fate against a lethal hit and to avoid a 失着, not for a 会心."""
    from ikusa.systems.maai.policies import GreedyPolicy

    g = GreedyPolicy()
    s = state(unit("x", "A", yu=0, gi=1, fate=0, skills=KEN, maneuvers=["katana.yokogiri"]),
              unit("t", "B", wounds=1, fate=1, maneuvers=["katana.yokogiri"]))
    push(s, "use:katana.yokogiri>t", 6, 4)
    d = s.pending()
    assert d is not None and g.choose(s, d, None) in ("fate:0-1", "fate:1-1")
    s2 = state(unit("x", "A", yu=5, gi=1, fate=1, skills=KEN, maneuvers=["katana.yokogiri"]),
               unit("t", "B", wounds=5, fate=0, maneuvers=["katana.yokogiri"]))
    push(s2, "use:katana.yokogiri>t", 6, 5)  # success; fate could make it 会心
    d2 = s2.pending()
    assert d2 is not None and g.choose(s2, d2, None) == "nofate"
    s3 = state(unit("x", "A", yu=0, gi=1, fate=1, skills=KEN, maneuvers=["katana.yokogiri"]),
               unit("t", "B", wounds=5, fate=0, maneuvers=["katana.yokogiri"]))
    push(s3, "use:katana.yokogiri>t", 3, 3)  # 失着 → fate moves it to a plain failure
    d3 = s3.pending()
    assert d3 is not None and g.choose(s3, d3, None) != "nofate"
