"""``results.csv`` and ``results.json``: every number per grid point.

The CSV is a pure function of the integer aggregates (floats printed with fixed digits), so it
is byte-identical however the battles were spread over workers.  The JSON holds the same
numbers plus the histograms, the exact command, the ikusa version, the options and the root
seed, and the timings (which naturally differ run to run).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ikusa.lab.aggregate import UNIT_FIELDS, Aggregate
from ikusa.lab.stats import wilson

RESOURCE_LABELS = {"vigor": "活力", "dp": "DP", "fate": "fate"}


def _f(x: float) -> str:
    return f"{x:.6f}"


def sides_of(aggs: list[Aggregate]) -> list[str]:
    """Every side that won somewhere or fielded a unit, in roster order, then ``draw``."""
    seen: dict[str, None] = {}
    for a in aggs:
        for uid in a.roster:
            seen.setdefault(a.roster[uid][0], None)
    for a in aggs:
        for w in sorted(a.wins):
            if w != "draw":
                seen.setdefault(w, None)
    return list(seen)


def units_of(aggs: list[Aggregate]) -> list[str]:
    seen: dict[str, None] = {}
    for a in aggs:
        for uid in a.roster:
            seen.setdefault(uid, None)
    return list(seen)


def point_row(agg: Aggregate, sides: list[str], units: list[str]) -> dict[str, Any]:
    """The flat figures of one grid point (the CSV columns)."""
    n = agg.battles
    row: dict[str, Any] = {"battles": n, "draws": agg.wins.get("draw", 0)}
    for side in [*sides, "draw"]:
        k = agg.wins.get(side, 0)
        lo, hi = wilson(k, n)
        row[f"win_rate[{side}]"] = _f(k / n if n else 0.0)
        row[f"win_low[{side}]"] = _f(lo)
        row[f"win_high[{side}]"] = _f(hi)
    row["length_mean"] = _f(agg.mean_length())
    for q, name in ((0.1, "p10"), (0.5, "p50"), (0.9, "p90")):
        row[f"length_{name}"] = agg.length_quantile(q)
    row["length_hist"] = " ".join(f"{k}:{agg.lengths[k]}" for k in sorted(agg.lengths))
    row["decisions_mean"] = _f(agg.decisions / n if n else 0.0)
    for uid in units:
        c: Mapping[str, int] = agg.units.get(uid) or {}
        per = {f: (c.get(f, 0) / n if n else 0.0) for f in UNIT_FIELDS}
        row[f"{uid}.dealt"] = _f(per["dealt"])
        row[f"{uid}.taken"] = _f(per["taken"])
        row[f"{uid}.survived"] = _f(per["survived"])
        row[f"{uid}.death_rate"] = _f(per["down"])
        for r in ("vigor", "dp", "fate"):
            row[f"{uid}.{r}_spent"] = _f(per[r])
    return row


def point_json(agg: Aggregate, sides: list[str]) -> dict[str, Any]:
    n = agg.battles
    out: dict[str, Any] = {
        "battles": n,
        "wins": {s: agg.wins.get(s, 0) for s in [*sides, "draw"]},
        "win_rate": {s: agg.wins.get(s, 0) / n if n else 0.0 for s in [*sides, "draw"]},
        "win_rate_95": {s: list(wilson(agg.wins.get(s, 0), n)) for s in [*sides, "draw"]},
        "length": {
            "mean": agg.mean_length(), "p10": agg.length_quantile(0.1), "p50": agg.length_quantile(0.5),
            "p90": agg.length_quantile(0.9), "histogram": {str(k): agg.lengths[k] for k in sorted(agg.lengths)},
        },
        "decisions_mean": agg.decisions / n if n else 0.0,
        "units": {},
    }
    for uid in sorted(agg.units, key=lambda u: list(agg.roster).index(u) if u in agg.roster else 1 << 30):
        c = agg.units[uid]
        side, name = agg.roster.get(uid, ("", uid))
        out["units"][uid] = {
            "name": name, "side": side,
            "damage_dealt": c["dealt"] / n if n else 0.0, "damage_taken": c["taken"] / n if n else 0.0,
            "survived": c["survived"] / n if n else 0.0, "death_rate": c["down"] / n if n else 0.0,
            "deaths": c["down"],
            "spent": {RESOURCE_LABELS[r]: c[r] / n if n else 0.0 for r in ("vigor", "dp", "fate")},
            "totals": {f: c[f] for f in sorted(c)},
        }
    return out


def csv_text(labels: list[dict[str, Any]], rows: list[dict[str, Any]]) -> str:
    """``labels[i]`` (the grid coordinates) and ``rows[i]`` (the figures) as CSV."""
    buf = io.StringIO()
    head = ["point", *labels[0].keys(), *rows[0].keys()] if rows else ["point"]
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(head)
    for i, (lab, row) in enumerate(zip(labels, rows, strict=True)):
        w.writerow([i, *(_cell(v) for v in lab.values()), *(_cell(v) for v in row.values())])
    return buf.getvalue()


def _cell(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return _f(v)
    if isinstance(v, str | int):
        return str(v)
    return json.dumps(v, ensure_ascii=False, sort_keys=True)


def write_results(out: Path, csv_body: str, doc: dict[str, Any]) -> None:
    (out / "results.csv").write_text(csv_body, "utf-8")
    (out / "results.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", "utf-8")
