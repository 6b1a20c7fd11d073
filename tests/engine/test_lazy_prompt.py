"""A decision with a lazy prompt (issue #12: an AI answering many decisions never reads it) reads,
compares, prints, pickles and copies like a ready-made one, and is made once, from the values
it was given (never from a state that moved on)."""

from __future__ import annotations

import copy
import pickle

from ikusa.engine.protocol import Decision, Option


def test_a_lazy_prompt_is_made_once_from_its_values_and_equals_the_ready_made_decision() -> None:
    calls: list[int] = []
    world = {"fate": 1}

    def fmt(name: str, fate: int) -> str:
        calls.append(1)
        return f"{name}: 運命介入 (残り{fate})?"

    options = (Option("fate:0+1", "運命介入 1個目 5→6"), Option("nofate", "運命介入しない"))
    lazy = Decision.lazy("genzaburo", "fate", fmt, ("源三郎", world["fate"]), options)
    world["fate"] = 0  # the state moves on: the prompt shows the values it was given
    assert calls == [] and lazy.keys() == ["fate:0+1", "nofate"] and lazy.kind == "fate"
    plain = Decision("genzaburo", "fate", "源三郎: 運命介入 (残り1)?", options)
    assert lazy == plain and lazy.prompt == plain.prompt and len(calls) == 1
    assert repr(lazy) == repr(plain) and lazy.prompt == "源三郎: 運命介入 (残り1)?" and len(calls) == 1
    assert lazy != Decision("genzaburo", "fate", "other", options)


def test_a_lazy_prompt_pickles_and_copies_as_its_text_not_its_function() -> None:
    lazy = Decision.lazy("u", "breath", lambda n: f"活力{n}", (3,), (Option("end", "終える"),))
    for back in (pickle.loads(pickle.dumps(lazy)), copy.deepcopy(lazy), copy.copy(lazy)):
        assert back == lazy and back.prompt == "活力3" and back.options == lazy.options
