"""S-G19's status conditions on the effect mechanism (#13; maai/conditions.py): 毒, 呪い and 束縛
are 防備 −N states (S-R48: every attacker benefits, floor 2 by S-G42); 呪い is 「毎間合防備 −1」
(001:L141), constant by default and cumulative with debuff.per_round_cumulative (S-G43)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ikusa.dice.source import ScriptedSource
from tests.systems.ruling_driver import ROOT, Session

COND = "tests/systems/maai/data/witness_conditions.yaml"


def oni_defence(s: Session) -> int:
    st = s.state
    return int(st.defence_of(st.by_id["oni"], st.by_id["samurai"].move_by_id["katana.yokogiri"]))


def to_next_maai(s: Session) -> None:
    start = s.state.maai
    for _ in range(60):
        if s.state.maai > start:
            return
        s.first(lambda k: k in ("pass", "end", "noreact", "nofate"), ScriptedSource([5, 4] * 10))
    raise AssertionError("the 間合 did not end")


def with_options(tmp_path: Path, opts: dict[str, Any]) -> str:
    doc = yaml.safe_load((ROOT / COND).read_text("utf-8"))
    doc["options"] = opts
    p = tmp_path / "cond.yaml"
    p.write_text(yaml.safe_dump(doc, allow_unicode=True), "utf-8")
    return str(p)


def test_poison_curse_and_binding_lower_the_final_defence() -> None:
    s = Session(COND)
    assert oni_defence(s) == 7  # 将 10 − 毒1 − 呪い1 − 束縛1 (S-R48)
    to_next_maai(s)
    assert oni_defence(s) == 8  # 束縛 lasted 1 間合 (status.bind_maai); 毒 and 呪い stay (S-G43 constant)
    assert "赤鬼 の効果「束縛」が終了 (1間合)" in s.texts("effect_end")


def test_curse_grows_each_maai_when_cumulative(tmp_path: Path) -> None:
    s = Session(with_options(tmp_path, {"debuff": {"per_round_cumulative": True}}))
    assert oni_defence(s) == 7
    to_next_maai(s)
    assert s.texts("effect_grow") == ["赤鬼 の「呪い」 防備-1→-2 (毎間合累積)"]
    assert oni_defence(s) == 7  # 10 − 毒1 − 呪い2, 束縛 ended


def test_debuffs_stop_at_the_floor_2(tmp_path: Path) -> None:
    s = Session(with_options(tmp_path, {"status": {"poison_defense": 6, "curse_defense": 6}}))
    assert oni_defence(s) == 2  # 10 − 6 − 6 − 1 < 2 → floor 2 (S-G42)


def test_a_gm_puts_a_condition_on_by_name() -> None:
    s = Session(COND)
    s.rule({"op": "effect", "unit": "samurai", "name": "束縛"})
    st = s.state
    assert st.defence_of(st.by_id["samurai"], st.by_id["oni"].move_by_id["kanabou.kyouda"]) == 9  # PC 10 − 1
