"""Browser tests: Playwright (python) driving Debian's Chromium against a live table server.

Playwright's own browser downloads are not used: the tests launch ``/usr/bin/chromium`` (installed
by ``.ci/run`` with apt-get) and are skipped when it is missing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from table_page import WAIT_MS

CHROMIUM = os.environ.get("TUOLAJI_CHROMIUM", "/usr/bin/chromium")  # Debian's chromium (.ci/run installs it)
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def browser(playwright_api: Any) -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("TUOLAJI_REQUIRE_BROWSER"):  # CI: a missing browser is a failure, not a skip
            pytest.fail(f"no Chromium at {CHROMIUM}; .ci/run installs Debian's chromium")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    b = playwright_api.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield b
    b.close()


@pytest.fixture()
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    ctx.set_default_timeout(WAIT_MS)
    yield ctx
    ctx.close()
