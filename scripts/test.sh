#!/usr/bin/env bash
# Install the package with its test extras into .venv/, install and start the system parts
# the tests need (Chromium, fonts, PostgreSQL, BCDice's test data: scripts/test_services.sh),
# and run every check: ruff, mypy, then the whole pytest suite (exit 5, "no tests", fails).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test,lab]'
# the build compiles the maai engine's hot modules with mypyc, or falls back to pure Python (setup.py)
.venv/bin/python -c "from ikusa.engine import compiled; print('ikusa:', compiled.describe())"
source scripts/test_services.sh
.venv/bin/ruff check ikusa tests bench
.venv/bin/mypy
.venv/bin/python -m pytest "$@"
