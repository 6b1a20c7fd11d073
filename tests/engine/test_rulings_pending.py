"""GM rulings whatever decision is pending (issue #8 §2): a ruling on a unit that is answering
a reaction, a fate or a defence question is made at once, and that question is asked anew
from the changed state (maai Wait.again, sengensyou state.ask GM_REFRESH).  Where the texts
make the change meaningless mid-answer it is refused naming the rule."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from ikusa.dice.source import RandomSource
from ikusa.engine.combat import Combat
from ikusa.engine.driver import make_policy
from ikusa.engine.errors import InputError
from ikusa.engine.protocol import Decision
from ikusa.engine.runner import load_encounter

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _until(name: str, kind: str, has: str, seed: int = 1, tries: int = 30) -> tuple[Combat, Decision]:
    """A greedy battle played until a ``kind`` question offering an option ``has…`` is pending."""
    loaded = load_encounter(EXAMPLES / name)
    pol = make_policy(loaded.module, "greedy")
    for s in range(seed, seed + tries):
        c = loaded.new_combat()
        rng, dice = random.Random(s), RandomSource(s)
        while not c.over:
            d = c.pending()
            assert d is not None
            if d.kind == kind and any(o.key.startswith(has) for o in d.options):
                return c, d
            c.push(pol.choose(c.state, d, rng), dice)
    pytest.fail(f"no {kind} question in {tries} greedy battles of {name}")


def _rule(c: Combat, **r: Any) -> None:
    c.rule(r, RandomSource(7))


def _same_after_replay(c: Combat) -> None:
    """The ruling is an entry like any other: the log replays to the same state."""
    again = Combat(c.system, c.setup, c._new_state, c._control_spec)
    again.restore(json.loads(json.dumps(c.to_json())))
    assert again.state.summary() == c.state.summary()
    assert again.pending() == c.pending()


def test_maai_vigor_set_while_reacting_rebuilds_the_reaction() -> None:
    c, d = _until("maai/duel.yaml", "reaction", "improv:")
    unit = c.state.by_id[d.actor]
    improv = [o for o in d.options if o.key.startswith("improv:")]
    assert improv, d.keys()
    cheapest = min(o.cost for o in improv)
    low = max(0, cheapest - 1)
    _rule(c, op="set", unit=unit.id, resource="vigor", value=low, reason="毒")
    assert unit.vigor == low
    now = c.pending()
    assert now is not None and now is not d
    if now.kind == "reaction" and now.actor == unit.id:  # asked anew: nothing it cannot pay (S-R40)
        assert all(o.cost <= low for o in now.options if o.key.startswith("improv:"))
    _same_after_replay(c)


def test_maai_fate_set_to_zero_ends_the_fate_question() -> None:
    c, d = _until("maai/duel.yaml", "fate", "fate")
    unit = c.state.by_id[d.actor]
    _rule(c, op="set", unit=unit.id, resource="fate", value=0)
    assert unit.fate_left == 0
    now = c.pending()
    assert not (now is not None and now.kind == "fate" and now.actor == unit.id)  # no use left to offer
    _same_after_replay(c)


def test_maai_remove_unit_mid_defence_is_refused_naming_the_rule() -> None:
    c, d = _until("maai/duel.yaml", "reaction", "improv:")
    before = json.dumps(c.to_json(), ensure_ascii=False)
    with pytest.raises(InputError, match="S-R53"):
        _rule(c, op="remove_unit", unit=d.actor)
    assert json.dumps(c.to_json(), ensure_ascii=False) == before


def test_sengensyou_dp_set_while_answering_a_barrage_rebuilds_it() -> None:
    c, d = _until("sengensyou/spellcard_duel.yaml", "barrage", "barrage:pay")
    f = c.state.fighters[d.actor]
    pay = d.option("barrage:pay")
    assert pay is not None and pay.cost >= 1
    _rule(c, op="set", unit=f.id, resource="dp", value=pay.cost - 1, reason="GM: 消耗")
    assert f.dp == pay.cost - 1
    now = c.pending()
    assert now is not None and now != d
    if now.kind == "barrage" and now.actor == f.id:  # asked anew: paying needs DP ≥ the reduction (G-R11)
        assert now.option("barrage:pay") is None
    else:  # only taking the damage was left: the flow went on (G-R11/G-G07)
        assert any(e.kind == "barrage_short" for e in c.events)
    _same_after_replay(c)


def test_sengensyou_dp_set_while_declaring_initiative_rebuilds_the_declaration() -> None:
    c, d = _until("sengensyou/spellcard_duel.yaml", "initiative", "declare:")
    f = c.state.fighters[d.actor]
    _rule(c, op="set", unit=f.id, resource="dp", value=3)
    now = c.pending()
    assert now is not None and now.kind == "initiative" and now.actor == f.id
    assert [o.key for o in now.options] == ["declare:3", "declare:2", "declare:1", "declare:0"]  # G-G04: ≤ DP
    _same_after_replay(c)


def test_sengensyou_effect_while_answering_a_barrage_is_made_at_once() -> None:
    c, d = _until("sengensyou/spellcard_duel.yaml", "barrage", "barrage:")
    _rule(c, op="effect", unit=d.actor, effect={"name": "加護", "modifiers": {"evasion": 2},
                                                "duration": {"clock": "turn", "n": 1}})
    now = c.pending()
    assert now is not None and now.kind == "barrage" and now.actor == d.actor
    assert [o.key for o in now.options] == [o.key for o in d.options]
    assert any(e.kind == "ruling" and "加護" in e.text for e in c.events)
    _same_after_replay(c)


def test_sengensyou_knock_out_mid_answer_is_refused_naming_the_rule() -> None:
    c, d = _until("sengensyou/spellcard_duel.yaml", "barrage", "barrage:")
    before = json.dumps(c.to_json(), ensure_ascii=False)
    with pytest.raises(InputError, match="G-R22"):
        _rule(c, op="set", unit=d.actor, resource="hp", value=0)
    assert json.dumps(c.to_json(), ensure_ascii=False) == before
