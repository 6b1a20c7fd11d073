"""`ikusa rules SYSTEM ID|CONCEPT`: the rule text of an ANALYSIS id (S-R29, G-G06, F-R08 …) or
of a core concept (過負荷, 運命介入, 無防備 …), with the engine's numbers: every ruleset option
whose description cites the id, at its value in force.

The texts come from ``rules_index/<system>.yaml`` (every R/G/T/H id of ANALYSIS.md, generated
from it, with the rules-text line reference); a concept names the ids that hold it.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from importlib import resources
from typing import Any

import yaml
from pydantic import BaseModel

ID_RE = re.compile(r"^[SGF]-[RGTH]\d\d$")
PREFIX = {"maai": "S", "sengensyou": "G", "fantasy": "F"}

#: core concepts named in the texts → the ids that hold them
CONCEPTS: dict[str, dict[str, tuple[str, ...]]] = {
    "maai": {
        "判定": ("S-R01", "S-R05", "S-R07"), "ゾロ目": ("S-R08", "S-R09", "S-R10", "S-R11"),
        "会心": ("S-R09", "S-R12"), "失着": ("S-R10", "S-R64"), "天命": ("S-R11", "S-G07"),
        "業報": ("S-R11", "S-G07"), "運命介入": ("S-R14", "S-R15", "S-R16", "S-G27", "S-G51"),
        "活力": ("S-R24", "S-R25", "S-G33"), "一呼吸": ("S-R27", "S-R28"), "呼吸": ("S-R27", "S-R28"),
        "過負荷": ("S-R28", "S-R29", "S-G32", "S-G52"), "最低消費": ("S-R30",), "間合": ("S-R33", "S-R34", "S-R35"),
        "カウント": ("S-R35", "S-G49"), "小康": ("S-R36", "S-G07"), "妖魔乱入": ("S-R36", "S-G07"),
        "予約": ("S-R37", "S-R38", "S-R39", "S-G35"), "即興": ("S-R40", "S-G34"),
        "防備": ("S-R44", "S-R48", "S-G42"), "貫通": ("S-R45",), "直撃": ("S-R46",), "霊体": ("S-R47", "S-G05"),
        "非実体": ("S-G05",), "破壊": ("S-R49", "S-G45"), "照準集中": ("S-R51", "S-G08"),
        "反撃": ("S-R56", "S-R57", "S-G38"), "強化奇襲": ("S-R55", "S-G17"),
        "構え": ("S-R58", "S-G16"), "戦力": ("S-R60", "S-G03"), "戦闘不能": ("S-R61",), "生死判定": ("S-R62",),
        "無防備": ("S-R64", "S-G41", "S-G60"), "連撃疲労": ("S-R66", "S-R67", "S-G46"),
        "心府": ("S-R32", "S-G12"), "突破": ("S-G13",), "分隊": ("S-R22", "S-G14"), "奇襲": ("S-R13", "S-G17"),
        "恐怖": ("S-G18",), "出血": ("S-G19",), "鉄砲": ("S-G20",), "装填": ("S-G20",),
    },
    "sengensyou": {
        "DP": ("G-R01", "G-R02", "G-R03", "G-G03"), "イニシアティブ": ("G-G04",), "待機": ("G-R06", "G-G26"),
        "防御専念": ("G-R07", "G-G25"), "移動": ("G-R08", "G-G11"), "逃走": ("G-R09", "G-G27"),
        "前衛": ("G-R10", "G-G28"), "後衛": ("G-R10", "G-G28"), "グレイズ": ("G-R11", "G-R12", "G-G18"),
        "弾幕": ("G-R18", "G-G06", "G-G07"), "ショット": ("G-R15",), "ホーミング": ("G-R16", "G-G12", "G-G13"),
        "近接攻撃": ("G-R17", "G-G15"), "回避": ("G-R19", "G-G09"), "ガード": ("G-R19", "G-G16"),
        "スペル": ("G-G22",), "スペルカード": ("G-R21", "G-G24"), "手加減": ("G-R22",), "不意打ち": ("G-R24", "G-G29"),
        "隠れている": ("G-R27",), "増援": ("G-R28",), "属性": ("G-G36",), "抵抗": ("G-G21",),
    },
    "fantasy": {
        "不意打ち": ("F-R01", "F-R02", "F-R03", "F-R04", "F-R05"), "狭い部屋": ("F-R07",), "通路": ("F-R08",),
        "崖": ("F-R09",), "麻痺": ("F-R10",), "睡眠": ("F-R11",), "伏せ": ("F-R12",), "暗闇": ("F-R13",),
        "視界不良": ("F-R14",), "朦朧": ("F-R15",), "水場": ("F-R16",), "水中": ("F-R17",), "呼吸": ("F-R18",),
        "自動失敗": ("F-G04",), "射線の確保": ("F-G13", "F-R09"), "全力移動": ("F-G13", "F-R16"),
    },
}


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()


@cache
def entries(system: str) -> dict[str, dict[str, str]]:
    """The id → {text, source} table of one system."""
    raw = resources.files("ikusa.systems").joinpath("rules_index", f"{system}.yaml").read_text("utf-8")
    data: dict[str, dict[str, str]] = yaml.safe_load(raw)
    return data


def option_citations(options: BaseModel, rule_id: str, prefix: str = "") -> list[str]:
    """``key = value: description`` of every option whose description cites ``rule_id``."""
    out: list[str] = []
    for name, f in type(options).model_fields.items():
        v: Any = getattr(options, name)
        key = f"{prefix}{f.alias or name}"
        if isinstance(v, BaseModel):
            out += option_citations(v, rule_id, key + ".")
        elif f.description and re.search(rf"\b{re.escape(rule_id)}\b", f.description):
            shown = str(v).lower() if isinstance(v, bool) else repr(v)
            out.append(f"{key} = {shown}: {f.description}")
    return out


def _default_options(system: str) -> BaseModel:
    if system == "maai":
        from ikusa.systems.maai.options import DEFAULT_OPTIONS

        return DEFAULT_OPTIONS
    if system == "sengensyou":
        from ikusa.systems.sengensyou.options import SengensyouOptions

        return SengensyouOptions()
    from ikusa.systems.fantasy.options import FantasyOptions

    return FantasyOptions()


def rule_lines(system: str, rule_id: str, options: BaseModel | None = None) -> list[str]:
    """The text of ``rule_id`` with its source lines and the options citing it."""
    e = entries(system)[rule_id]
    out = [f"{rule_id} ({e['source'] or 'ANALYSIS.md'}):"]
    out += ["  " + line for line in e["text"].splitlines() if line.strip()]
    cited = option_citations(options or _default_options(system), rule_id)
    if cited:
        out.append("  engine options (encounter key `options:`):")
        out += ["    " + c for c in cited]
    return out


def lookup(system: str, topic: str, options: BaseModel | None = None) -> list[str] | None:
    """Lines for an ANALYSIS id or a concept of ``system``; ``None`` when ``topic`` is neither."""
    key = _norm(topic)
    if ID_RE.match(key.upper()):
        rid = key.upper()
        if rid in entries(system):
            return rule_lines(system, rid, options)
        return None
    ids = CONCEPTS.get(system, {}).get(key)
    if ids is None:
        return None
    out = [f"{key}: {', '.join(ids)}"]
    for rid in ids:
        out += ["", *rule_lines(system, rid, options)]
    return out


def topics(system: str) -> list[str]:
    """The concepts, then every id."""
    return [*CONCEPTS.get(system, {}), *entries(system)]
