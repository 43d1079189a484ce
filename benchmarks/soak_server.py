"""Soak the table server: N tables played for a long time at fast speed, the server's memory
sampled as it goes (issue 15: memory stays flat under the ``gc.freeze()`` policy).

Each table has one WebSocket player (a quick human, as in bench_load.py) and three computer
players at "fast" speed; rounds follow rounds, and when a match ends its player leaves and opens
a new room (the finished one is let go of once nobody has watched it for a minute, the server's
``finished_room_s``), so matches follow matches.
``--target-level 5`` makes matches short (a side reaching 5 wins), so that a run of minutes sees
many rooms come and go.

    python benchmarks/soak_server.py                          # 200 tables for an hour
    python benchmarks/soak_server.py --tables 200 --minutes 10 --every 30

It prints the server's resident memory at each sample, then the growth over the second half of
the run (after the first games filled the caches), in MB per 10 minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_load import main_async  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--minutes", type=float, default=60.0)
    p.add_argument("--every", type=float, default=60.0, help="seconds between memory samples")
    p.add_argument("--speed", default="fast", choices=["normal", "fast", "instant"])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--target-level",
        default=None,
        help="short matches: each ends when a side reaches this level (e.g. 5), so rooms end and are evicted within the run",
    )
    p.add_argument("--idle-room-s", type=float, default=600.0, help="the server's idle_room_s limit (eviction)")
    a = p.parse_args()
    args = argparse.Namespace(
        tables=a.tables,
        clients=1,
        think=0.5,
        duration=a.minutes * 60,
        warmup=10.0,
        speed=a.speed,
        difficulty="easy",
        url=None,
        src=None,
        renew=True,
        target_level=a.target_level,
        limits={"idle_room_s": a.idle_room_s},
        seed=a.seed,
        json=False,
        rss_every=a.every,
    )
    r = asyncio.run(main_async(args))
    rss = r["server_rss_mb"] or []
    half = [x for x in rss if x[0] >= rss[-1][0] / 2] if rss else []
    growth = (half[-1][1] - half[0][1]) / max(1e-9, half[-1][0] - half[0][0]) * 600 if len(half) > 1 else float("nan")
    lat = r["latency_ms"]
    print(
        f"soak: {a.tables} tables at {a.speed} speed for {r['duration_s']} s; client actions {r['client_actions']}, "
        f"server actions/s {r['server_actions_per_s']}; matches ended {r['matches_ended']}; p99 {lat['p99']} ms; "
        f"errors {r['errors']}"
    )
    print(
        f"server RSS MB: start {rss[0][1] if rss else '?'}, half-way {half[0][1] if half else '?'}, "
        f"end {rss[-1][1] if rss else '?'}; growth over the second half {growth:.1f} MB per 10 minutes"
    )


if __name__ == "__main__":
    main()
