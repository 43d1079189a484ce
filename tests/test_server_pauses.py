"""The pause watch (issue 15, the 400-table tail): each stall of the event loop is told apart as a
garbage collection, the loop's own work, or waiting for the processor, and the live server shows
it in /api/stats for the load benchmark."""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

import httpx
import pytest

from aio import run_async

pytest.importorskip("starlette")

from tuolaji.server.pauses import PauseWatch  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402


class Node:
    __slots__ = ("next",)

    def __init__(self, nxt: Any) -> None:
        self.next = nxt


def _stall(kind: str) -> None:
    if kind == "collecting":
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 0.08:
            gc.collect()
    elif kind == "busy":
        t0 = time.thread_time()
        while time.thread_time() - t0 < 0.08:  # the loop's thread works (80 ms of its CPU time)
            pass
    else:
        time.sleep(0.08)  # the loop's thread does not run


async def _watched(kind: str) -> dict[str, Any]:
    watch = PauseWatch(step=0.01)
    watch.install()
    task = asyncio.get_running_loop().create_task(watch.watch())
    try:
        await asyncio.sleep(0.03)
        watch.report()  # forget the start
        _stall(kind)
        await asyncio.sleep(0.03)
        return watch.report()["stalls"]
    finally:
        task.cancel()
        watch.uninstall()


@pytest.mark.parametrize("kind", ["collecting", "busy", "waiting"])
def test_a_stall_is_told_apart_by_its_cause(kind: str) -> None:
    """(On a loaded machine any stall also waits for the processor, so only the stall's own
    cause is checked, and that the other causes are not made up.)"""
    chain: Any = None
    for _ in range(200_000):  # tracked objects: a full collection walks them all
        chain = Node(chain)
    stalls = run_async(_watched(kind))
    del chain
    assert stalls["count"] >= 1 and stalls["total_ms"] >= 60, stalls
    parts = {"collecting": stalls["gc_ms"], "busy": stalls["busy_ms"], "waiting": stalls["waiting_ms"]}
    assert parts[kind] >= 60, stalls
    assert all(v < 30 for k, v in parts.items() if k not in (kind, "waiting")), stalls


def test_the_server_reports_its_collections_and_stalls() -> None:
    # The saver's first collect-and-freeze comes after its second pass (about 2 s, later on a
    # loaded machine); each /api/stats answer reports what happened since the one before.
    seen: list[dict[str, Any]] = []
    with LiveServer(":memory:") as srv:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any("freeze" in s["gc"] for s in seen):
            time.sleep(0.5)
            seen.append(httpx.get(srv.url + "/api/stats").json())
    assert all(s["loop_lag_ms"]["p50"] >= 0 for s in seen if s["loop_lag_ms"])
    assert sum(s["gc"].get("freeze", {}).get("count", 0) for s in seen) >= 1, seen
    assert set(seen[-1]["stalls"]) >= {"count", "gc_ms", "busy_ms", "waiting_ms", "worst"}
