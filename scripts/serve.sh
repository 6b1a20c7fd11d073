#!/usr/bin/env bash
# README command 1: install ikusa (with the balance lab's extra) into .venv/ and run the main
# job, the web table: `ikusa serve` on SQLite (./ikusa.db) with an example table ready; its
# GM, player and spectator links are printed.  Extra arguments go to `ikusa serve`
# (e.g. --port 8080, --example sengensyou/spellcard_duel).  Ctrl-C stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[lab]'
exec .venv/bin/ikusa serve "$@"
