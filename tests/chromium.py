"""Debian's Chromium for the browser tests (tests/web, tests/web_offline): one way to start it."""

from __future__ import annotations

import os
from typing import Any

import pytest

CHROMIUM = os.environ.get("TUOLAJI_CHROMIUM", "/usr/bin/chromium")  # Debian's chromium (.ci/run installs it)
PATIENT_MS = 90_000  # every browser context's default wait (tests/web/table_page.py WAIT_MS)
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
    browser = playwright_api.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *extra_args])
    new_context = browser.new_context

    def patient_context(*args: Any, **kwargs: Any) -> Any:
        # Playwright's 30 s default bounds every click and wait; a loaded 2-core machine (the
        # whole suite, two workers) can stall a page longer. A wait ends as soon as the page
        # shows what it waits for, so this only bounds a failure.
        ctx = new_context(*args, **kwargs)
        ctx.set_default_timeout(PATIENT_MS)
        return ctx

    browser.new_context = patient_context
    return browser
