"""Decision latencies in a mergeable log-bucket histogram (1 µs .. ~100 s, 2 % wide buckets)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

_RATIO = 1.02
_FLOOR = 1e-6
_BUCKETS = int(math.log(1e8) / math.log(_RATIO)) + 2


@dataclass
class Histogram:
    counts: dict[int, int] = field(default_factory=dict)
    n: int = 0
    max: float = 0.0  # seconds

    def add(self, seconds: float) -> None:
        b = 0 if seconds <= _FLOOR else min(_BUCKETS, int(math.log(seconds / _FLOOR) / math.log(_RATIO)) + 1)
        self.counts[b] = self.counts.get(b, 0) + 1
        self.n += 1
        if seconds > self.max:
            self.max = seconds

    def merge(self, other: Histogram) -> None:
        for b, c in other.counts.items():
            self.counts[b] = self.counts.get(b, 0) + c
        self.n += other.n
        self.max = max(self.max, other.max)

    def quantile(self, q: float) -> float:
        """Seconds at quantile ``q`` (the bucket's upper edge, capped at the true max)."""
        if not self.n:
            return 0.0
        rank = q * self.n
        seen = 0
        for b in sorted(self.counts):
            seen += self.counts[b]
            if seen >= rank:
                return min(self.max, _FLOOR * _RATIO**b)
        return self.max

    def summary_ms(self) -> dict[str, float]:
        return {
            "p50": round(self.quantile(0.5) * 1000, 3),
            "p95": round(self.quantile(0.95) * 1000, 3),
            "max": round(self.max * 1000, 3),
        }
