"""Debian's Chromium for the browser tests (tests/web, tests/web_offline): one way to start it."""

from __future__ import annotations

import os
from typing import Any

import pytest

CHROMIUM = os.environ.get("TUOLAJI_CHROMIUM", "/usr/bin/chromium")  # Debian's chromium (.ci/run installs it)
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


def launch_chromium(playwright_api: Any, *extra_args: str) -> Any:
    """Debian's Chromium under Playwright (its own browser downloads are not used); skipped when
    it is missing, a failure in CI (``TUOLAJI_REQUIRE_BROWSER``)."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("TUOLAJI_REQUIRE_BROWSER"):
            pytest.fail(f"no Chromium at {CHROMIUM}; .ci/run installs Debian's chromium")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    return playwright_api.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *extra_args])
