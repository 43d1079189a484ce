"""Fuzz the table server (issue 15): random and mutated WebSocket messages and HTTP bodies against
a live in-process server, with checks after each (see ``tuolaji.server.fuzz``).

    python benchmarks/fuzz_server.py                      # the full run: 100,000 messages
    python benchmarks/fuzz_server.py --messages 5000 --seed 7

Exit status 0 when the run found no crash, no 5xx, no traceback, no leak and no state change
from refused input; 1 otherwise (the first problems are printed).
"""

from __future__ import annotations

import argparse
import logging
import sys

from tuolaji.server.fuzz import Report, run


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--messages", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--db", default=":memory:", help="SQLite file for the server (default: in memory)")
    args = p.parse_args()
    logging.getLogger("uvicorn.error").setLevel(logging.ERROR)  # "Invalid HTTP request" is expected here

    shown = 0

    def show(r: Report) -> None:
        nonlocal shown
        print("  ..." + r.line(), flush=True)
        for line in r.problems[shown:]:
            print("    " + line, flush=True)
        shown = len(r.problems)

    report = run(messages=args.messages, seed=args.seed, db=args.db, progress=show)
    print(report.line())
    for line in report.problems[:20]:
        print("  " + line)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
