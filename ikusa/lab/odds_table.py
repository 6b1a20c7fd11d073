"""``ikusa lab odds``: exact odds of a dice command over a grid, as tables and heatmaps.

The command holds ``{NAME}`` slots filled from ``--grid NAME=…`` (``2D10+{mod}>={tn}``); every
cell is priced exactly by the system's own odds (``ikusa.odds``), never sampled.  A ``+-`` or
``--`` left by a negative value is folded (``+{mod}`` with ``mod=-2`` reads ``-2``).
"""

from __future__ import annotations

import csv
import io
import json
import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import ikusa
from ikusa.engine.errors import InputError
from ikusa.lab.sweep import Vary, grid

_SLOT = re.compile(r"\{([^{}]+)\}")


def fill(command: str, values: dict[str, Any]) -> str:
    """``2D10+{mod}>={tn}`` with ``mod=-2, tn=11`` → ``2D10-2>=11``."""
    text = _SLOT.sub(lambda m: str(values[m.group(1)]), command)
    return text.replace("+-", "-").replace("--", "+")


def odds_grid(system: str, command: str, grids: list[str], measure: str, out: Path,
              fate: int = 0, report: bool = True) -> dict[str, Any]:
    varies = [Vary.parse(g) for g in grids]
    if not 1 <= len(varies) <= 2:
        raise InputError("give one or two --grid NAME=… (a curve or a heatmap)", field="--grid")
    slots = set(_SLOT.findall(command))
    names = {v.key for v in varies}
    if slots != names:
        missing, extra = sorted(slots - names), sorted(names - slots)
        what = (f"no --grid for slot(s) {', '.join('{' + m + '}' for m in missing)}" if missing else
                f"--grid {', '.join(extra)} is not a slot of the command")
        raise InputError(f"{command!r}: {what}", field="--grid")
    cells: list[dict[str, Any]] = []
    for label in grid(varies):
        cmd = fill(command, label)
        figures = ikusa.odds(system, cmd, fate=fate).to_json()
        if measure not in figures or not isinstance(figures[measure], str):
            known = ", ".join(k for k, v in figures.items() if isinstance(v, str) and ("/" in v or v in ("0", "1")))
            raise InputError(f"{cmd!r} has no figure {measure!r}; known: {known}", field="--measure")
        p = Fraction(figures[measure])
        cells.append({"grid": label, "command": cmd, "exact": str(p), "value": float(p)})
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create the output directory: {exc.strerror or exc}", source=str(out)) from None
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([*(v.key for v in varies), "command", measure, f"{measure}_exact"])
    for c in cells:
        w.writerow([*(c["grid"][v.key] for v in varies), c["command"], f"{c['value']:.6f}", c["exact"]])
    (out / "results.csv").write_text(buf.getvalue(), "utf-8")
    doc = {"command": ["ikusa", *sys.argv[1:]], "ikusa_version": ikusa.__version__, "kind": "odds",
           "system": system, "template": command, "measure": measure, "fate": fate,
           "options": {"grid": {v.key: list(v.values) for v in varies}}, "cells": cells}
    (out / "results.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", "utf-8")
    if report:
        _report(out, doc, varies)
    return doc


def _report(out: Path, doc: dict[str, Any], varies: list[Vary]) -> None:
    from ikusa.lab.report import Page, _series

    page = Page(out, f"ikusa lab odds: {doc['system']} {doc['template']}")
    plt = page.plt
    cells, measure = doc["cells"], doc["measure"]
    if len(varies) == 2:
        v0, v1 = list(varies[0].values), list(varies[1].values)
        z = [[0.0] * len(v0) for _ in v1]
        for c in cells:
            z[v1.index(c["grid"][varies[1].key])][v0.index(c["grid"][varies[0].key])] = c["value"]
        fig, ax = plt.subplots(figsize=(1.5 + 0.8 * len(v0), 1.2 + 0.55 * len(v1)))
        ax.set_gid("axes-odds")
        im = ax.imshow(z, cmap="viridis", vmin=0, vmax=1, origin="lower", aspect="auto")
        im.set_gid("series-odds")
        for i in range(len(v1)):
            for j in range(len(v0)):
                ax.text(j, i, f"{z[i][j]:.2f}", ha="center", va="center", fontsize=7,
                        color="white" if z[i][j] < 0.5 else "black")
        ax.set_xticks(range(len(v0)), [str(v) for v in v0])
        ax.set_yticks(range(len(v1)), [str(v) for v in v1])
        ax.set_xlabel(varies[0].key)
        ax.set_ylabel(varies[1].key)
        fig.colorbar(im, ax=ax, label=measure)
    else:
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.set_gid("axes-odds")
        (line,) = ax.plot([str(c["grid"][varies[0].key]) for c in cells], [c["value"] for c in cells], marker="o")
        _series(line, "odds")
        ax.set_ylim(0, 1)
        ax.set_xlabel(varies[0].key)
        ax.set_ylabel(measure)
    ax.set_title(f"{doc['system']} {doc['template']}: {measure} (exact)")
    page.figure("odds", f"Exact {measure} of {doc['template']} over the grid.", fig)
    page.table("Exact odds", [*(v.key for v in varies), "command", measure, "exact"],
               [[*(c["grid"][v.key] for v in varies), c["command"], c["value"], c["exact"]] for c in cells])
    page.write(doc)
