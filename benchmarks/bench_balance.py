"""Balance sweep: in N heuristic rounds per preset, how often does the dealer's side keep the deal?

    python benchmarks/bench_balance.py [--rounds 500] [--seed 0] [--preset NAME ...]
    python benchmarks/bench_balance.py --players 5 6 7 8 [--rounds 200]   # find-a-friend tables

Prints per preset the rounds, the dealer's share (with a 95% interval), the attackers' big
swings (3+ levels) and the wall time. The test suite runs a smaller seeded slice
(tests/test_balance.py); see docs/settings.md for the band and why.
"""

from __future__ import annotations

import argparse
import math
import time

from tuolaji.ruleset import PRESETS, RuleSet
from tuolaji.sim.balance import measure

# find-a-friend tables of 5-8: the decks the create-game screen suggests (rules_panel.js DECKS_FOR)
DECKS_FOR = {4: 2, 5: 2, 6: 3, 7: 3, 8: 4}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--preset", nargs="*", default=sorted(PRESETS))
    parser.add_argument(
        "--two-deck-table",
        action="store_true",
        help="score every preset on the two-deck thresholds (the behaviour before scaling)",
    )
    parser.add_argument(
        "--players",
        type=int,
        nargs="*",
        default=None,
        help="instead of presets: bianfeng-friend at these table sizes (4-8), default friends and suggested decks",
    )
    args = parser.parse_args()
    tables: dict[str, RuleSet] = {}
    if args.players:
        base = PRESETS["bianfeng-friend"]
        for n in args.players:
            tables[f"friend-{n}p-{DECKS_FOR[n]}d"] = base.replace(players=n, decks=DECKS_FOR[n])
    else:
        tables = {name: PRESETS[name] for name in args.preset}
    print(f"{'preset':18} {'rounds':>6} {'dealer keeps':>13} {'95% interval':>14} {'big swings':>10} {'cpu s':>7}")
    for name, preset_rules in tables.items():
        start = time.process_time()
        rules = preset_rules.replace(scale_with_decks=False) if args.two_deck_table else preset_rules
        b = measure(rules, rounds=args.rounds, seed=args.seed)
        p = b.keep_share
        half = 1.96 * math.sqrt(p * (1 - p) / b.rounds)
        print(
            f"{name:18} {b.rounds:6d} {p:12.1%} {f'{p - half:.0%}-{p + half:.0%}':>14} "
            f"{b.big_swings():10d} {time.process_time() - start:7.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
