"""``report.html``: one self-contained page of plots (matplotlib, Agg) with inline SVG, the
same plots as PNG files beside it, and the numbers as tables.

Every series carries an SVG id ``series-…`` inside its axes ``axes-<plot>`` so a program (and
the tests) can find them in the page.  Japanese labels use an installed CJK font when there is
one (IPAGothic, Noto Sans CJK JP …), falling back to DejaVu Sans.
"""

from __future__ import annotations

import html
import io
import json
from pathlib import Path
from typing import Any

#: at most this many grid points get a curve of their own in the length plots
MAX_CURVES = 8
_FONTS = ["IPAGothic", "IPAPGothic", "IPAexGothic", "Noto Sans CJK JP", "TakaoGothic", "DejaVu Sans"]


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    have = {f.name for f in font_manager.fontManager.ttflist}
    if not have.intersection(_FONTS[:-1]):
        # matplotlib's font list is cached on first use: a CJK font installed since then (the
        # test command installs IPAGothic) is not in it, and labels would lose their kana/kanji
        for path in font_manager.findSystemFonts():
            if "ipa" in path.lower() or "cjk" in path.lower() or "takao" in path.lower():
                font_manager.fontManager.addfont(path)
        have = {f.name for f in font_manager.fontManager.ttflist}
    plt.rcParams.update({
        "font.family": [f for f in _FONTS if f in have] or ["DejaVu Sans"],
        "svg.hashsalt": "ikusa-lab", "svg.fonttype": "path", "axes.unicode_minus": False,
        "figure.dpi": 100,
    })
    return plt


class Page:
    """The figures of one report, written as PNG files and inline SVG."""

    def __init__(self, out: Path, title: str) -> None:
        self.out = out
        self.title = title
        self.sections: list[str] = []
        self.pngs: list[str] = []
        self.plt = _plt()

    def figure(self, name: str, caption: str, fig: Any) -> None:
        png = self.out / f"{name}.png"
        fig.savefig(png, format="png", bbox_inches="tight", metadata={"Software": None})
        buf = io.StringIO()
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
        self.plt.close(fig)
        svg = buf.getvalue()
        svg = svg[svg.index("<svg"):]
        self.pngs.append(png.name)
        self.sections.append(f'<figure id="plot-{name}">{svg}<figcaption>{html.escape(caption)} '
                             f'(<a href="{png.name}">PNG</a>)</figcaption></figure>')

    def table(self, caption: str, head: list[str], rows: list[list[Any]]) -> None:
        th = "".join(f"<th>{html.escape(str(h))}</th>" for h in head)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(_fmt(c))}</td>" for c in r) + "</tr>" for r in rows)
        self.sections.append(f"<table><caption>{html.escape(caption)}</caption><tr>{th}</tr>{body}</table>")

    def text(self, line: str) -> None:
        self.sections.append(f"<p>{html.escape(line)}</p>")

    def write(self, doc: dict[str, Any]) -> Path:
        meta = json.dumps({k: doc.get(k) for k in ("command", "ikusa_version", "root_seed", "options")},
                          ensure_ascii=False, indent=1)
        page = (
            "<!DOCTYPE html><html lang=\"ja\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(self.title)}</title><style>body{{font-family:sans-serif;max-width:1100px;"
            "margin:auto}figure{margin:1em 0}svg{max-width:100%;height:auto}table{border-collapse:collapse;"
            "margin:1em 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
            "pre{background:#f6f6f6;padding:6px;overflow:auto}</style></head><body>"
            f"<h1>{html.escape(self.title)}</h1>{''.join(self.sections)}"
            f"<h2>Run</h2><pre>{html.escape(meta)}</pre></body></html>\n"
        )
        path = self.out / "report.html"
        path.write_text(page, "utf-8")
        return path


def _fmt(c: Any) -> str:
    if isinstance(c, float):
        return f"{c:.3f}"
    return str(c)


def _series(artist: Any, name: str) -> None:
    """Give a plotted series (a line, an errorbar container, a bar container) an SVG id."""
    patches = getattr(artist, "patches", None)
    if patches is not None:  # a bar container: every bar
        for i, p in enumerate(patches):
            p.set_gid(f"series-{name}-{i}")
        return
    if isinstance(artist, tuple):  # an errorbar container: its data line
        artist[0].set_gid(f"series-{name}")
        return
    artist.set_gid(f"series-{name}")


def _label(point: dict[str, Any]) -> str:
    if "variant" in point:
        return str(point["variant"])
    vary = point.get("vary") or {}
    return ", ".join(f"{_short(k, list(vary))}={v}" for k, v in vary.items()) or "all"


def _short(key: str, keys: list[str]) -> str:
    """The last part of a key (``units.0.abilities.技`` → ``技``), longer where that is ambiguous
    (``0.技`` and ``1.技``)."""
    parts = key.split(".")
    for n in range(1, len(parts) + 1):
        tail = ".".join(parts[-n:])
        if sum(1 for k in keys if k.split(".")[-n:] == parts[-n:]) == 1:
            return tail if n == 1 else f"{parts[-n]}.{parts[-1]}" if n > 2 else tail
    return key


def _length_plots(page: Page, points: list[dict[str, Any]], unit: str) -> None:
    plt = page.plt
    shown = points if len(points) <= MAX_CURVES else [points[round(i * (len(points) - 1) / (MAX_CURVES - 1))]
                                                        for i in range(MAX_CURVES)]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.set_gid("axes-survival")
    for i, p in enumerate(shown):
        hist = {int(k): v for k, v in p["length"]["histogram"].items()}
        n = p["battles"] or 1
        xs, ys, left = [0], [1.0], n
        for k in sorted(hist):
            left -= hist[k]
            xs.append(k)
            ys.append(left / n)
        (line,) = ax.step(xs, ys, where="post", label=_label(p))
        _series(line, str(i))
    ax.set_xlabel(f"battle length ({unit})")
    ax.set_ylabel("share of battles still going")
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize=8)
    ax.set_title("survival curve of battle length")
    page.figure("survival", "Survival curves: the share of battles lasting longer than each length.", fig)

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.set_gid("axes-lengths")
    for i, p in enumerate(shown):
        hist = {int(k): v for k, v in p["length"]["histogram"].items()}
        n = p["battles"] or 1
        ks = list(range(min(hist, default=0), max(hist, default=0) + 2))
        (line,) = ax.step(ks, [hist.get(k, 0) / n for k in ks], where="mid", label=_label(p))
        _series(line, str(i))
    ax.set_xlabel(f"battle length ({unit})")
    ax.set_ylabel("share of battles")
    ax.legend(fontsize=8)
    ax.set_title("histogram of battle length")
    page.figure("lengths", "Histogram of battle length.", fig)


def _unit_plot(page: Page, points: list[dict[str, Any]]) -> None:
    plt = page.plt
    shown = points[:MAX_CURVES]
    units = list(dict.fromkeys(u for p in shown for u in p["units"]))
    if not units:
        return
    names = [shown[0]["units"].get(u, {}).get("name", u) for u in units]
    fig, axes = plt.subplots(1, 3, figsize=(12, 4))
    width = 0.8 / max(1, len(shown))
    for ax, (key, title) in zip(axes, (("damage_dealt", "damage dealt / battle"),
                                       ("damage_taken", "damage taken / battle"),
                                       ("death_rate", "death rate")), strict=True):
        ax.set_gid(f"axes-units-{key}")
        for i, p in enumerate(shown):
            xs = [j + (i - (len(shown) - 1) / 2) * width for j in range(len(units))]
            bars = ax.bar(xs, [p["units"].get(u, {}).get(key, 0.0) for u in units], width, label=_label(p))
            _series(bars, f"{key}-{i}")
        ax.set_xticks(range(len(units)), names, rotation=30, ha="right", fontsize=8)
        ax.set_title(title)
        if key == "death_rate":
            ax.set_ylim(0, 1)
    handles, labels = axes[0].get_legend_handles_labels()  # below the panels: it hid bars inside one
    rows = -(-len(labels) // 3)
    fig.legend(handles, labels, loc="lower center", ncol=min(3, len(labels)), fontsize=7)
    fig.tight_layout(rect=(0, 0.05 * rows, 1, 1))
    page.figure("units", "Per unit: damage dealt and taken per battle, and how often it ended down.", fig)


def _unit_table(page: Page, points: list[dict[str, Any]]) -> None:
    rows = []
    for p in points:
        for u in p["units"].values():
            rows.append([_label(p), u["name"], u["side"], u["damage_dealt"], u["damage_taken"], u["survived"],
                         u["death_rate"], u["spent"]["活力"], u["spent"]["DP"], u["spent"]["fate"]])
    page.table("Per unit (means per battle)", ["point", "unit", "side", "dealt", "taken", "survived",
                                               "death rate", "活力 spent", "DP spent", "fate spent"], rows)


def sweep_report(out: Path, doc: dict[str, Any]) -> Path:
    """The sweep's plots: win rate against the parameter, heatmap (two --vary), survival and
    length histogram, per-unit bars."""
    plt_page = Page(out, f"ikusa lab sweep: {doc['encounter']}")
    plt = plt_page.plt
    points, sides = doc["points"], doc["sides"]
    keys = list(doc["options"]["vary"])
    focus = sides[0] if sides else "draw"
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.set_gid("axes-winrate")
    if keys:
        k0 = keys[0]
        xs_vals = list(doc["options"]["vary"][k0])
        numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in xs_vals)
        xpos = {json.dumps(v): (v if numeric else i) for i, v in enumerate(xs_vals)}
        groups: dict[str, list[dict[str, Any]]] = {}
        for p in points:
            rest = ", ".join(f"{_short(k, keys)}={p['vary'][k]}" for k in keys[1:])
            groups.setdefault(rest, []).append(p)
        series = [(f"{s}" + (f" ({g})" if g else ""), s, ps) for g, ps in groups.items()
                  for s in (sides if len(groups) == 1 else [focus])]
        for i, (name, side, ps) in enumerate(series):
            x = [xpos[json.dumps(p["vary"][k0])] for p in ps]
            y = [p["win_rate"][side] for p in ps]
            lo = [y[j] - ps[j]["win_rate_95"][side][0] for j in range(len(ps))]
            hi = [ps[j]["win_rate_95"][side][1] - y[j] for j in range(len(ps))]
            eb = ax.errorbar(x, y, yerr=[lo, hi], marker="o", capsize=3, label=f"{name} wins")
            _series(eb, str(i))
        if not numeric or all(isinstance(v, int) for v in xs_vals):
            ax.set_xticks(list(xpos.values()), [str(v) for v in xs_vals])
        ax.set_xlabel(k0)
    else:
        for i, s in enumerate(sides):
            p = points[0]
            y = p["win_rate"][s]
            eb = ax.errorbar([i], [y], yerr=[[y - p["win_rate_95"][s][0]], [p["win_rate_95"][s][1] - y]],
                             marker="o", capsize=3, label=s)
            _series(eb, str(i))
        ax.set_xticks(range(len(sides)), sides)
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95 % Wilson interval)")
    ax.legend(fontsize=8)
    ax.set_title("win rate against the parameter")
    plt_page.figure("winrate", "Win rate per grid point with 95 % Wilson intervals; the dashed line is 0.5.", fig)

    if len(keys) >= 2:
        from matplotlib.colors import TwoSlopeNorm

        k0, k1 = keys[0], keys[1]
        v0, v1 = list(doc["options"]["vary"][k0]), list(doc["options"]["vary"][k1])
        grid = [[float("nan")] * len(v0) for _ in v1]
        for p in points:
            i, j = v1.index(p["vary"][k1]), v0.index(p["vary"][k0])
            grid[i][j] = p["win_rate"][focus]
        fig, ax = plt.subplots(figsize=(1.2 + 0.9 * len(v0), 1.2 + 0.7 * len(v1)))
        ax.set_gid("axes-heatmap")
        im = ax.imshow(grid, cmap="RdBu", norm=TwoSlopeNorm(0.5, 0.0, 1.0), origin="lower", aspect="auto")
        im.set_gid("series-heatmap")
        for i in range(len(v1)):
            for j in range(len(v0)):
                ax.text(j, i, f"{grid[i][j]:.2f}", ha="center", va="center", fontsize=8)
        ax.set_xticks(range(len(v0)), [str(v) for v in v0])
        ax.set_yticks(range(len(v1)), [str(v) for v in v1])
        ax.set_xlabel(k0)
        ax.set_ylabel(k1)
        fig.colorbar(im, ax=ax, label=f"{focus} win rate")
        ax.set_title(f"{focus} win rate")
        plt_page.figure("heatmap", f"{focus}'s win rate over the two varied keys (blue above 0.5, red below).", fig)

    _length_plots(plt_page, points, doc["length_unit"])
    _unit_plot(plt_page, points)
    rows = [[_label(p), p["battles"], *[p["win_rate"][s] for s in sides], p["length"]["mean"], p["length"]["p10"],
             p["length"]["p50"], p["length"]["p90"]] for p in points]
    plt_page.table("Grid points", ["point", "battles", *[f"{s} wins" for s in sides], "length mean", "p10", "p50",
                                   "p90"], rows)
    _unit_table(plt_page, points)
    return plt_page.write(doc)


def compare_report(out: Path, doc: dict[str, Any]) -> Path:
    """The comparison's plots: win rates A and B, the paired difference, the SPRT trace,
    survival and length histograms, per-unit bars."""
    page = Page(out, "ikusa lab compare")
    plt = page.plt
    c, points, sides = doc["comparison"], doc["points"], doc["sides"]
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    ax.set_gid("axes-winrate")
    for i, p in enumerate(points):
        xs = [j + (i - 0.5) * 0.38 for j in range(len(sides))]
        y = [p["win_rate"][s] for s in sides]
        err = [[y[j] - p["win_rate_95"][s][0] for j, s in enumerate(sides)],
               [p["win_rate_95"][s][1] - y[j] for j, s in enumerate(sides)]]
        bars = ax.bar(xs, y, 0.38, yerr=err, capsize=3, label=p["variant"])
        _series(bars, f"winrate-{p['variant']}")
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_xticks(range(len(sides)), sides)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95 % Wilson)")
    ax.legend()
    ax.set_title("win rates")
    ax2.set_gid("axes-difference")
    lo, hi = c["difference_95"]
    eb = ax2.errorbar([0], [c["difference"]], yerr=[[c["difference"] - lo], [hi - c["difference"]]], marker="o",
                      capsize=5)
    _series(eb, "difference")
    ax2.axhline(0.0, color="grey", linestyle="--", linewidth=1)
    ax2.set_xticks([0], [f"{c['focus']} B − A"])
    red = c["variance_reduction"]
    ax2.set_title("paired difference" + (f" (variance ÷{red:.1f})" if red else ""))
    fig.tight_layout()
    page.figure("winrate", "Win rates of A and B, and the paired difference B − A with its 95 % interval.", fig)

    if "sprt" in c:
        t = c["sprt"]
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.set_gid("axes-sprt")
        xs = [0] + [n for n, _ in t["trace"]]
        (line,) = ax.plot(xs, [0.0] + [v for _, v in t["trace"]], marker=".", label="log-likelihood ratio")
        _series(line, "llr")
        ax.axhline(t["upper"], color="tab:green", linestyle="--", label=f"accept H1 (p={t['p1']})")
        ax.axhline(t["lower"], color="tab:red", linestyle="--", label=f"accept H0 (p={t['p0']})")
        ax.set_xlabel("differing pairs")
        ax.legend(fontsize=8)
        ax.set_title(f"SPRT: {t['decision'] or 'undecided'}")
        page.figure("sprt", "SPRT trace: the log-likelihood ratio after every batch, with Wald's bounds.", fig)
    _length_plots(page, points, doc.get("length_unit", "rounds"))
    _unit_plot(page, points)
    page.table("Paired difference", ["focus", "pairs", "A wins", "B wins", "B − A", "95 % low", "95 % high",
                                     "variance ÷", "B better", "A better"],
               [[c["focus"], c["pairs"], c["win_rate_a"], c["win_rate_b"], c["difference"], lo, hi,
                 red if red else "", c["b_better"], c["a_better"]]])
    _unit_table(page, points)
    return page.write(doc)
