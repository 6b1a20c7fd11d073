"""The count (カウント進行, S-R35): who takes the next breath."""

from __future__ import annotations

from collections.abc import Sequence

from ikusa.systems.maai.units import Unit


def count_key(u: Unit, order: int) -> tuple[int, int, int, int, int]:
    """Sort key, smallest first: highest count (活力, + 先攻 before the first breath, S-T18),
    then higher 技, then the ally side (the first side listed, S-T17), PCs before allied NPCs
    (S-G49), then encounter order (S-G49: a true tie — one side, equal 技 — is then put to the
    controller by count_ties.CountTieFlow unless ``count.same_side_ties = encounter_order``)."""
    return (-u.count_value(), -u.ab["gi"], u.side_rank, 0 if u.grade == "PC" else 1, order)


def next_to_act(units: Sequence[Unit]) -> Unit | None:
    """S-R35: the unit whose count comes next, or ``None`` when ② is over (every unit has 0
    活力 or has passed, S-G21)."""
    best: Unit | None = None
    best_count = 0
    best_tie: tuple[int, int, int] = (0, 0, 0)
    for u in units:
        if u.incapacitated or u.passed or u.vigor <= 0:
            continue
        c = u.vigor + (u.first_bonus if u.breaths_taken == 0 else 0)  # count_value, inlined
        # the rest of count_key only decides between equal counts; a later unit (higher
        # encounter order) wins a tie only with a strictly smaller key
        if best is None or c > best_count:
            best, best_count = u, c
            best_tie = (-u.ab["gi"], u.side_rank, 0 if u.grade == "PC" else 1)
        elif c == best_count:
            tie = (-u.ab["gi"], u.side_rank, 0 if u.grade == "PC" else 1)
            if tie < best_tie:
                best, best_tie = u, tie
    return best
