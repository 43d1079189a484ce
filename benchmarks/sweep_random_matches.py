"""The 1,000-match sweep: whole random matches through the checked engine, each re-checked from
the outside (the same player and checks as tests/test_matches.py, which runs a budgeted sample of
fresh seeds on every test run).

    python benchmarks/sweep_random_matches.py [--matches 1000] [--start 0] [--workers 1]

Prints matches per second (CPU), the rounds played, and every failing seed; exits 1 on a failure.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from playthrough import play_match  # noqa: E402
from test_matches import check_match  # noqa: E402


def one(seed: int) -> tuple[int, int, str | None]:
    """(seed, rounds, failure or None)."""
    try:
        match = play_match(seed)
        check_match(match)
    except Exception:
        return seed, 0, traceback.format_exc(limit=3)
    return seed, len(match.rounds), None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0, help="first seed")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    seeds = range(args.start, args.start + args.matches)
    t0, c0 = time.perf_counter(), time.process_time()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(one, seeds, chunksize=8))
    else:
        results = [one(s) for s in seeds]
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    failed = [(s, why) for s, _, why in results if why]
    rounds = sum(r for _, r, _ in results)
    print(
        f"{len(results)} matches (seeds {args.start}..{args.start + args.matches - 1}), {rounds} rounds, "
        f"{wall:.1f} s wall" + (f", {len(results) / cpu:.2f} matches/s CPU (this process)" if args.workers == 1 else "")
    )
    for seed, why in failed:
        print(f"FAILED seed {seed}:\n{why}")
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
