"""Engine and bot speed on the full round definition, side by side with a baseline commit.

    python benchmarks/bench_round.py [--baseline 9bbb8e5] [--repeat 5] [--targets checked,heuristic,...]

Targets (each a fixed amount of work from fixed seeds, timed with ``time.process_time`` in a fresh
worker process so that other load on the machine counts as little as possible):

- ``checked``: full random rounds, two decks, every action through the checked path (``apply``):
  cards dealt one at a time; after each card the receiving seat asks for its declaration options
  and declares with probability 0.08 when it can; each seat gets a last call (declares with
  probability 0.5 when it can; the same for an override after the bury); a random bury; random
  legal plays, where about one lead in ten tries a two- or three-combination throw; scoring.
- ``deck3`` / ``deck4``: the same rounds with the ``three-deck`` / ``super-four-deck`` presets,
  reported per card (the cost per card should not grow with the decks).
- ``match``: random matches through ``Match.apply`` (the path of the server and of records,
  which keeps a match unchanged when an action raises).
- ``heuristic``: heuristic self-play rounds (four heuristic bots, every decision from an
  observation, through the checked path).
- ``search``: search-bot play decisions at 2,000 simulated plays (the default budget until the
  fourth session, kept so that the figures compare across commits; the time cap lifted, so the
  step budget alone ends each search and the decisions are the same on any machine).
- ``judge``: judge requests (every scenario request of ``tests/scenarios``, as JSON lines).
- ``follow4``: the worst four-deck follow checks found (a 40-card hand, a 30-card throw).

With ``--baseline REF`` each target runs alternately on this checkout and on REF (a detached
git worktree under ``/tmp``), ``--repeat`` times each, and the ratio of the medians is printed.
Each worker also prints a checksum of what it computed: the same checksum on both sides shows
that both did the same work (the same rounds, decisions and answers).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TARGETS = ("checked", "deck3", "deck4", "match", "heuristic", "search", "judge", "follow4")
UNITS = {
    "checked": "rounds/s",
    "match": "rounds/s",
    "deck3": "µs/card",
    "deck4": "µs/card",
    "heuristic": "rounds/s",
    "search": "decisions/s",
    "judge": "requests/s",
    "follow4": "ms/check",
}
LOWER_IS_BETTER = {"deck3", "deck4", "follow4"}


# ---------------------------------------------------------------- workloads (run in a worker)
# Only APIs present in both this checkout and the baseline are used here.


def _full_round(rules: Any, rng: random.Random) -> tuple[Any, int]:
    """One round of the full definition; returns the round and the number of actions."""
    from tuolaji.cards import new_deck
    from tuolaji.combos import decompose
    from tuolaji.engine.actions import Bury, CallFriend, Deal, Declare, Pass, Play
    from tuolaji.engine.legal import declaration_options, random_play
    from tuolaji.engine.round import Phase, Round

    deck = new_deck(rules.decks)
    rng.shuffle(deck)
    rnd = Round(rules=rules, deck=deck, level=2 + rng.randrange(13), dealer=rng.randrange(rules.players))
    apply = rnd.apply
    actions = 0
    while rnd.phase == Phase.DEAL:
        seat = rnd.next_deal_seat
        apply(Deal())
        actions += 1
        if rnd.phase != Phase.DEAL:
            break
        opts = declaration_options(rnd, seat)
        if opts and rng.random() < 0.08:
            apply(Declare(seat, rng.choice(opts)))
            actions += 1
    while rnd.phase != Phase.PLAY and rnd.phase != Phase.DONE:
        seat = rnd.turn
        assert seat is not None
        if rnd.phase in (Phase.DECLARE, Phase.OVERRIDE):
            opts = declaration_options(rnd, seat)
            apply(Declare(seat, rng.choice(opts)) if opts and rng.random() < 0.5 else Pass(seat))
        elif rnd.phase == Phase.BURY:
            apply(Bury(seat, tuple(rng.sample(rnd.hands[seat], rnd.kitty_size))))
        else:
            apply(CallFriend(seat, rng.randrange(54)))
        actions += 1
    while rnd.phase == Phase.PLAY:
        seat = rnd.turn
        assert seat is not None and rnd.ctx is not None and rnd.trick is not None
        play = None
        if not rnd.trick.plays and rng.random() < 0.1:
            play = _throw(rnd.hands[seat], rnd.ctx, rng, decompose)
        apply(Play(seat, play or random_play(rnd, seat, rng)))
        actions += 1
    return rnd, actions


def _throw(hand: list[int], ctx: Any, rng: random.Random, decompose: Any) -> tuple[int, ...] | None:
    """Two or three combinations of one suit of the hand (a throw attempt, which may fail)."""
    by_suit: dict[int, list[int]] = {}
    for c in hand:
        by_suit.setdefault(ctx.eff[c], []).append(c)
    suits = [sorted(cards) for _, cards in sorted(by_suit.items())]
    rng.shuffle(suits)
    for cards in suits:
        comps = decompose(cards, ctx)
        if len(comps) >= 2:
            chosen = rng.sample(comps, min(len(comps), rng.choice((2, 3))))
            return tuple(c for comp in chosen for c in comp.cards)
    return None


def _round_digest(rnd: Any) -> int:
    res = rnd.result
    return zlib.crc32(repr((rnd.dealer, rnd.trump, res and (res.attacker_points, res.levels), len(rnd.events))).encode())


def work_rounds(preset: str | None, n: int, seed: int) -> dict[str, Any]:
    from tuolaji.ruleset import RuleSet, load_rules

    rules = load_rules(preset) if preset else RuleSet()
    rng = random.Random(seed)
    check = 0
    start = time.process_time()
    cards = 0
    for _ in range(n):
        rnd, _ = _full_round(rules, rng)
        cards += len(rnd.deck)
        check = zlib.crc32(str(_round_digest(rnd)).encode(), check)
    spent = time.process_time() - start
    return {"seconds": spent, "units": n, "cards": cards, "checksum": check}


def work_match(n: int, seed: int) -> dict[str, Any]:
    """Random matches through ``Match.apply`` (what the server and records use), ``n`` rounds."""
    from tuolaji.engine.match import Match
    from tuolaji.engine.simulate import random_action

    rng = random.Random(seed)
    check = rounds = 0
    start = time.process_time()
    while rounds < n:
        match = Match(rules="classic", seed=rng.randrange(2**32))
        while not match.over and len(match.rounds) < 4:
            match.apply(random_action(match.round, rng))
        rounds += len(match.rounds)
        check = zlib.crc32(repr((match.levels, len(match.events))).encode(), check)
    return {"seconds": time.process_time() - start, "units": rounds, "checksum": check}


def _bot_round(rules: Any, bots: list[Any], rng: random.Random, on_play: Any = None) -> tuple[Any, int]:
    """A round between bots through the checked path, decisions from observations only."""
    from tuolaji.cards import new_deck
    from tuolaji.engine.actions import Bury, CallFriend, Deal, Declare, Pass, Play
    from tuolaji.engine.observation import observe
    from tuolaji.engine.round import Phase, Round

    deck = new_deck(rules.decks)
    rng.shuffle(deck)
    rnd = Round(rules=rules, deck=deck, level=2 + rng.randrange(13), dealer=rng.randrange(rules.players))
    decisions = 0
    while rnd.phase != Phase.DONE:
        phase = rnd.phase
        if phase == Phase.DEAL:
            seat = rnd.next_deal_seat
            rnd.apply(Deal())
            if rnd.phase == Phase.DEAL:
                cards = bots[seat].declare(observe(rnd, seat, with_events=False))
                if cards:
                    rnd.apply(Declare(seat, tuple(cards)))
            continue
        seat = rnd.turn
        assert seat is not None
        obs = observe(rnd, seat, with_events=False)
        decisions += 1
        if phase in (Phase.DECLARE, Phase.OVERRIDE):
            cards = bots[seat].declare(obs)
            rnd.apply(Declare(seat, tuple(cards)) if cards else Pass(seat))
        elif phase == Phase.BURY:
            rnd.apply(Bury(seat, tuple(bots[seat].bury(obs))))
        elif phase == Phase.CALL_FRIEND:
            rnd.apply(CallFriend(seat, bots[seat].call_friend(obs)))
        else:
            play = on_play(seat, obs) if on_play else None
            rnd.apply(Play(seat, tuple(play if play is not None else bots[seat].play(obs))))
    return rnd, decisions


def work_heuristic(n: int, seed: int) -> dict[str, Any]:
    from tuolaji.bots.heuristic import HeuristicBot
    from tuolaji.ruleset import RuleSet

    rules = RuleSet()
    rng = random.Random(seed)
    check = 0
    start = time.process_time()
    for i in range(n):
        bots = [HeuristicBot(seed * 1000 + i * 4 + s) for s in range(4)]
        rnd, _ = _bot_round(rules, bots, rng)
        check = zlib.crc32(str(_round_digest(rnd)).encode(), check)
    return {"seconds": time.process_time() - start, "units": n, "checksum": check}


def work_search(n: int, seed: int) -> dict[str, Any]:
    """``n`` search decisions at every 6th play of heuristic rounds (only the search is timed)."""
    from tuolaji.bots.heuristic import HeuristicBot
    from tuolaji.bots.search import SearchBot
    from tuolaji.ruleset import RuleSet

    rules = RuleSet()
    rng = random.Random(seed)
    spent = 0.0
    done = 0
    check = 0
    plays = 0

    def on_play(seat: int, obs: Any) -> Any:
        nonlocal spent, done, check, plays
        plays += 1
        if done >= n or plays % 6:
            return None
        bot = SearchBot(seed * 7919 + plays, steps=2000, time=1e9)  # the budget measured since the first session
        t0 = time.process_time()
        play = bot.play(obs)
        spent += time.process_time() - t0
        done += 1
        check = zlib.crc32(repr((play, bot.last_iterations)).encode(), check)
        return play

    i = 0
    while done < n:
        bots = [HeuristicBot(seed * 1000 + i * 4 + s) for s in range(4)]
        _bot_round(rules, bots, rng, on_play)
        i += 1
    return {"seconds": spent, "units": done, "checksum": check}


def work_judge(n: int, seed: int) -> dict[str, Any]:
    from tuolaji.judge import handle_line

    lines = []
    for path in sorted((ROOT / "tests" / "scenarios").glob("*.json")):
        for sc in json.loads(path.read_text(encoding="utf-8"))["scenarios"]:
            lines.append(json.dumps(sc["request"], ensure_ascii=False))
    check = 0
    start = time.process_time()
    done = 0
    while done < n:
        for line in lines:
            check = zlib.crc32(json.dumps(handle_line(line), sort_keys=True).encode(), check)
        done += len(lines)
    return {"seconds": time.process_time() - start, "units": done, "checksum": check}


def follow4_cases() -> list[tuple[list[int], list[int], list[int], Any]]:
    """Four-deck follows that cost the old search most: (lead, hand, play, ctx).

    Hearts trump at level 2 (18 trump kinds); 30-card trump throws with two or three tractors
    besides quads and triples, against 40-card hands of triples or quads on long runs, so that
    the tractors fit in many places and no placement leaves the hand's best tuples.
    """
    from tuolaji.trump import TrumpContext

    ctx = TrumpContext(2, 1, 4)
    by_order = sorted((c for c in range(54) if ctx.eff[c] == 4), key=lambda c: (ctx.order[c], c))
    leads = (
        [13] * 2
        + [14] * 2
        + [16] * 2
        + [17] * 2
        + [19] * 2
        + [20] * 2
        + [22] * 4
        + [24] * 4
        + [52] * 3
        + [0] * 3
        + [26] * 2
        + [53] * 2,
        [13] * 2
        + [14] * 2
        + [15] * 2
        + [17] * 2
        + [18] * 2
        + [19] * 2
        + [21] * 2
        + [22] * 2
        + [23] * 2
        + [25] * 4
        + [52] * 3
        + [0] * 3
        + [53] * 2,
        [13] * 3 + [14] * 3 + [16] * 3 + [17] * 3 + [19] * 2 + [20] * 2 + [22] * 4 + [24] * 4 + [52] * 3 + [0] * 3,
    )
    hands = (
        [c for c in by_order[:13] for _ in range(3)] + [52],
        [c for c in by_order[3:13] for _ in range(4)],
        [c for c in by_order[2:15] for _ in range(3)] + [53],
    )
    return [(sorted(lead), hand, sorted(hand[:30]), ctx) for lead in leads for hand in hands]


def work_follow4(n: int, seed: int) -> dict[str, Any]:
    from tuolaji.tricks import follow_reason

    cases = follow4_cases()
    check = 0
    start = time.process_time()
    for i in range(n):
        lead, hand, play, ctx = cases[i % len(cases)]
        check = zlib.crc32(repr(follow_reason(lead, hand, play, ctx)).encode(), check)
    spent = time.process_time() - start
    return {"seconds": spent, "units": n, "checksum": check}


WORK = {
    "checked": (lambda seed: work_rounds(None, 200, seed)),
    "deck3": (lambda seed: work_rounds("three-deck", 80, seed)),
    "deck4": (lambda seed: work_rounds("super-four-deck", 50, seed)),
    "match": (lambda seed: work_match(200, seed)),
    "heuristic": (lambda seed: work_heuristic(16, seed)),
    "search": (lambda seed: work_search(8, seed)),
    "judge": (lambda seed: work_judge(12000, seed)),
    "follow4": (lambda seed: work_follow4(9, seed)),
}


def rate(target: str, r: dict[str, Any]) -> float:
    if target in ("deck3", "deck4"):
        return r["seconds"] * 1e6 / r["cards"]
    if target == "follow4":
        return r["seconds"] * 1000 / r["units"]
    return r["units"] / r["seconds"]


# ---------------------------------------------------------------- driver
def baseline_tree(ref: str) -> Path:
    """A detached worktree of ``ref`` (reused when it is already there)."""
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", ref], check=True, capture_output=True, text=True).stdout.strip()
    path = Path("/tmp") / f"tuolaji-baseline-{sha[:12]}"
    if not (path / "src" / "tuolaji").exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), sha], check=True, capture_output=True)
    return path


def run_worker(src: Path, target: str, seed: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(src / "src"), PYTHONHASHSEED="0")
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", target, "--seed", str(seed)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=str(src),
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", metavar="REF", help="git ref to compare with (run alternately)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--targets", default=",".join(TARGETS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        import tuolaji
        import tuolaji.bots.heuristic
        import tuolaji.bots.search
        import tuolaji.engine.legal
        import tuolaji.engine.observation
        import tuolaji.judge  # noqa: F401  (imported before the clock starts)

        result = WORK[args.worker](args.seed)
        result["tuolaji"] = str(Path(tuolaji.__file__).parent)
        print(json.dumps(result))
        return
    sides = [("this", ROOT)]
    if args.baseline:
        sides.append((args.baseline, baseline_tree(args.baseline)))
    for target in args.targets.split(","):
        rates: dict[str, list[float]] = {name: [] for name, _ in sides}
        sums: dict[str, set[int]] = {name: set() for name, _ in sides}
        for i in range(args.repeat):
            for name, src in sides if i % 2 == 0 else sides[::-1]:
                r = run_worker(src, target, args.seed)
                rates[name].append(rate(target, r))
                sums[name].add(r["checksum"])
        line = [f"{target:9s} {UNITS[target]:12s}"]
        for name, _ in sides:
            runs = rates[name]
            line.append(
                f"{name}: median {statistics.median(runs):10.2f} range {min(runs):.2f}–{max(runs):.2f}"
                f" checksum {','.join(f'{s:08x}' for s in sorted(sums[name]))}"
            )
        if len(sides) == 2:
            a, b = (statistics.median(rates[name]) for name, _ in sides)
            speedup = b / a if target in LOWER_IS_BETTER else a / b
            line.append(f"speed-up ×{speedup:.2f}")
        print("  ".join(line), flush=True)


if __name__ == "__main__":
    main()
