"""The baseline of issue #12 beside the current code, in the same run.

Issue #12 measures every speed target against ``BASELINE`` (commit ``8aba570``, main when the
issue was filed).  The benches print the baseline's figure beside today's, interleaved round by
round, median of the rounds (the machine is shared; interleaving spreads a disturbance over
both sides).  This module gives them:

* :func:`checkout` — the baseline's source tree, extracted once with
  ``git archive <commit> | tar -x`` into ``~/.cache/ikusa/baseline-<commit>`` (``$IKUSA_BASELINE_CACHE``
  overrides the parent folder); later runs reuse it;
* :func:`current_tree` — this checkout's root;
* :func:`run_python` — ``python -c CODE ARGS...`` in a subprocess whose ``import ikusa`` and
  ``import bench`` come from the given tree (``PYTHONPATH=<tree>``, ``cwd=<tree>``), returning stdout;
* :func:`interleaved` — run named cases round by round, collecting one figure per case per round;
* :func:`summary` — one line per case: median and best, and the ratio to a named anchor case.

Both sides run the same driver code in a subprocess each, so neither gets a warm process or a
different interpreter state.  The driver imports the tree's own ``bench`` module (the baseline
has ``bench/bench_maai_duels.py``, ``bench/bench_sengensyou.py`` and ``bench/bench_fantasy.py``).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

BASELINE = "8aba570"
"""The commit issue #12 measures against (main when the issue was filed)."""


def current_tree() -> Path:
    """The root of this checkout (the folder holding ``ikusa/`` and ``bench/``)."""
    return Path(__file__).resolve().parent.parent


def cache_root() -> Path:
    return Path(os.environ.get("IKUSA_BASELINE_CACHE", Path.home() / ".cache" / "ikusa"))


def checkout(commit: str = BASELINE, repo: Path | None = None) -> Path:
    """The source tree of ``commit``, extracted once into the cache and reused afterwards.

    Extraction goes to a temporary folder beside the target and is renamed into place, so two
    benches starting at once never see a half-extracted tree.
    """
    repo = repo or current_tree()
    target = cache_root() / f"baseline-{commit}"
    if (target / "ikusa" / "__init__.py").exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".baseline-{commit}-", dir=target.parent))
    try:
        archive = subprocess.Popen(["git", "-C", str(repo), "archive", commit], stdout=subprocess.PIPE)
        assert archive.stdout is not None
        tar = subprocess.run(["tar", "-x", "-C", str(tmp)], stdin=archive.stdout, check=False)
        archive.stdout.close()
        if archive.wait() != 0 or tar.returncode != 0:
            raise SystemExit(f"cannot extract the baseline {commit} from {repo} (git archive | tar failed)")
        try:
            tmp.rename(target)
        except OSError:  # another bench won the race: its tree is as good as ours
            if not (target / "ikusa" / "__init__.py").exists():
                raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def run_python(tree: Path, code: str, args: Sequence[str] = ()) -> str:
    """Stdout of ``python -c code args...`` importing ``ikusa`` and ``bench`` from ``tree``.

    ``PYTHONPATH=<tree>`` comes before the site-packages (and before an editable install of this
    checkout), and ``cwd=<tree>`` makes the relative example paths of the tree's benches resolve
    to the tree's own examples.  A failing run stops the bench with its stderr.
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree)
    env.pop("PYTHONSTARTUP", None)
    proc = subprocess.run([sys.executable, "-c", code, *args], cwd=tree, env=env,
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"bench subprocess in {tree} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return proc.stdout


def interleaved(rounds: int, cases: Mapping[str, Callable[[], float]]) -> dict[str, list[float]]:
    """Call every case once per round, in order, ``rounds`` times; the figures per case."""
    figures: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(rounds):
        for name, case in cases.items():
            figures[name].append(case())
    return figures


def summary(figures: Mapping[str, Sequence[float]], unit: str, anchor: str | None = None,
            higher_is_better: bool = True) -> list[str]:
    """One line per case: median and best of its rounds, and its median over the anchor's."""
    best = max if higher_is_better else min
    width = max(len(name) for name in figures)
    base = statistics.median(figures[anchor]) if anchor is not None else None
    lines = []
    for name, values in figures.items():
        med = statistics.median(values)
        line = f"  {name:<{width}}  median {med:>12,.1f} {unit}  best {best(values):>12,.1f} {unit}"
        if base is not None and name != anchor and base > 0:
            line += f"  x{med / base:.2f} vs {anchor}"
        lines.append(line)
    return lines
