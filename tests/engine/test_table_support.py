"""Helpers for the table tests: reload a saved toy log the way ``load_log`` does."""

from __future__ import annotations

import json
from pathlib import Path

from ikusa.engine.combat import Combat
from ikusa.engine.encounter import split_document
from tests.engine.toy import ToyState


def reload(path: Path) -> Combat:
    data = json.loads(path.read_text("utf-8"))
    doc = split_document(dict(data["setup"]), str(path))
    c = Combat("toy", data["setup"], ToyState, doc.control)
    c.restore(data, source=str(path))
    return c
