"""The narrated lines of the commonest maai events, formatted on demand (issue #12).

A hot event is emitted with :meth:`~ikusa.systems.maai.flow_base.FlowBase.emit_lazy`: one of
these formatters and the values it shows (names, numbers, an immutable
:class:`~ikusa.systems.maai.check.Check`), never a unit or anything else that changes later,
so the line reads the same whenever it is first read (``Event.text``), and an AI running many
battles never formats it.  Each formatter gives exactly the text the eager ``emit`` gave.
"""

from __future__ import annotations

from collections.abc import Sequence

from ikusa.systems.maai.check import Check


def dice_text(c: Check) -> str:
    return f"2D10[{c.dice[0]},{c.dice[1]}]{c.applied_modifier:+d}={c.total}"


def paid_text(cost: int, before: int, after: int, collapse: int = 0) -> str:
    """What a maneuver paid (breath_flow.pay), with a pending 構え崩し (S-T51)."""
    text = f"活力{cost} {before}→{after}"
    return text + f" 構え崩し+{collapse} (S-T51)" if collapse else text


def breath_text(count: int, name: str, vigor: int, bonus: int, limit: int, notes: Sequence[str]) -> str:
    """S-R35: a breath begins (``bonus``: the 先攻 bonus of a first breath, else 0)."""
    b = f"+先攻{bonus}" if bonus else ""
    more = f" {' '.join(notes)}" if notes else ""
    return f"カウント{count}: {name} の一呼吸 (活力{vigor}{b}, 限界{limit}){more}"


def maneuver_text(name: str, move: str, cost: int, before: int, after: int, collapse: int) -> str:
    """S-R27: an attack maneuver is declared and paid."""
    return f"{name} {move} ({paid_text(cost, before, after, collapse)})"


def attack_text(attacker: str, move: str, target: str, c: Check, defence: int, extra: str) -> str:
    """S-R41: the hit roll against 防備."""
    total = c.total
    d0, d1 = c.dice
    out = c.outcome
    ok = out.succeeded
    ov = out.value
    shown = ov if ov not in ("成功", "失敗") else ("命中" if ok else "失敗")
    return (f"{attacker} {move} → {target}: 2D10[{d0},{d1}]{total - d0 - d1:+d}={total} {'≥' if ok else '<'} "
            f"防備{defence} {shown}{extra}")


def defence_text(target: str, move: str, how: str, d: Check, hit_total: int) -> str:
    """S-R53: the defence roll against the hit total."""
    ok = d.success
    return (f"{target} {move} [{how}]: {dice_text(d)} {'≥' if ok else '<'} 命中{hit_total} → "
            f"{'無効化' if ok else '失敗'}")


def damage_text(name: str, before: int, after: int, what: str, dmg: int) -> str:
    """S-R60: 戦力 lost."""
    return f"{name} 戦力 {before}→{after} ({what} {dmg})"


def breath_end_text(name: str, spent: int, vigor: int, note: str) -> str:
    """S-R35: a breath ends."""
    return f"{name} 一呼吸終了 (消費{spent}, 残り活力{vigor}){note}"


# -- prompts (Decision.lazy: made when a person first reads them) ---------------------------
def breath_prompt(name: str, vigor: int, spent: int, limit: int) -> str:
    return f"{name} の一呼吸: 活力{vigor} 消費{spent}/限界{limit}"


def fate_prompt(name: str, what: str, c: Check, fate_left: int) -> str:
    return f"{name}: {what} {dice_text(c)} vs {c.target} → {c.outcome.value}. 運命介入 (残り{fate_left})?"


def reaction_prompt(target: str, attacker: str, move: str, hit_total: int) -> str:
    return f"{target}: {attacker}の{move} 命中{hit_total} に防御?"
