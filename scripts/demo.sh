#!/usr/bin/env bash
# Install ikusa into .venv/ and run the main job: the narrated dice/odds demo, then a
# narrated maai battle (the §3.4 count example of text 000, played to its end).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e .
.venv/bin/ikusa demo
echo
echo "── ikusa fight examples/maai/count_example.yaml --seed 1 ──"
.venv/bin/ikusa fight examples/maai/count_example.yaml --seed 1
