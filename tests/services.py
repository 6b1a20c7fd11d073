"""The system parts some tests need (scripts/test_services.sh installs and starts them).

Each helper returns what the test needs or skips it when it is missing on a developer's
machine; with ``CI=true`` a missing part fails the test instead (nothing may be skipped in CI).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def _missing(what: str, how: str) -> None:
    msg = f"{what} is not available ({how}); run the tests through scripts/test.sh"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true: {msg}", pytrace=False)
    pytest.skip(msg)


def postgres_url() -> str:
    """SQLAlchemy URL of the throw-away PostgreSQL cluster (``IKUSA_TEST_PG_URL``)."""
    url = os.environ.get("IKUSA_TEST_PG_URL", "")
    if not url:
        _missing("PostgreSQL", "IKUSA_TEST_PG_URL is not set")
    return url


def chromium_path() -> str:
    """Debian's chromium for Playwright (``IKUSA_CHROMIUM``, else /usr/bin/chromium)."""
    path = os.environ.get("IKUSA_CHROMIUM", "/usr/bin/chromium")
    if not Path(path).is_file():
        _missing("chromium", f"{path} does not exist")
    return path


def bcdice_test_data() -> Path:
    """BCDice 4.9.0's ``lib/bcdice/test_data.json`` fetched by ``npm pack`` (``IKUSA_BCDICE_TEST_DATA``)."""
    path = os.environ.get("IKUSA_BCDICE_TEST_DATA", "")
    if not path or not Path(path).is_file():
        _missing("BCDice's test data", "IKUSA_BCDICE_TEST_DATA does not name test_data.json")
    return Path(path)
