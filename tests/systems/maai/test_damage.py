"""Damage: S-R41, S-R43, S-R54, S-R60; S-T05, S-T21 (damage), S-T30 (緊急回避), S-T34, S-T40."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ikusa.systems.maai.catalog import load_catalog
from ikusa.systems.maai.check import Check, Outcome
from ikusa.systems.maai.damage import apply_wounds, attack_damage, emergency_evasion, hit_damage, hits_to_incapacitate

CAT = load_catalog()


def test_s_t05_crit_two() -> None:
    c = Check((7, 7), 2, 11)
    assert attack_damage(c.outcome, CAT.maneuver("katana.yokogiri"), CAT).target == 2


def test_s_t21_light_armour_ashigaru() -> None:
    yoko = CAT.maneuver("katana.yokogiri")
    hit = attack_damage(Check((6, 5), 3, 11).outcome, yoko, CAT)
    crit = attack_damage(Check((6, 6), 3, 11).outcome, yoko, CAT)
    assert (hit.target, crit.target) == (1, 2)
    assert apply_wounds(1, hit.target).incapacitated and apply_wounds(1, crit.target).incapacitated
    assert apply_wounds(2, hit.target).after == 1 and apply_wounds(2, crit.target).after == 0


def test_s_t40_special_crits() -> None:
    z = attack_damage(Outcome.CRITICAL, CAT.maneuver("zanbatou.zanba"), CAT)
    assert (z.target, z.behind, z.rule) == (3, 0, "S-R43")
    gun = attack_damage(Outcome.CRITICAL, CAT.maneuver("teppou.shageki"), CAT)
    assert (gun.target, gun.behind) == (2, 1)
    assert attack_damage(Outcome.SUCCESS, CAT.maneuver("teppou.shageki"), CAT).behind == 0
    assert attack_damage(Outcome.TENMEI, CAT.maneuver("zanbatou.kiriage"), CAT).target == 3


def test_s_t49_kantsuusha_behind() -> None:
    d = attack_damage(Outcome.SUCCESS, CAT.maneuver("daikyu.kantsuusha"), CAT)
    assert (d.target, d.behind) == (2, 1)
    assert attack_damage(Outcome.SUCCESS, CAT.maneuver("tanto.kyuusho_nuki"), CAT).target == 2  # S-T47


def test_misses_and_fumbles_deal_nothing() -> None:
    for o in (Outcome.FAILURE, Outcome.FUMBLE, Outcome.GOUHOU):
        assert hit_damage(o).target == 0


def test_s_g28_crit_only_on_damage_checks() -> None:
    assert hit_damage(Outcome.CRITICAL, kind="defense").target == 1


def test_s_t30_emergency_evasion() -> None:
    assert emergency_evasion(3) == 2 and emergency_evasion(1) == 1 and emergency_evasion(0) == 0


def test_s_t34_pc_four_wounds() -> None:
    w = apply_wounds(4, 2)
    assert (w.after, w.incapacitated) == (2, False)
    w2 = apply_wounds(w.after, 2)
    assert (w2.after, w2.incapacitated, w2.text) == (0, True, "戦力 2→0 戦闘不能")
    assert hits_to_incapacitate(4, 1) == 4 and hits_to_incapacitate(4, 2) == 2


@settings(max_examples=60)
@given(st.integers(0, 8), st.integers(0, 8))
def test_wounds_never_negative(current: int, dmg: int) -> None:
    w = apply_wounds(current, dmg)
    assert 0 <= w.after <= current and w.incapacitated == (w.after == 0)
    assert emergency_evasion(dmg) >= min(1, dmg)
