"""Run a coroutine to completion from a plain test."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """asyncio.run, also in a process whose browser tests already ran: Playwright's sync API leaves
    its event loop marked as running in the main thread, where asyncio.run refuses to start, so the
    coroutine then gets a thread of its own."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()
