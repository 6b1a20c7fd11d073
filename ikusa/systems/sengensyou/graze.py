"""Graze (グレイズ, G-R11, G-R12, G-G18): every gain and every spend.

Gains: 弾幕 paid with DP (the reduction), shot evaded (attacker's + defender's dice),
homing evaded (2 × defender's dice), successful melee approach (approach dice, to the
attacker); none from guard or from evading melee.  Spends: 霊力 5:1, shot damage 2:1,
melee damage 1:1 (per target, G-T06), resistance 3:1, 霊撃 3:1 against a 弾幕.
"""

from __future__ import annotations

from ikusa.engine.protocol import Option
from ikusa.systems.sengensyou.character import Fighter
from ikusa.systems.sengensyou.state import SengensyouState

#: G-R11 gains (003:L116-L131, L331-L335), applied in attacks.py:
#: 弾幕 paid with DP → the DP paid; ショット evaded → attacker's + evader's dice;
#: ホーミング evaded → evader's dice × HOMING_EVADE_FACTOR; melee approach succeeded → the
#: approach dice × APPROACH_FACTOR to the attacker; evading melee or guarding → nothing.
HOMING_EVADE_FACTOR = 2
APPROACH_FACTOR = 1
#: (situation, who gains, formula, rule) — printed by ``ikusa rules sengensyou graze``
GAINS: tuple[tuple[str, str, str, str], ...] = (
    ("弾幕をDPで受けた", "受けた側", "支払ったDP減少数 (DP不足で命中・無視を選んだ場合は0)", "G-R11,G-G07"),
    ("ショットを回避", "回避側", "攻撃のダイス数 + 回避のダイス数", "G-R11"),
    ("ホーミングを回避", "回避側", f"回避のダイス数 × {HOMING_EVADE_FACTOR}", "G-R11"),
    ("近接攻撃の接近判定に成功", "攻撃側", f"接近判定のダイス数 × {APPROACH_FACTOR}", "G-R11,G-G15"),
    ("近接攻撃を回避", "回避側", "0", "G-R11"),
    ("ガードで防いだ", "ガード側", "0", "G-R11,G-R19"),
)

REIRYOKU_RATE = 5
RESIST_RATE = 3
REIGEKI_RATE = 3
#: graze per +1 damage, by attack kind (G-R12: ショット 2, 近接攻撃 1)
BOOST_RATE = {"shot": 2, "melee": 1}


def gain(st: SengensyouState, f: Fighter, n: int, rule: str, why: str) -> None:
    """Add ``n`` graze (G-R11)."""
    if n <= 0:
        return
    before = f.graze
    f.graze += n
    st.emit_lazy("graze_gain", rule, _gain_text, (f.name, n, why, before, f.graze), who=f.id, gained=n,
                 graze=f.graze)


def _gain_text(name: str, n: int, why: str, before: int, now: int) -> str:
    return f"{name} グレイズ +{n} ({why}) {before}→{now}"


def boost_cost(kind: str, plus: int, targets: int = 1) -> int:
    """G-R12 / G-T06: +``plus`` damage to each of ``targets`` costs rate × plus per target."""
    return BOOST_RATE[kind] * plus * targets


def _spend(f: Fighter, n: int) -> None:
    if n > f.graze or n < 0:  # pragma: no cover - options are validated
        raise ValueError(f"{f.id} cannot spend {n} graze (has {f.graze})")
    f.graze -= n


def spend_boost(st: SengensyouState, f: Fighter, kind: str, plus: int) -> int:
    """Damage boost after the damage roll (G-G18); returns the damage added."""
    if plus <= 0:
        return 0
    cost = boost_cost(kind, plus)
    _spend(f, cost)
    st.emit_lazy("graze_boost", "G-R12", _boost_text, (f.name, cost, BOOST_RATE[kind], plus, f.graze), who=f.id,
                 spent=cost, plus=plus, graze=f.graze)
    return plus


def _boost_text(name: str, cost: int, rate: int, plus: int, left: int) -> str:
    return f"{name} グレイズ{cost}消費 ({rate}:1) → ダメージ+{plus} (残{left})"


def reiryoku_options(f: Fighter) -> list[Option]:
    """G-R12: 5 graze → 1 霊力 (up to 霊力 max, invented cap)."""
    room = f.reiryoku_max - f.reiryoku
    return [Option(f"graze:reiryoku:{k}", f"グレイズ{REIRYOKU_RATE * k}で霊力+{k}", REIRYOKU_RATE * k, None, {})
            for k in range(1, min(f.graze // REIRYOKU_RATE, room) + 1)]


def spend_reiryoku(st: SengensyouState, f: Fighter, k: int) -> None:
    _spend(f, REIRYOKU_RATE * k)
    before = f.reiryoku
    f.reiryoku += k
    st.emit("graze_reiryoku", "G-R12", f"{f.name} グレイズ{REIRYOKU_RATE * k}消費 → 霊力 {before}→{f.reiryoku} "
            f"(残{f.graze})", who=f.id, spent=REIRYOKU_RATE * k, reiryoku=f.reiryoku, graze=f.graze)


def spend_resist(st: SengensyouState, f: Fighter, k: int) -> int:
    """G-R12: 3 graze → +1 to a resistance 達成値; returns the bonus."""
    if k <= 0:
        return 0
    _spend(f, RESIST_RATE * k)
    st.emit("graze_resist", "G-R12", f"{f.name} グレイズ{RESIST_RATE * k}消費 → 抵抗達成値+{k} (残{f.graze})",
            who=f.id, spent=RESIST_RATE * k, plus=k, graze=f.graze)
    return k


def reigeki_options(f: Fighter, reduction: int) -> list[Option]:
    """G-R12 霊撃: 3 graze → the 弾幕's DP reduction −1 (never below 0)."""
    return [Option(f"graze:reigeki:{k}", f"霊撃: グレイズ{REIGEKI_RATE * k}でDP減少-{k}", REIGEKI_RATE * k, None, {})
            for k in range(1, min(f.graze // REIGEKI_RATE, reduction) + 1)]


def spend_reigeki(st: SengensyouState, f: Fighter, k: int, reduction: int) -> int:
    """Apply 霊撃 (after 防御専念 halving, G-R07); returns the new reduction."""
    _spend(f, REIGEKI_RATE * k)
    new = max(0, reduction - k)
    st.emit_lazy("reigeki", "G-R12,G-R07", _reigeki_text, (f.name, REIGEKI_RATE * k, reduction, new, f.graze),
                 who=f.id, spent=REIGEKI_RATE * k, reduction=new, graze=f.graze)
    return new


def _reigeki_text(name: str, spent: int, reduction: int, new: int, left: int) -> str:
    return f"{name} 霊撃 グレイズ{spent}消費 → DP減少 {reduction}→{new} (残{left})"
