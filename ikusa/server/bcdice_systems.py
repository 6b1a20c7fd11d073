"""The game systems the BCDice-API v2 of ``ikusa serve`` offers (issue #10 §2).

``DiceBot`` and ``Sengensyou`` keep BCDice's ids, names and sort keys.  ikusa's own systems
get ids in BCDice's style, Japanese names and sort keys as BCDice writes them (the reading
in hiragana, voiced marks and small kana dropped, a long vowel written out):

| id | name | sort_key | ikusa system |
|---|---|---|---|
| ``DiceBot`` | DiceBot | ``*たいすほつと`` | the plain dice bot |
| ``Fantasy`` | ファンタジー特殊状況 | ``ふあんたしいとくしゆしようきよう`` | ``fantasy`` (002) |
| ``Maai`` | 間合 | ``まあい`` | ``maai`` (000 + 001) |
| ``Sengensyou`` | 千幻抄 | ``せんけんしよう`` | ``sengensyou`` (003) |

``command_pattern`` is BCDice's shape: ``^S?(`` + the prefixes of the common commands and
of the system + ``)``; a client compiles it case-insensitively and sends only text that
matches.
"""

from __future__ import annotations

from dataclasses import dataclass

#: the BCDice whose answers ikusa gives: bcdice-js 4.9.0 (npm), which is BCDice 3.16.1
BCDICE_VERSION = "3.16.1"

#: what begins each common DiceBot command (sum, B, T, C, choice, D66, repeat, R, U dice)
COMMON_PREFIXES = (
    r"[+\-(]*(\d+|D\d+)",
    r"\d+B\d+",
    r"\d+T[YZ]\d+",
    r"C[+\-(]*\d+",
    "choice",
    "D66",
    r"(repeat|rep|x)\d+",
    r"\d+R\d+",
    r"\d+U\d+",
)

DICEBOT_HELP = """\
2D6+1>=7 ：2D6に1を足して7以上なら成功（加算ロール。+ - * / と括弧、/2C 切り上げ・/2R 四捨五入・/2F 切り捨て）
3D6KH2 ：3D6のうち大きい2個を合計（KL 小さい方、DH/DL 捨てる方）
5B6>=4 ：5D6をバラバラに出し、4以上の個数を数える
3U6[6] ：6以上が出たら振り足して合計する（上方無限）
3R6>=5 ：5以上が出た個数だけ振り足して、5以上の個数を数える（個数振り足し）
5TY6 / 5TZ6 ：出目ごとの個数を数える（TZは0個の目も出す）
D66 ：D66（D66A 昇順、D66D 降順、D66N そのまま）
C(10-4*3/2+2) ：計算だけを行う
choice[a,b,c] / choice(a,b,c) / choice a b c ：一つを選ぶ。choice2[a,b,c] は重複なしで2つ、choice[A-F] は範囲
x3 2D6 / rep3 2D6 / repeat3 2D6 ：3回繰り返す（1〜100回）
S2D6 ：先頭のSでシークレットロール
空白の後ろはコメント
"""


@dataclass(frozen=True, slots=True)
class GameSystem:
    id: str
    name: str
    sort_key: str
    #: the id for :func:`ikusa.api.roll` (``None``: the plain dice bot)
    ikusa_system: str | None
    prefixes: tuple[str, ...]
    help_message: str

    @property
    def command_pattern(self) -> str:
        return "^S?(" + "|".join((*COMMON_PREFIXES, *self.prefixes)) + ")"


SYSTEMS: dict[str, GameSystem] = {s.id: s for s in (
    GameSystem("DiceBot", "DiceBot", "*たいすほつと", None, (), DICEBOT_HELP),
    GameSystem("Sengensyou", "千幻抄", "せんけんしよう", "sengensyou", ("SGS", r"DPF?\d"),
               "・SGS　命中判定・回避判定（3D6+修正値、16以上クリティカル・5以下ファンブル）\n"
               "・DP3+7>=12　ダイスプール判定（ikusa独自: DPを3消費し3D6+判定値7、目標値12）\n"
               "・DPF3+7　固定値モード（3×3.5 切り捨て）\n"
               "比較はDPで（BCDiceと同じくSGSは目標値を読みません）\n"),
    GameSystem("Maai", "間合", "まあい", "maai", (),
               "・2D10+3>=11　行為判定: 成功/失敗、ゾロ目の会心/失着、天命/業報（修正値は±10まで）\n"
               "・2D10+3>=11CE　会心拡張（出目の差が1の成功も会心）\n"
               "・2D10+3>=11F1+ / F1- / F2+ / F2-　運命介入: 1個目/2個目のダイスを±1\n"
               "・2D10+3>=11FB　運命介入を最も良くなるときだけ使う\n"
               "そのほかDiceBotのコマンドも使えます\n"),
    GameSystem("Fantasy", "ファンタジー特殊状況", "ふあんたしいとくしゆしようきよう", "fantasy", (),
               "・2D6+5>=12　判定: 2D6+判定値が目標値以上で成功、[6,6]は自動成功・[1,1]は自動失敗\n"
               "そのほかDiceBotのコマンドも使えます\n"),
)}


def sorted_systems() -> list[GameSystem]:
    """The list of ``GET /v2/game_system``: sorted by ``sort_key`` (as BCDice-API)."""
    return sorted(SYSTEMS.values(), key=lambda s: s.sort_key)
