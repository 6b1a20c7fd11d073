"""Options with lazy labels and events with lazy text (issue #12: an AI deciding many battles
never reads them): they read, compare, print, pickle and copy like the ready-made ones, the text
is made once, and a decision the core keeps after it was answered keeps the labels it showed."""

from __future__ import annotations

import copy
import pickle
import random
from pathlib import Path

from ikusa.dice.source import RandomSource
from ikusa.engine.events import Event
from ikusa.engine.protocol import Decision, Option, fix_labels
from ikusa.engine.runner import load_encounter, policy_for

ROOT = Path(__file__).resolve().parents[2]


def test_a_lazy_label_is_made_once_on_first_read_and_equals_the_ready_made_option() -> None:
    calls: list[int] = []

    def make() -> str:
        calls.append(1)
        return "横斬り → 槍の将 (活力2) [牽制即興に対し 46%]"

    lazy = Option.lazy("use:a>b", make, cost=2, odds=0.64, data={"kind": "attack"})
    assert calls == []
    plain = Option("use:a>b", "横斬り → 槍の将 (活力2) [牽制即興に対し 46%]", 2, 0.64, {"kind": "attack"})
    assert lazy == plain and lazy.label == plain.label
    assert len(calls) == 1
    assert repr(lazy) == repr(plain)
    assert lazy != Option("use:a>b", "other", 2, 0.64, {"kind": "attack"})
    assert Option("end", "x").data == {} and Option("end", "x").data is not Option("end", "x").data


def test_a_lazy_option_pickles_and_copies_as_its_label_not_its_function() -> None:
    lazy = Option.lazy("k", lambda: "label", data={"n": [1]})  # a lambda does not pickle
    for back in (pickle.loads(pickle.dumps(lazy)), copy.deepcopy(lazy), copy.copy(lazy)):
        assert back == lazy and back.label == "label"
    d = Decision("u", "breath", "prompt", (lazy, Option("end", "終える")))
    d2 = pickle.loads(pickle.dumps(d))
    assert d2 == d and d2.keys() == ["k", "end"] and d2.option("end") == Option("end", "終える")


def test_fix_labels_keeps_the_label_a_decision_showed_while_the_state_moves_on() -> None:
    world = {"vigor": 5}
    o = Option.lazy("k", lambda: f"活力{world['vigor']}")
    fix_labels(Decision("u", "breath", "", (o,)))
    world["vigor"] = 1
    assert o.label == "活力5"
    fix_labels(None)  # nothing pending: nothing to do


def test_a_lazy_event_formats_its_values_once_and_serialises_like_a_ready_made_one() -> None:
    calls: list[int] = []

    def fmt(name: str, before: int, after: int) -> str:
        calls.append(1)
        return f"{name} 戦力 {before}→{after}"

    lazy = Event.lazy("damage", "S-R60", fmt, ("槍の将", 3, 2), {"unit": "yagyu", "wounds": 2})
    plain = Event("damage", "S-R60", "槍の将 戦力 3→2", {"unit": "yagyu", "wounds": 2})
    assert calls == []
    assert lazy.to_json() == plain.to_json() and lazy == plain and repr(lazy) == repr(plain)
    assert lazy.text == "槍の将 戦力 3→2" and len(calls) == 1
    back = pickle.loads(pickle.dumps(lazy))
    assert back == plain and copy.deepcopy(lazy) == plain
    assert Event("note", "GM", "x").data == {}


def _run(read_while_pending: bool) -> tuple[list[Decision], list[list[str]], int]:
    """A seeded greedy duel through a Combat: its breath decisions (labels read while pending or
    not at all), the labels read then, and how many options were still lazy when handed out."""
    loaded = load_encounter(ROOT / "examples" / "maai" / "duel.yaml")
    combat = loaded.new_combat()
    policy = policy_for(loaded.module, "greedy")
    rng, dice = random.Random(3), RandomSource(3)
    kept: list[Decision] = []
    labels: list[list[str]] = []
    lazy = 0
    while (d := combat.pending()) is not None and len(kept) < 40:
        if d.kind == "breath":
            lazy += sum(1 for o in d.options if o._label is None)
            kept.append(d)
            if read_while_pending:
                labels.append([o.label for o in d.options])
        combat.push(policy.choose(combat.state, d, rng), dice)
    return kept, labels, lazy


def test_maai_breath_labels_kept_by_the_core_are_those_shown_while_pending() -> None:
    """A Combat keeps answered decisions (undo, a partial entry's answer): breath decisions whose
    labels were never read while pending show, read after the battle moved on, the labels the
    same battle showed while they were pending."""
    _, labels, lazy = _run(True)
    kept, _, _ = _run(False)
    assert lazy > 0  # the maai breath hands out lazy labels
    assert [[o.label for o in d.options] for d in kept] == labels
    assert any("に対し" in label for row in labels for label in row)
    assert any("過負荷" in label for row in labels for label in row)
