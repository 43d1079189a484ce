"""Engine speed: full random-play rounds per second, and legal-play generations per second.

A round here is the whole thing: the deal card by card with declarations, the last call, the
kitty pickup and bury, every trick with random legal plays, and scoring. Plays go through the
unchecked path (the random player only makes legal plays), as rollouts in search do.

    python benchmarks/bench_engine.py [--seconds 5] [--repeat 5]

Prints the median and range over the repeats (one core, this process only).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tuolaji.cards import new_deck
from tuolaji.engine.actions import Bury, Deal, Declare, Pass, Play
from tuolaji.engine.legal import count_legal_plays, legal_plays, random_play
from tuolaji.engine.round import Phase, Round
from tuolaji.ruleset import RuleSet

RULES = RuleSet()


def random_round(rng: random.Random, *, checked: bool = False) -> Round:
    deck = new_deck(2)
    rng.shuffle(deck)
    rnd = Round(rules=RULES, deck=deck, level=2 + rng.randrange(13), dealer=rng.randrange(4))
    apply = rnd.apply if checked else rnd.apply_unchecked
    level = rnd.level
    while rnd.phase == Phase.DEAL:
        seat = rnd.next_deal_seat
        apply(Deal())
        card = rnd.hands[seat][-1]
        if rnd.bid is None and card < 52 and card % 13 + 2 == level and rnd.phase == Phase.DEAL:
            apply(Declare(seat, (card,)))
    while rnd.phase == Phase.DECLARE:
        assert rnd.turn is not None
        apply(Pass(rnd.turn))
    dealer = rnd.dealer
    assert dealer is not None
    apply(Bury(dealer, tuple(rng.sample(rnd.hands[dealer], rnd.kitty_size))))
    while rnd.phase == Phase.PLAY:
        seat = rnd.turn
        assert seat is not None
        apply(Play(seat, random_play(rnd, seat, rng)))
    return rnd


def rounds_per_second(seconds: float, seed: int, checked: bool) -> float:
    rng = random.Random(seed)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        random_round(rng, checked=checked)
        n += 1
    return n / (time.perf_counter() - start)


def legal_generations_per_second(seconds: float, seed: int) -> float:
    """Full enumerations of the legal plays of the seat to act, over positions of random rounds."""
    rng = random.Random(seed)
    positions = []
    for _ in range(40):
        rnd = random_round(rng)  # played to the end; replay a prefix to sample positions
        positions.extend(_positions(rnd, rng))
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for rnd in positions:
            assert rnd.turn is not None
            if rnd.trick and rnd.trick.plays:
                sum(1 for _ in legal_plays(rnd, rnd.turn))
            else:
                count_legal_plays(rnd, rnd.turn)
            n += 1
    return n / (time.perf_counter() - start)


def _positions(done: Round, rng: random.Random) -> list[Round]:
    """Follower positions from a fresh round on the same deck (leads count by formula)."""
    rnd = Round(rules=RULES, deck=done.deck, level=done.level, dealer=done.dealer)
    out = []
    while rnd.phase != Phase.PLAY:
        if rnd.phase == Phase.DEAL:
            rnd.apply_unchecked(Deal())
        elif rnd.phase == Phase.DECLARE:
            assert rnd.turn is not None
            rnd.apply_unchecked(Pass(rnd.turn))
        else:
            assert rnd.dealer is not None
            rnd.apply_unchecked(Bury(rnd.dealer, tuple(rnd.hands[rnd.dealer][: rnd.kitty_size])))
    while rnd.phase == Phase.PLAY:
        seat = rnd.turn
        assert seat is not None
        if rng.random() < 0.2:
            out.append(rnd.copy())
        rnd.apply_unchecked(Play(seat, random_play(rnd, seat, rng)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for label, fn in (
        ("random rounds/s (unchecked)", lambda i: rounds_per_second(args.seconds, i, False)),
        ("random rounds/s (checked)", lambda i: rounds_per_second(args.seconds, i, True)),
        ("legal-play generations/s", lambda i: legal_generations_per_second(args.seconds, i)),
    ):
        runs = [fn(i) for i in range(args.repeat)]
        print(f"{label:32s} median {statistics.median(runs):9.1f}   range {min(runs):.1f}–{max(runs):.1f}")


if __name__ == "__main__":
    main()
