"""The clock a search's time cap reads: this thread's CPU time.

A cap on wall-clock time ends searches early whenever the machine is busy (on a loaded
2-core machine a second of wall time buys a quarter second of work), so the same seed gives
different play and the step budget, meant to end every search, rarely does. CPU time of the
deciding thread counts only the search's own work. Where the platform has no per-thread CPU
clock (Pyodide runs single-threaded in a page or worker), wall-clock time is the same thing.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable


def _pick() -> Callable[[], float]:
    if sys.platform == "emscripten":
        return time.perf_counter
    try:
        time.thread_time()
    except (AttributeError, OSError):  # pragma: no cover - platforms without a per-thread CPU clock
        return time.perf_counter
    return time.thread_time


clock: Callable[[], float] = _pick()  # seconds; only differences mean anything

__all__ = ["clock"]
