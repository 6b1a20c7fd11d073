"""The log a view carries is extended version by version (only new lines are projected); through
rolls that wait for dice, reveal, hide, undo and redo it stays equal, for every role, to the log
of a state replayed from nothing (issue #9: cheaper per-role views, nothing GM-only to players)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from ikusa.server.cache import dumps
from ikusa.server.db import make_engine, migrate
from ikusa.server.hub import Hub
from ikusa.server.projection import Principal, log_rows, project
from ikusa.server.service import TableService
from ikusa.server.table import TableState
from tests.server.helpers import AMBUSH

ROLES = (("gm", ""), ("spectator", ""), ("player", "alice"), ("player", "bob"))


def _step(svc: TableService, gm: Principal, v: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    r = rng.random()
    if r < 0.08 and v.get("can_undo"):
        return svc.undo(gm, v["version"])
    if r < 0.12 and v.get("can_redo"):
        return svc.redo(gm, v["version"])
    if r < 0.16:
        unit = rng.choice(["shinobi", "yagyu", "kuro"])
        return svc.act(gm, v["version"], ruling={"op": rng.choice(["reveal", "hide"]), "unit": unit})
    p = v["pending"]
    if p["kind"] == "dice":
        if rng.random() < 0.5 and p["count"] > 1 and not p.get("sum_only"):  # half typed: a partial action
            return svc.act(gm, v["version"], dice=[1] * p["count"])
        return svc.act(gm, v["version"], roll=True)
    return svc.act(gm, v["version"], action=rng.choice(p["options"])["key"])


def test_extended_log_rows_equal_a_fresh_replays_for_every_role(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'log.db'}")
    migrate(engine)
    svc = TableService(engine, Hub())
    seen_kinds: set[str] = set()
    for seed in (1, 2):
        created = svc.create_document(AMBUSH, seed=seed)
        gm = Principal(created.id, "gm")
        rng = random.Random(seed)
        v = svc.view(gm)
        for _ in range(70):
            if v["pending"] is None:
                break
            for role, name in ROLES:  # every role's view at every version, as open streams would
                svc.view(Principal(created.id, role, name))
            v = _step(svc, gm, v, rng)
            st = svc.state_for(gm)
            fresh = TableState(st.setup, st.seed)
            fresh.load(list(st.entries))
            for role, name in ROLES:
                who = Principal(created.id, role, name)
                assert dumps(svc.view(who)["log"]) == dumps(project(fresh, who)["log"]), (seed, role, name)
            assert log_rows(st, True) == log_rows(fresh, True)
            seen_kinds |= {e[1] for e in st.entries}
    assert {"undo", "ruling", "decision", "roll"} <= seen_kinds
    engine.dispose()
