"""Every option a player sees stays byte for byte what it was before the speed work of issue
#12 (千幻抄): the byte-identity guard (``tests/qa/test_byte_identity.py``) hashes the decisions
taken and the events, not the option lists; this guard hashes every pending decision of
seeded battles of every example, option for option (key, label, cost, odds, data), with its
actor, kind and prompt, and compares the digest with ``data/option_digests.json``, recorded
from the code before the lazy labels, the growing shot blocks and the other shortcuts
(commit e100a7b).

Record anew (only when a rule deliberately changes an option): ``python -m
tests.systems.sengensyou.test_option_identity --record``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
FIXTURE = Path(__file__).resolve().parent / "data" / "option_digests.json"
#: the examples, and the option witnesses of #13 (surprise, hiding, escape, fixed NPC values …)
FILES = [*sorted((ROOT / "examples" / "sengensyou").glob("*.yaml")),
         *sorted((ROOT / "tests" / "systems" / "data").glob("sengensyou_*.yaml"))]
#: option variants that change how options are built (ties, repeated homing boosts, the
#: simplified rules, GM fixed values for NPCs): name → (encounter, options)
VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "tie-attacker": ("party_battle", {"defence_tie": "attacker"}),
    "homing-repeat": ("party_battle", {"homing_boost_repeatable": True}),
    "fixed-npc": ("party_battle", {"npc_fixed_dice": True}),
    "fixed-npc-ceil": ("spellcard_duel", {"npc_fixed_dice": True, "fixed_roll_rounding": "ceil"}),
    "simplified": ("sengensyou_witness", {"simplified": True}),
}
CASES = [(p.stem, "", ai, seed) for p in FILES for ai in ("random", "greedy") for seed in (1, 2, 3)]
CASES += [(VARIANTS[v][0], v, ai, seed) for v in VARIANTS for ai in ("random", "greedy") for seed in (1, 2)]


def _loaded(name: str, variant: str) -> Any:
    from ikusa.engine.encounter import read_document, split_document
    from ikusa.engine.runner import Loaded, resolve_system

    path = next(p for p in FILES if p.stem == name)
    data = read_document(path)
    if variant:
        data["options"] = {**data.get("options", {}), **VARIANTS[variant][1]}
    doc = split_document(data, str(path))
    module = resolve_system(doc)
    return Loaded(doc, module, module.encounter_from_dict(doc.body, str(path)))


def decision_digest(name: str, variant: str, ai: str, seed: int) -> dict[str, Any]:
    """sha256 of every pending decision (and the final summary) of one seeded battle."""
    from ikusa.dice.source import RandomSource
    from ikusa.engine.runner import MAX_DECISIONS, policy_for

    loaded = _loaded(name, variant)
    policy = policy_for(loaded.module, ai)
    state = loaded.module.new_state(loaded.encounter)
    rng, dice = random.Random(seed), RandomSource(seed)
    digest = hashlib.sha256()
    n = options = 0
    while (d := state.pending()) is not None and n < MAX_DECISIONS:
        opts = [[o.key, o.label, o.cost, o.odds, o.data] for o in d.options]
        digest.update(json.dumps([d.actor, d.kind, d.prompt, opts], ensure_ascii=False, sort_keys=True,
                                 default=str).encode())
        options += len(opts)
        state.apply(policy.choose(state, d, rng), dice)
        n += 1
    digest.update(json.dumps(state.summary(), ensure_ascii=False, sort_keys=True).encode())
    return {"sha256": digest.hexdigest(), "decisions": n, "options": options}


def _key(name: str, variant: str, ai: str, seed: int) -> str:
    return f"{name}{' ' + variant if variant else ''} {ai} seed={seed}"


@pytest.mark.parametrize(("name", "variant", "ai", "seed"), CASES, ids=[_key(*c) for c in CASES])
def test_every_option_is_as_before(name: str, variant: str, ai: str, seed: int) -> None:
    expected = json.loads(FIXTURE.read_text("utf-8"))
    assert decision_digest(name, variant, ai, seed) == expected[_key(name, variant, ai, seed)]


def test_fixture_covers_every_case() -> None:
    assert sorted(json.loads(FIXTURE.read_text("utf-8"))) == sorted(_key(*c) for c in CASES)


def record() -> None:
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    values = {_key(*c): decision_digest(*c) for c in CASES}
    FIXTURE.write_text(json.dumps(values, ensure_ascii=False, indent=1, sort_keys=True) + "\n", "utf-8")
    print(f"recorded {len(values)} cases in {FIXTURE}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        raise SystemExit("usage: python -m tests.systems.sengensyou.test_option_identity --record")
    record()
