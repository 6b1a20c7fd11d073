#!/usr/bin/env bash
# Install the package with its test extras into .venv/ and run every check:
# ruff, mypy, then the whole pytest suite (exit 5, "no tests", counts as failure).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
.venv/bin/ruff check ikusa tests bench
.venv/bin/mypy
.venv/bin/python -m pytest
