"""Bytecodes executed per function over ``bench_round``'s full random rounds: where a round's
interpreter work goes, by function (self only), per round and per card of the deck.

    python benchmarks/opcode_profile.py [--preset three-deck] [--rounds 40] [--top 30]

Traced with ``sys.settrace`` opcode events after a few warm-up rounds (so that first imports do
not count; a new trump context met in the traced rounds still does), from seed 1. Bytecodes are
not instructions: a Python call, a C call through a wrapper or an allocation costs many
instructions in one bytecode (``count_instructions.py`` counts those), but the split by function
shows which steps a round repeats and how they grow with the hand (compare the presets per card).
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path
from types import FrameType
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_round  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", default=None, help="a rule preset (default: the default rules, two decks)")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()

    from tuolaji.ruleset import RuleSet, load_rules

    rules = load_rules(args.preset) if args.preset else RuleSet()
    warm = random.Random(99)
    for _ in range(3):
        bench_round._full_round(rules, warm)
    counts: collections.Counter[tuple[str, int, str]] = collections.Counter()
    calls: collections.Counter[tuple[str, int, str]] = collections.Counter()

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        code = frame.f_code
        key = (code.co_filename.rsplit("/src/", 1)[-1].rsplit("/benchmarks/", 1)[-1], code.co_firstlineno, code.co_name)
        calls[key] += 1

        def local(frame: FrameType, event: str, arg: Any) -> Any:
            if event == "opcode":
                counts[key] += 1
            return local

        return local

    rng = random.Random(1)
    cards = 0
    sys.settrace(tracer)
    for _ in range(args.rounds):
        rnd, _ = bench_round._full_round(rules, rng)
        cards += len(rnd.deck)
    sys.settrace(None)
    n = args.rounds
    total = sum(counts.values())
    name = args.preset or "default rules"
    print(f"{name}: {total / n:,.0f} bytecodes a round, {total / cards:.1f} a card ({cards / n:.0f} cards a round)")
    print("  share   a round   a card   calls a round  function")
    for key, c in counts.most_common(args.top):
        print(f"{100 * c / total:6.1f}% {c / n:9.0f} {c / cards:8.2f} {calls[key] / n:15.1f}  {key[0]}:{key[1]} {key[2]}")


if __name__ == "__main__":
    main()
