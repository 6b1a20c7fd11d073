"""Start-up of whole processes: ``python -m bench.bench_startup [--rounds N]``.

Times, interleaved round by round (median and best of ``--rounds``):

* ``ikusa roll 2D6`` and ``ikusa roll --system maai 2D10+3>=11`` (the console script of
  this environment), beside the anchor **node + bcdice-js** rolling ``2D6`` with the
  plain DiceBot (issue #12, target 6: no slower than the anchor);
* ``ikusa odds maai 2D10+3>=11`` (rich tables) and ``--json`` (target 5: ≤ 100 ms);
* ``python -c pass`` (the interpreter's own floor);
* with ``--baseline``: issue #12's baseline (commit 8aba570, :mod:`bench.baseline`) running
  ``python -m ikusa.cli.main odds ...`` from its extracted tree, in the same rounds (what the
  console script did there: the typer app).

The anchor needs ``node`` and the npm package ``bcdice``: the bench installs it with
``npm install bcdice@4.9.0`` into ``$IKUSA_BCDICE_JS`` (default: a ``ikusa-bcdice-js``
folder in the temporary directory, outside the repository) on first use, and skips the
anchor with a message when node or npm is missing or the install fails.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BCDICE_VERSION = "4.9.0"
ANCHOR_JS = """\
const { DynamicLoader } = require('bcdice');
(async () => {
  const loader = new DynamicLoader();
  const GameSystem = await loader.dynamicLoad('DiceBot');
  const result = GameSystem.eval(process.argv[2]);
  console.log(result.text);
})();
"""


def anchor_dir() -> Path:
    return Path(os.environ.get("IKUSA_BCDICE_JS", Path(tempfile.gettempdir()) / "ikusa-bcdice-js"))


def prepare_anchor() -> list[str] | str:
    """The node command line of the anchor, or why it is skipped."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        return "node/npm not found"
    where = anchor_dir()
    script = where / "roll.js"
    if not (where / "node_modules" / "bcdice" / "package.json").exists():
        where.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--no-save", f"bcdice@{BCDICE_VERSION}"],
                              cwd=where, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            return f"npm install bcdice@{BCDICE_VERSION} failed: {proc.stderr.strip()[-200:]}"
    script.write_text(ANCHOR_JS, "utf-8")
    return [node, str(script)]


def ikusa_script() -> list[str]:
    exe = Path(sys.executable).with_name("ikusa")
    if exe.exists():
        return [str(exe)]
    return [sys.executable, "-m", "ikusa.cli.main"]  # pragma: no cover - not installed as a script


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a timed process: this one's, with byte-code caches written (a
    ``PYTHONDONTWRITEBYTECODE`` here would make every round compile every module again,
    which no installed ikusa does), plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, **(extra or {})}


def timed(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one whole process."""
    cpu = _children_cpu()
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, check=False, env=env or process_env())
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {proc.stderr.decode()[-300:]}")
    return seconds, _children_cpu() - cpu


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--before", metavar="IKUSA", help="another ikusa console script (e.g. today's main: "
                        "/work/main/.venv/bin/ikusa) timed in the same rounds")
    parser.add_argument("--baseline", action="store_true", help="also time issue #12's baseline (8aba570)")
    args = parser.parse_args(argv)
    ikusa = ikusa_script()
    envs: dict[str, dict[str, str]] = {}
    cases: dict[str, list[str]] = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "ikusa roll 2D6": [*ikusa, "roll", "2D6"],
        "ikusa roll --system maai 2D10+3>=11": [*ikusa, "roll", "--system", "maai", "2D10+3>=11"],
        "ikusa odds maai 2D10+3>=11": [*ikusa, "odds", "maai", "2D10+3>=11"],
        "ikusa odds maai 2D10+3>=11 --json": [*ikusa, "odds", "maai", "2D10+3>=11", "--json"],
    }
    if args.before:
        cases["before: ikusa roll 2D6"] = [args.before, "roll", "2D6"]
        cases["before: ikusa odds maai 2D10+3>=11"] = [args.before, "odds", "maai", "2D10+3>=11"]
        cases["before: ikusa odds maai 2D10+3>=11 --json"] = [args.before, "odds", "maai", "2D10+3>=11", "--json"]
    if args.baseline:
        from bench.baseline import BASELINE, checkout

        tree = checkout()
        env = process_env({"PYTHONPATH": str(tree)})
        base = [sys.executable, "-m", "ikusa.cli.main"]
        for words in (["roll", "2D6"], ["odds", "maai", "2D10+3>=11"], ["odds", "maai", "2D10+3>=11", "--json"]):
            name = f"baseline {BASELINE}: ikusa {' '.join(words)}"
            cases[name] = [*base, *words]
            envs[name] = env
    anchor = prepare_anchor()
    if isinstance(anchor, str):
        print(f"anchor node + bcdice-js skipped: {anchor}")
    else:
        cases["anchor: node + bcdice-js 2D6"] = [*anchor, "2D6"]
    for name, argv_ in cases.items():  # warm the file cache and the byte-code caches
        timed(argv_, envs.get(name))
    times: dict[str, list[float]] = {name: [] for name in cases}
    cpus: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.rounds):
        for name, argv_ in cases.items():
            wall, cpu = timed(argv_, envs.get(name))
            times[name].append(wall)
            cpus[name].append(cpu)
    print(f"whole process, {args.rounds} interleaved rounds: wall median / best, CPU (user+sys) median")
    for name, ts in times.items():
        print(f"  {name:<56} {statistics.median(ts) * 1000:7.1f} ms / {min(ts) * 1000:7.1f} ms   "
              f"CPU {statistics.median(cpus[name]) * 1000:7.1f} ms")
    odds_json = "ikusa odds maai 2D10+3>=11 --json"
    print(f"  {odds_json}: median {statistics.median(times[odds_json]) * 1000:.1f} ms wall (target 5: ≤ 100 ms)")
    if not isinstance(anchor, str):
        key = "anchor: node + bcdice-js 2D6"
        for what, table in (("wall", times), ("CPU", cpus)):
            a = statistics.median(table[key])
            for label in ("ikusa roll 2D6", odds_json, "ikusa odds maai 2D10+3>=11"):
                print(f"  {label} / anchor, {what}: {statistics.median(table[label]) / a:.2f}"
                      f"{' (target ≤ 1)' if label == 'ikusa roll 2D6' else ''}")


if __name__ == "__main__":
    main()
