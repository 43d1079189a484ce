"""A checksum of the bots' decisions over fixed deals: a speed-up must leave it unchanged.

    python benchmarks/decision_checksum.py [--baseline 9bbb8e5] [--deals 12] [--search 24]

Heuristic self-play rounds (every declaration, bury, friend call and play of four heuristic
bots, through the checked path) on fixed deals of several presets, rounds of the human-like
bots (easy and normal, which draw from the options in their listed order), and search-bot decisions
(fixed seeds, 2,000 simulated plays: the default budget until the fourth session, kept so that
the checksums compare across commits; no time cap) at fixed positions of those rounds. Each
line prints the CRC-32 of every event of every round, or of every search decision, with the
number of decisions. With ``--baseline REF`` the same runs on REF (a detached worktree, as
``bench_round.py`` makes one) and each line says whether the two agree.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PRESETS = ("classic", "three-deck", "bianfeng-friend", "super-four-deck")


def heuristic_rounds(preset: str, deals: int, search: int) -> dict[str, Any]:
    sys.path.insert(0, str(HERE))
    from bench_round import _bot_round

    from tuolaji.bots.heuristic import HeuristicBot
    from tuolaji.bots.human import HumanBot
    from tuolaji.bots.search import SearchBot
    from tuolaji.ruleset import load_rules

    rules = load_rules(preset)
    rng = random.Random(zlib.crc32(preset.encode()))
    events = decisions = 0
    check = search_check = 0
    searched = 0
    plays = 0

    def on_play(seat: int, obs: Any) -> Any:
        nonlocal searched, search_check, plays
        plays += 1
        if searched >= search or plays % 7:
            return None
        bot = SearchBot(plays, steps=2000, time=1e9)  # the budget these checksums were first taken at
        play = bot.play(obs)
        searched += 1
        search_check = zlib.crc32(repr((tuple(play), bot.last_iterations)).encode(), search_check)
        return play

    for i in range(deals):
        bots = [HeuristicBot(i * 10 + s) for s in range(rules.players)]
        rnd, n = _bot_round(rules, bots, rng, on_play if search else None)
        decisions += n
        check = _events_crc(rnd, check)
        events += len(rnd.events)
    # the human-like bots draw their play from the scored options in the order they are listed,
    # so their rounds also check that every listing keeps its order
    human_check = 0
    for i in range(max(1, deals // 2)):
        bots = [HumanBot(i * 10 + s, level=("easy", "normal")[s % 2]) for s in range(rules.players)]
        rnd, _ = _bot_round(rules, bots, rng)
        human_check = _events_crc(rnd, human_check)
    return {
        "preset": preset,
        "rounds": deals,
        "events": events,
        "decisions": decisions,
        "checksum": f"{check:08x}",
        "search_decisions": searched,
        "search_checksum": f"{search_check:08x}",
        "human_checksum": f"{human_check:08x}",
    }


def _events_crc(rnd: Any, check: int) -> int:
    for e in rnd.events:
        # what was decided, not how events are spelled (their fields may grow)
        what = (type(e).__name__, getattr(e, "seat", None), getattr(e, "cards", None), getattr(e, "card", None))
        check = zlib.crc32(repr(what).encode(), check)
    return check


def run(src: Path, deals: int, search: int) -> list[dict[str, Any]]:
    env = dict(os.environ, PYTHONPATH=str(src / "src"), PYTHONHASHSEED="0")
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", "--deals", str(deals), "--search", str(search)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=str(src),
    )
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", metavar="REF")
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--search", type=int, default=24, help="search decisions per preset")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        for preset in PRESETS:
            print(json.dumps(heuristic_rounds(preset, args.deals, args.search)), flush=True)
        return
    mine = run(HERE.parent, args.deals, args.search)
    base = None
    if args.baseline:
        sys.path.insert(0, str(HERE))
        from bench_round import baseline_tree

        base = run(baseline_tree(args.baseline), args.deals, args.search)
    for i, row in enumerate(mine):
        line = json.dumps(row)
        if base is not None:
            same = all(base[i][k] == row[k] for k in ("events", "decisions", "checksum", "search_checksum", "human_checksum"))
            sums = "/".join(base[i][k] for k in ("checksum", "search_checksum", "human_checksum"))
            line += f"   {args.baseline}: {sums} {'SAME' if same else 'DIFFERENT'}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
