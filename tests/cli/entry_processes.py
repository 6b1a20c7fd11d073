"""Run the console script's fast path, or the typer app, as a whole process (tests of
``ikusa.cli.entry``): the fast paths must answer exactly as typer does."""

from __future__ import annotations

import subprocess
import sys

#: the console script (``ikusa.cli.entry:main``), the typer app, and the fast path printing
#: the modules it imported (as a JSON list on its last line)
SCRIPT = "import sys; from ikusa.cli.entry import main; sys.argv[0] = 'ikusa'; main()"
TYPER = "import sys; from ikusa.cli.main import app; sys.argv[0] = 'ikusa'; app()"
MODULES = ("import json, sys; from ikusa.cli.entry import main; sys.argv[0] = 'ikusa'; main(); "
           "print(json.dumps(sorted(sys.modules)))")


def run(code: str, *argv: str) -> tuple[int, str, str]:
    """``(exit code, stdout, stderr)`` of ``python -c code argv…``."""
    proc = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, check=False)
    return proc.returncode, proc.stdout, proc.stderr
