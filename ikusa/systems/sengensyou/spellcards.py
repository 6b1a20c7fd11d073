"""Spell cards (G-R21, G-G24): every combat use clears bullets and recovers DP by
[the card's ability Lv or 3] (default max(Lv, 3)), capped at DP最大値 (G-G03).

* 展開型 (deploy): any time; damage to the user goes to the card's HP first; when it
  breaks, the excess is lost.
* 消費型 (consume): as the user's own action (its effect: damage); or any time for 消弾
  (all allies recover DP, no effect); or any time for defence (nullifies what is aimed at
  the user now, even after evasion and damage rolls).

Each card is used once per battle (host data, G-G24).
"""

from __future__ import annotations

from functools import partial

from ikusa.engine.protocol import Option
from ikusa.systems.sengensyou import defence
from ikusa.systems.sengensyou.catalog import Catalog, SpellCard, catalog
from ikusa.systems.sengensyou.character import Fighter
from ikusa.systems.sengensyou.state import Flow, SengensyouState

#: G-R21 / G-G24: the "3" of [SC's ability Lv or 3]
SC_RECOVERY_FLOOR = 3


def card(cid: str, cat: Catalog | None = None) -> SpellCard:
    """Spell card ``cid`` of ``cat`` (a fighter's: the encounter's, homebrew included)."""
    return (cat or catalog()).spellcards[cid]


def recovery(st: SengensyouState, f: Fighter, c: SpellCard) -> int:
    """G-G24: DP recovery = max(Lv, 3); alt ``lv_or_3``: Lv if the card has an ability, else 3."""
    lv = f.ability(c.ability) if c.ability else 0
    if st.opt.sc_recovery == "lv_or_3":
        return lv if c.ability else SC_RECOVERY_FLOOR
    return max(lv, SC_RECOVERY_FLOOR)


def unused(f: Fighter, kind: str) -> list[SpellCard]:
    if not f.spec.spell_cards:
        return []
    cards = f.cat.spellcards
    used = f.sc_used
    return [sc for c in f.spec.spell_cards if c not in used and (sc := cards[c]).type == kind]


def _recover(st: SengensyouState, f: Fighter, c: SpellCard, why: str, n: int) -> None:
    """Recover ``n`` DP (the user's [Lv or 3], G-G24), capped (G-G03)."""
    before = f.dp
    got = f.gain_dp(n, cap=st.opt.dp_cap_recovery)
    st.emit_lazy("sc_recovery", "G-R21,G-G24", _recover_text, (f.name, c.name, why, n, before, f.dp, f.dp_max),
                 who=f.id, card=c.id, recovery=n, gained=got, dp=f.dp)


def _recover_text(name: str, card: str, why: str, n: int, before: int, dp: int, dp_max: int) -> str:
    return f"{name} {card} ({why}): 弾消し DP+{n} → {before}→{dp}/{dp_max}"


#: the key part of a fighter who has used no spell card yet
NONE_USED: frozenset[str] = frozenset()


def used_key(f: Fighter) -> frozenset[str]:
    """The cards ``f`` has used, as a memo key (issue #12): the options below are made of
    nothing else besides the character sheet."""
    used = f.sc_used
    return frozenset(used) if used else NONE_USED


def free_options(st: SengensyouState, f: Fighter) -> tuple[Option, ...]:
    """展開型 deploy and 消費型 消弾, usable any time (no action spent); kept per character
    sheet and cards left (issue #12: they are made of nothing else)."""
    if not f.spec.spell_cards:
        return ()
    return st.fighter_options(f, ("sc_free", used_key(f)), _free_options, st, f)


def _free_options(st: SengensyouState, f: Fighter) -> list[Option]:
    opts = [Option.lazy(f"deploy:{c.id}", partial(_deploy_label, c.name, c.hp, recovery(st, f, c)))
            for c in unused(f, "deploy")]
    opts += [Option.lazy(f"shoudan:{c.id}", partial(_shoudan_label, c.name, recovery(st, f, c)))
             for c in unused(f, "consume")]
    return opts


def _deploy_label(name: str, hp: int, n: int) -> str:
    return f"展開型スペルカード {name} を展開 (HP{hp}, DP+{n})"


def _shoudan_label(name: str, n: int) -> str:
    return f"{name} で消弾 (味方全員DP+{n})"


def defend_options(st: SengensyouState, t: Fighter) -> tuple[Option, ...]:
    if not t.spec.spell_cards:
        return ()
    return st.fighter_options(t, ("sc_defend", used_key(t)), _defend_options, st, t)


def _defend_options(st: SengensyouState, t: Fighter) -> list[Option]:
    return [Option.lazy(f"sc_defend:{c.id}", partial(_defend_label, c.name, recovery(st, t, c)))
            for c in unused(t, "consume")]


def _defend_label(name: str, n: int) -> str:
    return f"{name} で防御 (自分への効果を全て無効化, DP+{n})"


def reaction_options(st: SengensyouState, t: Fighter) -> tuple[Option, ...]:
    """Spell-card choices inside a defence or 弾幕 decision."""
    if not t.spec.spell_cards:
        return ()
    return free_options(st, t) + defend_options(st, t)


def attack_options(st: SengensyouState, f: Fighter,
                   targets: tuple[tuple[str, str], ...] | None = None) -> tuple[Option, ...]:
    """消費型 as the own action: the card's damage effect, at one of ``targets`` (the visible
    enemies' (id, name), ``st.enemies(f)`` not hidden) unless it hits them all."""
    if not f.spec.spell_cards:
        return ()
    if targets is None:
        targets = tuple((t.id, t.name) for t in st.enemies(f) if not t.hidden)
    return st.fighter_options(f, ("sc_attack", used_key(f), targets), _attack_options, st, f, targets)


def _attack_options(st: SengensyouState, f: Fighter, targets: tuple[tuple[str, str], ...]) -> list[Option]:
    opts: list[Option] = []
    for c in unused(f, "consume"):
        if c.damage_dice <= 0:
            continue
        info = (f"{c.damage_dice}D+{c.stat}, 固定達成値{hit_value(f, c)}, 自分のDP+{recovery(st, f, c)}; "
                "行動を消費")
        exp = c.damage_dice * 3.5 + f.stat(c.stat)
        if c.targets == "all":
            opts.append(Option.lazy(f"sc:{c.id}", partial(_attack_label, c.name, "敵全員", info),
                                    data={"kind": "sc", "exp_damage": exp}))
        else:
            for tid, tname in targets:
                opts.append(Option.lazy(f"sc:{c.id}:{tid}", partial(_attack_label, c.name, tname, info),
                                        data={"kind": "sc", "target": tid, "exp_damage": exp}))
    return opts


def _attack_label(name: str, whom: str, info: str) -> str:
    return f"消費型 {name} → {whom} ({info})"


def use_free(st: SengensyouState, f: Fighter, key: str) -> None:
    what, cid = key.split(":")
    c = card(cid, f.cat)
    f.sc_used.add(cid)
    if what == "deploy":
        f.sc_deployed[cid] = c.hp
        st.emit("sc_deploy", "G-R21", f"{f.name} 展開型 {c.name} 展開 (カードHP{c.hp}"
                + (", 隊列制限を無視" if c.ignore_rows else "") + ")", who=f.id, card=cid, hp=c.hp)
        _recover(st, f, c, "展開", recovery(st, f, c))
        return
    st.emit("sc_shoudan", "G-R21", f"{f.name} 消費型 {c.name} で消弾: 味方全員のDP回復", who=f.id, card=cid)
    n = recovery(st, f, c)
    for g in [f, *st.allies(f)]:
        _recover(st, g, c, "消弾", n)


def defend(st: SengensyouState, t: Fighter, cid: str) -> None:
    c = card(cid, t.cat)
    t.sc_used.add(cid)
    st.emit("sc_defend", "G-R21,G-G24", f"{t.name} 消費型 {c.name} で防御: 自分を対象とする効果を全て無効化",
            who=t.id, card=cid)
    _recover(st, t, c, "防御", recovery(st, t, c))


def absorb(st: SengensyouState, t: Fighter, amount: int) -> int:
    """G-G24: a deployed card takes the damage first; when broken, the excess is lost."""
    for cid in list(t.sc_deployed):  # the first deployed card takes it all
        hp = t.sc_deployed[cid]
        took = min(hp, amount)
        t.sc_deployed[cid] = hp - took
        st.emit("sc_absorb", "G-R21,G-G24",
                f"{card(cid, t.cat).name} がダメージ{took}を肩代わり (カードHP {hp}→{hp - took})",
                who=t.id, card=cid, absorbed=took)
        if hp - took <= 0:
            del t.sc_deployed[cid]
            st.emit("sc_break", "G-G24", f"{card(cid, t.cat).name} ブレイク (超過ダメージは消える)", who=t.id, card=cid)
        return 0
    return amount


def sc_attack(st: SengensyouState, f: Fighter, cid: str, target: str | None) -> Flow:
    """消費型 as an own action: recover DP, then the card's damage to its target(s)."""
    c = card(cid, f.cat)
    f.sc_used.add(cid)
    st.emit("sc_attack", "G-R21,G-G24", f"{f.name} スペルカード宣言 {c.name} (達成値{hit_value(f, c)} 固定値)",
            who=f.id, card=cid, total=hit_value(f, c))
    _recover(st, f, c, "使用", recovery(st, f, c))
    targets = [st.f(target)] if target else list(st.enemies(f))
    total = hit_value(f, c)
    for t in targets:
        if not t.active:
            continue
        st.attack_serial += 1
        res = yield from defence.defend(st, f, t, "sc", total)
        if res.outcome in ("hit", "guard_failed"):
            yield from defence.damage(st, f, t, "sc", dice=c.damage_dice, fixed=f.stat(c.stat),
                                      reduction=res.reduction, label=c.name)
        if st.update_end():
            return


def hit_value(f: Fighter, c: SpellCard) -> int:
    """Fixed 達成値 of a consume card's attack: stat + ability Lv + hit_bonus (host data)."""
    return f.stat(c.stat) + (f.ability(c.ability) if c.ability else 0) + c.hit_bonus

