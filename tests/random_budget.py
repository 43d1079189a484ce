"""Long random runs on a budget: fresh seeds every run, each failure names its seed.

A run plays seeds ``base, base + 1, …`` until ``budget`` seconds have passed (at least
``minimum`` seeds). The budget is wall time, so that a loaded machine plays fewer games instead
of taking ten times longer (a CPU-time budget took 270 s of wall time per test with eight suites
on two cores). ``base`` is new each run (printed, and named by any failure), so the runs
together cover far more games than any one could; ``TUOLAJI_SEED=N`` replays from a given base
and ``TUOLAJI_BUDGET=S`` changes the budget (seconds per test). The 1,000-match sweep lives in
``benchmarks/sweep_random_matches.py``.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable


def seed_base() -> int:
    given = os.environ.get("TUOLAJI_SEED")
    return int(given) if given else random.SystemRandom().randrange(2**31)


def budget(default: float) -> float:
    return float(os.environ.get("TUOLAJI_BUDGET", default))


def run_seeds(name: str, play: Callable[[int], object], *, seconds: float, minimum: int = 2) -> int:
    """Call ``play(seed)`` on fresh seeds for ``seconds``; return how many ran."""
    base = seed_base()
    print(f"{name}: seeds from {base} (replay with TUOLAJI_SEED={base})")
    start = time.monotonic()
    n = 0
    while n < minimum or time.monotonic() - start < seconds:
        seed = base + n
        try:
            play(seed)
        except Exception as exc:
            raise AssertionError(f"{name} failed at seed {seed}: replay with TUOLAJI_SEED={seed}") from exc
        n += 1
    print(f"{name}: {n} seeds in {time.monotonic() - start:.1f} s")
    return n
