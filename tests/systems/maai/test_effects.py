"""Effects with durations in maai (issue #8 §3): 防備 −N debuffs (S-R48) with the floor 2
(S-G42), hit and defence modifiers in the lines and the odds, the 間合 and breath clocks,
encounter ``effects:``/``homebrew: effects:``, and the option caches after an effect."""

from __future__ import annotations

import pytest
import yaml

from ikusa.dice.source import ScriptedSource
from ikusa.engine.errors import InputError
from ikusa.systems.maai.encounter import encounter_from_dict
from tests.systems.maai.test_rulings import duel
from tests.systems.ruling_driver import ROOT, Session

CURSE = {"op": "effect", "unit": "yagyu", "reason": "呪い虫寄生",
         "effect": {"name": "呪い虫", "modifiers": {"防備": -1}}}  # 001: 毎間合 防備 −1 (S-R48, S-G43)


def odds(s: Session) -> dict[str, float | None]:
    return {o.key: o.odds for o in s.state.pending().options}


def test_defence_debuff_in_the_attack_line_and_the_floor() -> None:
    s = duel()
    y = s.state.by_id["yagyu"]
    m = s.state.by_id["genzaburo"].move_by_id["katana.yokogiri"]
    assert s.state.defence_of(y, m) == 14  # 将 10 + 重甲 4 (S-R44); 不動の陣 not yet held
    s.rule(CURSE)
    assert s.state.defence_of(y, m) == 13
    s.act("use:katana.yokogiri>yagyu", ScriptedSource([6, 3]))
    assert s.texts("attack")[-1] == "源三郎 横斬り → 槍の将: 2D10[6,3]+4=13 ≥ 防備13 命中 [防備-1(呪い虫 S-R48)]"
    s.rule({"op": "effect", "unit": "yagyu", "effect": {"name": "大呪", "modifiers": {"defense": -30}}})
    assert s.state.defence_of(y, m) == 2  # S-G42: the global floor
    s.rule({"op": "remove_effect", "unit": "yagyu", "name": "大呪"})
    s.rule({"op": "remove_effect", "unit": "yagyu", "name": "呪い虫"})
    assert s.state.defence_of(y, m) == 14


def test_cached_breath_options_follow_an_effect_and_its_removal() -> None:
    """GUIDE's trap: the breath options of a plain situation are cached per encounter; the
    same situation after an effect must show the new odds, and the old ones once it is gone."""
    s = duel()
    plain = odds(s)
    fresh = {o.key: o.odds for o in s.state.build_breath_options(s.state.by_id["genzaburo"])}
    assert plain == fresh
    s.rule(CURSE)
    cursed = odds(s)
    assert cursed["use:katana.yokogiri>yagyu"] > plain["use:katana.yokogiri>yagyu"]  # type: ignore[operator]
    assert cursed == {o.key: o.odds for o in s.state.build_breath_options(s.state.by_id["genzaburo"])}
    s.rule({"op": "effect", "unit": "genzaburo", "effect": {"name": "祝福", "modifiers": {"命中": 2}}})
    blessed = odds(s)
    assert blessed["use:katana.yokogiri>yagyu"] > cursed["use:katana.yokogiri>yagyu"]  # type: ignore[operator]
    s.rule({"op": "remove_effect", "unit": "genzaburo", "name": "祝福"})
    s.rule({"op": "remove_effect", "unit": "yagyu", "name": "呪い虫"})
    assert odds(s) == plain
    # a new state of the same encounter (same caches) without the effect: the plain odds
    assert odds(Session("examples/maai/duel.yaml")) == plain


def test_defence_roll_effect_changes_the_reaction_odds() -> None:
    base = duel()
    base.act("use:katana.yokogiri>yagyu", ScriptedSource([6, 5]))
    plain = odds(base)
    s = duel()
    s.rule({"op": "effect", "unit": "yagyu", "effect": {"name": "見切り", "modifiers": {"防御": 3}}})
    s.act("use:katana.yokogiri>yagyu", ScriptedSource([6, 5]))
    assert odds(s)["improv:yari.kensei"] > plain["improv:yari.kensei"]  # type: ignore[operator]


def test_until_end_of_this_maai_expires_as_the_next_begins() -> None:
    s = duel()
    s.rule({"op": "effect", "unit": "yagyu", "effect": {"name": "隙", "modifiers": {"防備": -2},
                                                          "duration": {"clock": "maai", "n": 1}}})
    for _ in range(200):
        if any(e.kind == "effect_end" for e in s.events) or s.state.pending() is None:
            break
        s.first(lambda k: k in ("pass", "end", "nofate", "noreact") or k.startswith("gm:"), ScriptedSource([5, 4]))
    kinds = [e.kind for e in s.events]
    end = kinds.index("effect_end")
    assert s.events[end].text == "槍の将 の効果「隙」が終了 (1間合)"
    assert kinds[end - 1] != "maai" and "maai" in kinds[end:]  # before 第2間合 開始
    assert s.state.maai == 2 and not s.state.fx.book.active


def test_until_own_next_breath() -> None:
    s = duel()
    s.rule({"op": "effect", "unit": "genzaburo", "effect": {"name": "構え直し", "modifiers": {"防備": 2},
                                                              "duration": {"clock": "breath"}}})
    s.act("pass", ScriptedSource([]))
    assert s.state.fx.book.active  # 槍の将's breath: still on
    for _ in range(50):
        if not s.state.fx.book.active or s.state.pending() is None:
            break
        s.first(lambda k: k in ("pass", "end", "nofate", "noreact"), ScriptedSource([5, 4]))
    ends = s.texts("effect_end")
    assert ends == ["源三郎 の効果「構え直し」が終了 (次の呼吸まで)"]
    breaths = [e for e in s.events if e.kind in ("breath", "effect_end")]
    i = [e.kind for e in breaths].index("effect_end")
    assert breaths[i - 1].data["unit"] == "genzaburo"  # as its own next breath began


def test_encounter_effects_and_homebrew() -> None:
    data = yaml.safe_load((ROOT / "examples/maai/duel.yaml").read_text("utf-8"))
    data.pop("system")
    data["homebrew"] = {"effects": {"呪い虫": {"modifiers": {"防備": -1}, "note": "001 毒虫師"}}}
    data["effects"] = [{"unit": "yagyu", "name": "呪い虫"},
                       {"unit": "genzaburo", "effect": {"name": "祝福", "modifiers": {"命中": 1},
                                                        "duration": {"clock": "maai", "n": 2}}}]
    enc = encounter_from_dict(data, "duel+effects.yaml")
    from ikusa.systems.maai.state import MaaiState

    st = MaaiState(enc)
    assert [e.spec.name for e in st.fx.book.active] == ["呪い虫", "祝福"]
    y = st.by_id["yagyu"]
    assert st.defence_of(y, st.by_id["genzaburo"].move_by_id["katana.yokogiri"]) == 13
    assert st.summary()["effects"][1] == {"unit": "genzaburo", "name": "祝福", "modifiers": {"attack": 1},
                                          "left": "2間合"}
    data["effects"] = [{"unit": "yagyu", "effect": {"name": "x", "modifiers": {"回避": 1}}}]
    with pytest.raises(InputError) as exc:
        encounter_from_dict(data, "bad.yaml")
    assert str(exc.value).startswith("bad.yaml:effects.0.effect.modifiers.回避: unknown modifier key '回避'")
    assert "防備=defense" in str(exc.value)
