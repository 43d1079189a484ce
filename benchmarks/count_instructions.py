"""Machine instructions per unit of work, counted by valgrind (callgrind's ``Ir``), side by side
with a baseline commit: a measure that the load on a shared machine does not move.

    python benchmarks/count_instructions.py [--baseline 71ec7c9] [--targets checked,deck3,deck4,judge,heuristic,search]
    python benchmarks/count_instructions.py --targets checked,deck3,deck4 --bench-rounds   # the bench's own rounds

Each target's work (the same workloads and seeds as ``bench_round.py``) runs twice in a fresh
process under ``valgrind --tool=callgrind``: once with no units after the imports (and, for the
judge, one warm-up pass over the requests), once with ``n`` units more; the difference over
``n`` is the count for one unit (a round, a judge request, a heuristic self-play round or a search
decision). Interpreter start-up and imports cancel out. The bot targets: ``heuristic`` counts
``bench_round``'s heuristic self-play rounds; ``search`` first plays the heuristic rounds that
give ``bench_round``'s search positions (every 6th play; the heuristic plays on, in both runs, so
that part cancels out) and then counts only the search decisions at them (2,000 simulated plays,
no time cap). Slow (valgrind runs Python about fifty times slower): a few minutes per side.
Instructions are not time, but for the same interpreter running the same kind of code they
follow it closely, and the same commit gives the same count to a fraction of a per cent.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_round import ROOT, baseline_tree  # noqa: E402

# target -> (rounds preset or "judge", units per run, unit name)
TARGETS = {
    "checked": ("", 20, "round"),
    "deck3": ("three-deck", 6, "round"),
    "deck4": ("super-four-deck", 4, "round"),
    "judge": ("judge", 2, "request"),  # units: passes over every scenario request
    "heuristic": ("heuristic", 8, "round"),
    "search": ("search", 8, "decision"),
}
SEARCH_POSITIONS = 8  # positions gathered in every search run, whatever the number searched
BENCH_UNITS = {"checked": 200, "deck3": 80, "deck4": 50}  # bench_round.py's own rounds (--bench-rounds)


def worker(target: str, units: int) -> None:
    import bench_round

    preset, _, _ = TARGETS[target]
    if preset == "judge":
        passes = 1 + units  # one warm-up pass
        bench_round.work_judge(passes * _judge_lines(), 1)
    elif preset == "heuristic":
        import tuolaji.bots.heuristic
        import tuolaji.engine.observation  # noqa: F401  (imported either way)

        bench_round.work_heuristic(units, 1)
    elif preset == "search":
        _search(units)
    else:
        import tuolaji.combos
        import tuolaji.engine.legal
        import tuolaji.tricks  # noqa: F401  (imported either way)

        bench_round.work_rounds(preset or None, units, 1)


def _search(units: int) -> None:
    """Search decisions at the first ``units`` of the positions of ``bench_round``'s search target
    (seed 1): every 6th play of heuristic rounds (the heuristic's play goes on), each searched by a
    bot seeded as that target seeds it."""
    import bench_round

    from tuolaji.bots.heuristic import HeuristicBot
    from tuolaji.bots.search import SearchBot
    from tuolaji.ruleset import RuleSet

    seed = 1
    rng = random.Random(seed)
    positions: list[tuple[int, Any]] = []
    plays = 0

    def on_play(seat: int, obs: Any) -> None:
        nonlocal plays
        plays += 1
        if len(positions) < SEARCH_POSITIONS and plays % 6 == 0:
            positions.append((plays, obs))

    i = 0
    while len(positions) < SEARCH_POSITIONS:
        bench_round._bot_round(RuleSet(), [HeuristicBot(seed * 1000 + i * 4 + s) for s in range(4)], rng, on_play)
        i += 1
    for at, obs in positions[:units]:
        SearchBot(seed * 7919 + at, steps=2000, time=1e9).play(obs)


def _judge_lines() -> int:
    import json

    return sum(len(json.loads(p.read_text(encoding="utf-8"))["scenarios"]) for p in (ROOT / "tests" / "scenarios").glob("*.json"))


def count(src: Path, target: str, units: int) -> int:
    env = dict(os.environ, PYTHONPATH=str(src / "src"), PYTHONHASHSEED="0")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, str(Path(__file__).resolve())]
    out = subprocess.run([*cmd, "--worker", target, "--units", str(units)], env=env, cwd=str(src), capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode or not found:
        raise SystemExit(f"callgrind failed on {target} in {src}:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", metavar="REF")
    parser.add_argument("--targets", default="checked,deck3,deck4,judge,heuristic,search")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--units", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument(
        "--bench-rounds",
        action="store_true",
        help="count bench_round.py's own rounds (200 / 80 / 50): first uses of tables weigh less (a minute a side)",
    )
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.units)
        return
    sides = [("this", ROOT)] + ([(args.baseline, baseline_tree(args.baseline))] if args.baseline else [])
    for target in args.targets.split(","):
        _, units, unit = TARGETS[target]
        if args.bench_rounds:
            units = BENCH_UNITS.get(target, units)
        per: dict[str, float] = {}
        per_unit = units * (_judge_lines() if target == "judge" else 1)
        for name, src in sides:
            per[name] = (count(src, target, units) - count(src, target, 0)) / per_unit
        line = f"{target:9} Ir per {unit}: " + "  ".join(f"{name} {v:,.0f}" for name, v in per.items())
        if args.baseline:
            line += f"  ratio ×{per[args.baseline] / per['this']:.3f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
