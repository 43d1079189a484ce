"""Where the event loop's pauses come from: garbage collections and loop lag, side by side.

A watcher task sleeps ``step`` seconds again and again; the lag is how much later than asked it
woke up (every table waited that long). Each sample also records the event-loop thread's own CPU
time over the step, and every garbage collection (``gc.callbacks``) is timed; so a stall reads
as *collecting* (a collection ran inside it), *busy* (the loop's thread was working: a long
callback) or *waiting* (the thread was not running: the machine's other processes, or another
thread holding the GIL). ``report()`` is what ``GET /api/stats`` shows and the load benchmark
prints.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections import deque
from typing import Any

STALL_S = 0.02  # a lag sample at least this long is a stall worth explaining


def _pcts(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    v = sorted(values)
    return {
        "p50": round(1000 * v[len(v) // 2], 2),
        "p99": round(1000 * v[min(len(v) - 1, int(len(v) * 0.99))], 2),
        "max": round(1000 * v[-1], 2),
    }


class PauseWatch:
    """Garbage collections and event-loop lag, timed on one clock (``time.perf_counter``)."""

    def __init__(self, *, keep: int = 20_000, step: float = 0.05) -> None:
        self.step = step
        # start, end, generation, in the saver's freeze, CPU seconds of the collecting thread
        self.collections: deque[tuple[float, float, int, bool, float]] = deque(maxlen=keep)
        self.lags: deque[tuple[float, float, float]] = deque(maxlen=keep)  # start, end, loop thread CPU s
        self.freezing = False  # set around the saver's explicit collect-and-freeze
        self._gc_start = self._gc_cpu = 0.0

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        if phase == "start":
            self._gc_start, self._gc_cpu = now, cpu
        else:
            self.collections.append((self._gc_start, now, int(info["generation"]), self.freezing, cpu - self._gc_cpu))

    def install(self) -> None:
        if self._on_gc not in gc.callbacks:
            gc.callbacks.append(self._on_gc)

    def uninstall(self) -> None:
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)

    async def watch(self) -> None:
        while True:
            t0, c0 = time.perf_counter(), time.thread_time()
            await asyncio.sleep(self.step)
            self.lags.append((t0, time.perf_counter(), time.thread_time() - c0))

    def report(self, *, clear: bool = True) -> dict[str, Any]:
        lags, cols = list(self.lags), list(self.collections)
        if clear:
            self.lags.clear()
            self.collections.clear()
        lag_s = [max(0.0, end - start - self.step) for start, end, _ in lags]
        by_gen: dict[str, Any] = {}
        for name, gen, frozen in (("gen0", 0, False), ("gen1", 1, False), ("gen2", 2, False), ("freeze", 2, True)):
            d = [end - start for start, end, g, f, _ in cols if g == gen and f == frozen]
            cpu_s = [c for _, _, g, f, c in cols if g == gen and f == frozen]
            if d:
                by_gen[name] = {
                    "count": len(d),
                    "total_ms": round(1000 * sum(d), 1),
                    **(_pcts(d) or {}),
                    "cpu_total_ms": round(1000 * sum(cpu_s), 1),
                    "cpu_max_ms": round(1000 * max(cpu_s), 2),
                }
        # each stall explained: GC time inside it, the loop thread's own CPU, and the rest (waiting)
        stalls = gc_ms = busy_ms = wait_ms = total_ms = 0.0
        worst: list[dict[str, float]] = []
        j = 0
        cols.sort()
        for (start, end, cpu), lag in zip(lags, lag_s, strict=True):
            while j < len(cols) and cols[j][1] < start:
                j += 1
            in_gc = sum(max(0.0, min(e, end) - max(s, start)) for s, e, _, _, _ in cols[j : j + 200] if s < end)
            if lag < STALL_S:
                continue
            stalls += 1
            span = end - start
            total_ms += 1000 * lag
            gc_part = min(in_gc, lag)
            busy = min(max(0.0, cpu - in_gc), lag - gc_part)
            gc_ms += 1000 * gc_part
            busy_ms += 1000 * busy
            wait_ms += 1000 * max(0.0, lag - gc_part - busy)
            worst.append(
                {
                    "lag_ms": round(1000 * lag, 1),
                    "gc_ms": round(1000 * in_gc, 1),
                    "cpu_ms": round(1000 * cpu, 1),
                    "span_ms": round(1000 * span, 1),
                }
            )
        worst.sort(key=lambda w: -w["lag_ms"])
        return {
            "loop_lag_ms": _pcts(lag_s),
            "gc": by_gen,
            "stalls": {
                "count": int(stalls),
                "threshold_ms": 1000 * STALL_S,
                "total_ms": round(total_ms, 1),
                "gc_ms": round(gc_ms, 1),
                "busy_ms": round(busy_ms, 1),
                "waiting_ms": round(wait_ms, 1),
                "worst": worst[:5],
            },
        }
