"""The encounters the browser tests play (small, so a whole battle fits in seconds)."""

MAAI = """
system: maai
title: 峠の戦い
sides: [味方, 敵]
units:
  - {id: genzaburo, name: 源三郎, side: 味方, grade: PC, abilities: {勇: 2, 技: 1, 體: 1, 智: 0, 美: 0, 運: 1},
     skills: {剣術: 免許}, armour: [軽甲], weapons: [katana]}
  - {id: ohatsu, name: お初, side: 味方, grade: PC, abilities: {勇: 2, 技: 1, 體: 0, 智: 1, 美: 2, 運: 2},
     skills: {剣術: 習得}, weapons: [katana]}
  - {id: yagyu, name: 槍の将, side: 敵, grade: 卒, fate: 0, abilities: {勇: 3, 技: 2, 體: 1, 智: 0, 美: 0, 運: 0},
     skills: {槍術: 免許}, weapons: [yari]}
  - {id: shinobi, name: 忍びの影, side: 敵, grade: 雑, fate: 0, hidden: true,
     abilities: {勇: 0, 技: 0, 體: 0, 智: 0, 美: 0, 運: 0}, weapons: [katana]}
control:
  sides:
    敵: {controller: gm, dice: auto}
  units:
    genzaburo: {controller: "player:太郎", dice: manual}
    ohatsu: {controller: "player:花子", dice: ask}
"""


def choose_maai(kind: str, keys: list[str], spent: bool, target: str) -> str:
    """The test's players and GM: one attack on ``target`` per breath, then end it; defend
    with the first defence offered; never spend fate (short, deterministic battles)."""
    if kind == "fate":
        return "nofate" if "nofate" in keys else keys[-1]
    if kind == "breath":
        if spent:
            for k in ("end", "pass"):
                if k in keys:
                    return k
        attacks = [k for k in keys if k.startswith("use:") and k.endswith(">" + target)]
        if attacks:
            return attacks[0]
        others = [k for k in keys if k.startswith("use:") and ">" in k]
        return others[0] if others else next((k for k in ("end", "pass") if k in keys), keys[0])
    return keys[0]


SENGENSYOU = """
system: sengensyou
title: 弾幕ごっこ（ブラウザ試験）
pc_side: reimu_side
characters:
  - id: reimu
    name: 博麗霊夢
    side: reimu_side
    stats: {身体: 3, 耐久: 4, 知性: 5, 感覚: 6, 意志: 5}
    skills: {回避: 4, 弾幕: 3, ショット: 3, ホーミング: 4, 飛行: 3, 感知: 3, 精神抵抗: 2}
    abilities: {神術・陰陽術: 4}
  - id: marisa
    name: 霧雨魔理沙
    side: marisa_side
    stats: {身体: 4, 耐久: 4, 知性: 6, 感覚: 4, 意志: 4}
    skills: {回避: 3, 弾幕: 3, ショット: 4, ホーミング: 2, 飛行: 4, 感知: 2, 精神抵抗: 1}
    abilities: {魔法: 5}
control:
  sides:
    marisa_side: {controller: "ai:greedy", dice: auto}
  units:
    reimu: {controller: "player:霊夢の中の人", dice: ask}
"""
