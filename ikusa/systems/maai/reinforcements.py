"""What a 小康 environment event does (S-R36, S-G07; issue #13): the band of the 妖魔乱入遭遇表
(maai/tables.py) puts its battlefield-change effect on every able unit (an effect with its own
duration, shown in every check it touches) and brings in its reinforcements as real units —
each joins with full 活力 and acts when the count reaches it (S-R35), as a GM's ``add_unit``
ruling does (maai/rulings.py).  A reinforcement already in the battle comes again as
``ID_2``, ``ID_3`` …"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ikusa.systems.maai.tables import EnvBand, Tables


def environment_band(tables: Tables, event: str) -> EnvBand | None:
    """The first 妖魔乱入 band of ``event`` (the GM ruled it directly: its effect applies)."""
    return next((b for b in tables.youma if b.event == event), None)


def apply_environment(st: Any, band: EnvBand) -> None:
    from ikusa.systems.maai import rulings
    from ikusa.systems.maai.effects import refresh_sig

    if band.effect is not None:
        for u in st.units:
            if u.able:
                st.fx.book.add(u.id, band.effect, "S-R36")
                refresh_sig(st, u.id)
        mods = " ".join(f"{k}{v:+d}" for k, v in band.effect.modifiers.items())
        st.emit("environment_effect", "S-R36,S-G07", f"戦場変化「{band.effect.name}」{mods} "
                f"({band.effect.duration.label()}): 全員", effect=band.effect.name, event=band.event)
    for rid in band.units:
        spec = dict(st.enc.tables.reinforcements[rid])
        uid, n = rid, 1
        while uid in st.by_id:
            n += 1
            uid = f"{rid}_{n}"
        spec["id"] = uid
        if n > 1:
            spec["name"] = f"{spec.get('name', rid)}{n}"
        why = f"妖魔乱入 (S-R36): {band.text or band.event}"
        rulings._add_unit(st, SimpleNamespace(unit=spec, op="add_unit", reason=why))
