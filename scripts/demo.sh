#!/usr/bin/env bash
# Install ikusa into .venv/ and run the main job: the narrated demo.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e .
.venv/bin/ikusa demo
