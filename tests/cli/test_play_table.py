"""``ikusa play`` at the table (issue #8 §5): only people are asked, the spell-card duel in
at most 20 prompts, typed dice on one line, amounts, unknown options, fate only where it
helps, escaped markup."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from ikusa.cli.menus import amounts, hidden_fate, only_declining_fate, read_choice
from ikusa.cli.play import PlaySession
from ikusa.dice.source import RandomSource, ScriptedSource
from ikusa.engine.dice_request import DiceRequest
from ikusa.engine.protocol import Decision, Option
from ikusa.engine.runner import ai_rng, load_encounter, policy_for

ROOT = Path(__file__).resolve().parents[2]


def encounter(tmp_path: Path, example: str, control: dict[str, Any]) -> Path:
    data = yaml.safe_load((ROOT / "examples" / example).read_text("utf-8"))
    data["control"] = control
    path = tmp_path / "enc.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    return path


def test_spellcard_duel_with_the_npc_on_ai_greedy_needs_at_most_20_prompts(tmp_path: Path) -> None:
    """Was 56 prompts (every NPC decision typed as 'ai').  The PL plays 霊夢 aggressively
    (spell card, then the strongest homing); 魔理沙 is ai:greedy, all dice auto."""
    loaded = load_encounter(encounter(tmp_path, "sengensyou/spellcard_duel.yaml",
                                      {"sides": {"marisa_side": "ai:greedy"}}))
    combat = loaded.new_combat()
    greedy = policy_for(loaded.module, "greedy")
    mine = random.Random(0)
    asked: list[str] = []

    def answer(prompt: str) -> str:
        w = session.combat.awaiting()
        if w is None:
            return "quit"  # the "(combat over)" prompt
        assert isinstance(w, Decision), "auto dice: no dice prompt"
        assert w.actor == "reimu", f"only the PL is asked, not {w.actor}"
        if w.kind == "action":
            for prefix in ("sc:", "homing:"):
                opts = [o for o in w.options if o.key.startswith(prefix)]
                if opts:
                    return max(opts, key=lambda o: o.cost or 0).key
        key = greedy.choose(combat.state, w, mine)
        asked.append(key)
        return key

    session = PlaySession(combat, RandomSource(1), manual=False, ask=answer)
    session.rng = ai_rng(1)
    session.run()
    assert combat.over
    assert session.prompts <= 20, session.prompts
    assert len(combat.record) > 2 * session.prompts  # the AI and the forced answers did the rest


def _toy_session(lines: list[str], control: dict[str, Any] | None = None, dice: list[int] | None = None,
                 tmp_path: Path | None = None) -> PlaySession:
    from ikusa.engine.combat import Combat
    from ikusa.engine.control import parse_control
    from tests.engine.toy import ToyState

    combat = Combat("toy", {"system": "toy", **({"control": control} if control else {})}, ToyState,
                    parse_control(control, "<t>"))
    it = iter(lines)
    return PlaySession(combat, ScriptedSource(dice or [], fallback=RandomSource(1)), manual=False,
                       ask=lambda _p: next(it))


@pytest.mark.usefixtures("toy_system")
def test_manual_dice_bad_entries_never_cancel_and_roll_rolls_that_one(capsys: pytest.CaptureFixture[str]) -> None:
    s = _toy_session(["attack", "7", "x y", "3 4", "", "3", "attack", "roll", "quit"],
                     control={"default": {"dice": "manual"}}, dice=[2])
    s.run()
    out = capsys.readouterr()
    assert "values must be 1..6" in out.err and "need exactly 1" in out.err and "not a die value" in out.err
    assert [(e.actor, e.action, e.to_json()["dice"]) for e in s.combat.record] == [
        ("a", "attack", [[3, 6, "GM"]]), ("b", "attack", [[2, 6]])]  # 'roll': the software's die


def test_d10_zero_is_ten_and_a_pool_takes_its_sum() -> None:
    from ikusa.cli.manual_dice import read_dice

    assert read_dice("0 7", DiceRequest("u", 10, 2, "x")).values == [10, 7]
    pool = DiceRequest("u", 6, 4, "x", sum_only=True)
    assert read_dice("17", pool).total == 17 and read_dice("=17", pool).total == 17
    assert read_dice("6 5 3 3", pool).values == [6, 5, 3, 3]
    assert pool.spread_sum(17) == [5, 4, 4, 4]
    with pytest.raises(Exception, match="4..24"):
        read_dice("=30", pool)
    with pytest.raises(Exception, match="faces matter"):
        read_dice("=11", DiceRequest("u", 10, 2, "x"))


def test_sengensyou_pool_sum_typed_at_the_table(tmp_path: Path) -> None:
    loaded = load_encounter(encounter(tmp_path, "sengensyou/spellcard_duel.yaml",
                                      {"sides": {"marisa_side": "ai:greedy"}, "units": {"reimu": {"dice": "manual"}}}))
    combat = loaded.new_combat()
    combat.auto_dice = RandomSource(4)
    from ikusa.engine.driver import AutoPilot

    pilot = AutoPilot(loaded.module, random.Random(1))
    w: Decision | DiceRequest | None = None
    for _ in range(40):
        pilot.run(combat)
        w = combat.awaiting()
        if isinstance(w, DiceRequest):
            break
        assert isinstance(w, Decision)
        homing = [o.key for o in w.options if o.key.startswith("homing:")]
        combat.push(homing[0] if homing else pilot.choose(combat, w, "greedy"))
    assert isinstance(w, DiceRequest) and w.sum_only and w.roller == "reimu"
    n = w.count
    combat.supply_sum(3 * n + 1)
    dies = [d for e in combat.record for d in e.dies if d.by.startswith("sum:")]
    assert sum(d.value for d in dies) == 3 * n + 1 and {d.by for d in dies} == {"sum:reimu"}


def test_amount_typed_as_the_amount_and_typos_are_unknown_options() -> None:
    d = Decision("reimu", "initiative", "DP", tuple(Option(f"declare:{n}", f"DP {n}") for n in range(22, -1, -1)))
    assert amounts(d) is not None
    assert read_choice("22", d).key == "declare:22"  # not option 22 (which is declare:1)
    assert read_choice("3", d).key == "declare:3"
    assert read_choice("#3", d).key == "declare:20"
    assert "not an amount" in (read_choice("40", d).error or "")
    assert "unknown option 'atack'" in (read_choice("atack", d).error or "")
    mixed = Decision("a", "turn", "", (Option("attack", "attack"), Option("wait", "wait")))
    assert read_choice("2", mixed).key == "wait" and read_choice("att", mixed).needle == "att"


def test_fate_is_offered_only_where_it_helps() -> None:
    worse = Option("fate:0-1", "運命介入 1個目 2→1 (業報)", 1, data={"kind": "fate", "better": False})
    better = Option("fate:1+1", "運命介入 2個目 5→6 (成功)", 1, data={"kind": "fate", "better": True})
    no = Option("nofate", "運命介入しない", data={"kind": "fate", "better": False})
    d = Decision("u", "fate", "", (worse, better, no))
    assert hidden_fate(d) == {"fate:0-1"} and hidden_fate(d, show_all=True) == set()
    assert not only_declining_fate(d)
    assert only_declining_fate(Decision("u", "fate", "", (worse, no)))
    assert not only_declining_fate(Decision("u", "fate", "", (worse, no)), show_all=True)


@pytest.mark.usefixtures("toy_system")
def test_keys_labels_and_names_are_never_markup(capsys: pytest.CaptureFixture[str]) -> None:
    s = _toy_session([])
    d = Decision("a", "turn", "[bold]x[/]", (Option("attack:bow:g1", ":bow: [red]弓[/]"),))
    s.show_decision(d, full=True)
    out = capsys.readouterr().out
    assert "attack:bow:g1" in out and ":bow: [red]弓[/]" in out and "🏹" not in out and "[bold]x[/]" in out
