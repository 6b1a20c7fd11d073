"""S-G19's status conditions on the effect mechanism (issue #13; maai/effects.py).

The texts name 出血, 毒, 呪い, 束縛, 恐怖 and 重傷 without rules (001:L131, L274, L387; 000:L256,
L350).  What they do say: 毒・呪い・束縛・恐怖 are sources of 防備 −N, "a state that lowers the
final 防備 for a time", every attacker benefits, floor 2 (S-R48, S-G42); 毒虫師 呪い虫寄生 is
「毎間合防備 −1（寄生解除まで）」 (001:L141), constant by default (S-G43).  So each is an effect a GM
puts on by name (``{op: effect, unit: oni, name: 毒}``, or an encounter's ``effects:``):

===== ============================================================ ============================
name  default (option)                                             why
===== ============================================================ ============================
毒    防備 −``status.poison_defense`` (1) until removed              S-R48 (N invented)
呪い  防備 −``status.curse_defense`` (1) until removed, 毎間合        001:L141 (S-G43: constant,
      (``debuff.per_round_cumulative``: −1 more each 間合)          cumulative by option)
束縛  防備 −``status.bind_defense`` (1) for ``status.bind_maai``     S-R48 "一定時間" (invented)
      (1) 間合
恐怖  ``恐怖>SOURCE``: the S-G18 check (maai/fear.py, rulings.py)    S-G18
出血  the ``condition`` ruling / bleed maneuvers: −1 戦力 each 間合  S-G19 (``status.bleed``)
      until 止血 (1 活力)
重傷  the survival roll's flag (S-R62)                              S-G19 (flag only)
===== ============================================================ ============================

A homebrew effect of the same name replaces the built-in one.  Any effect may carry the
condition ``毎間合`` (``per_maai``) to grow by −1 防備 each 間合 when
``debuff.per_round_cumulative`` is on.
"""

from __future__ import annotations

from typing import Any

from ikusa.engine.effects import Duration, EffectSpec

#: the condition that makes an effect's 防備 −N grow each 間合 (S-G43 alt)
PER_MAAI = "per_maai"
PER_MAAI_NAMES = {"毎間合": PER_MAAI, "per_maai": PER_MAAI}


def builtin(opts: Any) -> dict[str, EffectSpec]:
    """S-G19's named conditions with the numbers of ``opts`` (a ``MaaiOptions``)."""
    st = opts.status

    def minus(n: int) -> dict[str, int]:
        return {"defense": -n} if n else {}

    return {
        "毒": EffectSpec(name="毒", modifiers=minus(st.poison_defense),
                        note="S-G19/S-R48: 防備 −N while poisoned (N invented)"),
        "呪い": EffectSpec(name="呪い", modifiers=minus(st.curse_defense), condition=PER_MAAI,
                         note="S-G19/S-G43: 毎間合防備 −N (001:L141), constant unless debuff.per_round_cumulative"),
        "束縛": EffectSpec(name="束縛", modifiers=minus(st.bind_defense),
                         duration=Duration(clock="maai", n=st.bind_maai),
                         note="S-G19/S-R48: 防備 −N for a time (001:L131; N and time invented)"),
    }


def grow_per_maai(st: Any) -> None:
    """S-G43 alt (``debuff.per_round_cumulative``): as a 間合 begins, every active effect holding
    ``per_maai`` with a 防備 −N becomes 防備 −(N+1) (floor 2 stays S-G42's), with an event."""
    if not st.opts.debuff.per_round_cumulative:
        return
    from ikusa.systems.maai.effects import refresh_sig

    for e in st.fx.book.active:
        d = e.spec.modifiers.get("defense", 0)
        if e.spec.condition != PER_MAAI or d >= 0:
            continue
        e.spec = e.spec.model_copy(update={"modifiers": {**e.spec.modifiers, "defense": d - 1}})
        refresh_sig(st, e.target)
        u = st.by_id.get(e.target)
        st.emit("effect_grow", "S-G43", f"{u.name if u is not None else e.target} の「{e.spec.name}」 防備{d}→{d - 1} "
                "(毎間合累積)", unit=e.target, effect=e.spec.name, defense=d - 1)
