"""Replaying a late round of a long game: one round's work (server/projection.replay_frames)
against rebuilding the whole game from its record first (what the server did before).

    python benchmarks/bench_replay.py --rounds 300 --repeat 5
"""

from __future__ import annotations

import argparse
import statistics
import time

from tuolaji.bots.driver import Table
from tuolaji.bots.registry import make_bot
from tuolaji.engine.events import event_from_dict
from tuolaji.engine.match import Match
from tuolaji.record import action_of_event, from_record, to_record
from tuolaji.ruleset import load_rules
from tuolaji.server.projection import replay_frames


def long_match(rounds: int, seed: int) -> Match:
    # levels wrap past A, so the match never ends by itself
    match = Match(rules=load_rules({"preset": "classic", "match_end": "wrap"}), seed=seed)
    table = Table(match, [make_bot("random", seed=s) for s in range(4)], seed=seed)
    while len(match.rounds) < rounds:
        table.step()
    return match


def whole_record_replay(match: Match, number: int) -> int:
    """The baseline: the record up to the round, loaded (every earlier round replayed), then the round."""
    data = to_record(match)
    events = data["events"]
    starts = [i for i, e in enumerate(events) if e["e"] == "round_started"]
    ends = [i for i, e in enumerate(events) if e["e"] in ("round_ended", "redealt")]
    replay = from_record(dict(data, events=events[: starts[number - 1] + 1], seed=None, deals=data["deals"][:number]))
    n = 0
    for raw in events[starts[number - 1] + 1 : ends[number - 1] + 1]:
        action = action_of_event(event_from_dict(raw))
        if action is not None:
            replay.apply(action)
            n += 1
    return n


def cpu(fn: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()  # type: ignore[operator]
        times.append(time.process_time() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    match = long_match(args.rounds, args.seed)
    last = len(match.rounds)
    new = cpu(lambda: replay_frames(match, last, 0), args.repeat)
    old = cpu(lambda: whole_record_replay(match, last), args.repeat)
    print(
        f"replay of round {last} of {last}: one round {1000 * new:.1f} ms, "
        f"whole record first {1000 * old:.1f} ms (median CPU of {args.repeat})"
    )


if __name__ == "__main__":
    main()
