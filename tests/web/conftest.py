"""Browser tests: Playwright (python) driving Debian's Chromium against a live table server.

Playwright's own browser downloads are not used: the tests launch ``/usr/bin/chromium`` (installed
by ``.ci/run`` with apt-get) and are skipped when it is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from table_page import WAIT_MS

from chromium import launch_chromium


@pytest.fixture(scope="session")
def browser(playwright_api: Any) -> Iterator[Any]:
    b = launch_chromium(playwright_api)
    yield b
    b.close()


@pytest.fixture()
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    ctx.set_default_timeout(WAIT_MS)
    yield ctx
    ctx.close()
