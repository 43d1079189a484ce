"""``tuolaji sim``: duplicate tournaments between bot configurations (docs/tournaments.md)."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from itertools import combinations
from pathlib import Path
from typing import Any

from ..ruleset import RuleSetError, load_rules


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="tuolaji sim",
        description="Duplicate tournaments: every deal is played twice with the teams swapped, same cards.",
    )
    p.add_argument(
        "bots",
        nargs="*",
        metavar="BOT",
        help="bot specs: random, heuristic, search, search:steps=2000,time=0.5, oracle, "
        "a difficulty (easy, normal, hard, expert) or cmd:COMMAND",
    )
    p.add_argument("--bot", action="append", default=[], metavar="BOT", help="another bot (repeatable)")
    p.add_argument("--deals", type=int, default=100, help="duplicate deals per pairing (default 100)")
    p.add_argument("--matches", type=int, default=0, help="also play this many full match pairs per pairing")
    p.add_argument("--seed", type=int, default=1, help="tournament seed: the same seed deals the same cards")
    p.add_argument("--first", type=int, default=0, help="index of the first deal (to split one long tournament into parts)")
    p.add_argument("--rules", default=None, help="rules preset name or settings file (JSON)")
    p.add_argument(
        "--pairings",
        choices=("all", "ladder", "first"),
        default="all",
        help="with more than two bots: every pair, neighbours in the list, or the first against each",
    )
    p.add_argument("--workers", type=int, default=1, help="local worker processes (default 1)")
    p.add_argument(
        "--ray",
        nargs="?",
        const="local",
        default=None,
        metavar="ADDRESS",
        help="run on Ray: no value starts a local instance, 'auto' joins a running cluster",
    )
    p.add_argument("--chunk", type=int, default=0, help="deals per task (default: automatic)")
    p.add_argument("--bot-timeout", type=float, default=10.0, help="seconds an external bot may think per decision (default 10)")
    p.add_argument(
        "--bot-log",
        default=None,
        metavar="DIR",
        help="folder for external bots' standard error, one file per bot (default: a new temporary folder)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object at the end and nothing else")
    return p


def pairings_of(bots: list[str], how: str) -> list[tuple[str, str]]:
    if how == "ladder":
        return list(zip(bots, bots[1:], strict=False))
    if how == "first":
        return [(bots[0], b) for b in bots[1:]]
    return list(combinations(bots, 2))


def _check_specs(bots: list[str]) -> str | None:
    from ..bots.registry import make_bot

    for spec in bots:
        if spec.startswith("cmd:"):
            if not spec[4:].strip():
                return "an external bot needs a command: cmd:COMMAND"
            continue
        try:
            make_bot(spec, seed=0)
        except ValueError as exc:
            return str(exc)
    return None


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    bots = list(args.bots) + list(args.bot)
    if args.ray is not None and args.ray not in ("local", "auto") and ":" not in args.ray:
        bots.insert(0, args.ray)  # "--ray heuristic random": the word after --ray was a bot, not an address
        args.ray = "local"
    err = sys.stderr
    if len(bots) < 2:
        print("tuolaji sim: name at least two bots, e.g. 'tuolaji sim heuristic random'", file=err)
        return 2
    if args.deals < 0 or args.matches < 0 or (args.deals == 0 and args.matches == 0):
        print("tuolaji sim: --deals and --matches must be >= 0, and one of them positive", file=err)
        return 2
    try:
        rules = load_rules(args.rules)
    except RuleSetError as exc:
        print(f"tuolaji sim: {exc}", file=err)
        return 2
    problem = _check_specs(bots)
    if problem:
        print(f"tuolaji sim: {problem}", file=err)
        return 2
    from .tournament import processes, ray_runner, run_tournament, serial

    pairings = pairings_of(bots, args.pairings)
    workers = max(1, args.workers)
    if args.ray is not None:
        try:
            import ray  # noqa: F401
        except ImportError:
            print("tuolaji sim: --ray needs Ray: pip install 'tuolaji[ray]'", file=err)
            return 2
        runner = ray_runner(args.ray, args.workers if args.workers > 1 else None)
    elif workers > 1:
        runner = processes(workers)
    else:
        runner = serial
    logs = _external_logs(bots, args.bot_log)
    log_dir = None if not logs else (args.bot_log or str(Path(next(iter(logs.values()))).parent))
    kw: dict[str, Any] = dict(
        seed=args.seed,
        deals=args.deals,
        matches=args.matches,
        runner=runner,
        chunk=args.chunk,
        workers=workers,
        ext_timeout=args.bot_timeout,
        first=max(0, args.first),
        ext_log_dir=log_dir,
    )
    if args.json:
        results = run_tournament(pairings, rules, **kw)
    else:
        results = _with_progress(pairings, rules, args, kw)
    report: dict[str, Any] = {"rules": rules.name, "seed": args.seed, "pairings": [r.summary() for r in results]}
    if logs:
        report["external_logs"] = logs
    if args.json:
        print(json.dumps(report))
    else:
        _print_table(report)
    return 0


def _external_logs(bots: list[str], folder: str | None) -> dict[str, str]:
    """The standard-error log file of each external bot (``cmd:``), creating the folder."""
    from .runner import external_log

    external = [b for b in bots if b.startswith("cmd:")]
    if not external:
        return {}
    if folder is None:
        folder = tempfile.mkdtemp(prefix="tuolaji-sim-")
    Path(folder).mkdir(parents=True, exist_ok=True)
    return {spec: external_log(folder, spec) for spec in external}


def _with_progress(pairings: list[tuple[str, str]], rules: Any, args: argparse.Namespace, kw: dict[str, Any]) -> Any:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from .tournament import run_tournament

    console = Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=False) as progress:
        ids = [progress.add_task(f"{a} vs {b}", total=args.deals + args.matches) for a, b in pairings]
        return run_tournament(pairings, rules, on_progress=lambda n, p: progress.advance(ids[p], n), **kw)


def _print_table(report: dict[str, Any]) -> None:
    """One column per pairing, one row per measure (narrow enough for any terminal)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"duplicate tournament — rules {report['rules']}, seed {report['seed']}")
    table.add_column("")
    pairings = report["pairings"]
    for r in pairings:
        table.add_column(f"{r['a']}\nvs {r['b']}")

    def ms(side: dict[str, float]) -> str:
        return " / ".join(f"{side[k]:.1f}" for k in ("p50", "p95", "max"))

    rows: list[tuple[str, Any]] = [
        ("duplicate deals", lambda r: str(r["deals"])),
        ("A levels per deal", lambda r: f"{r['a_level_gain_per_deal']:+.3f}"),
        ("  95% interval", lambda r: f"[{r['ci95'][0]:+.3f}, {r['ci95'][1]:+.3f}]"),
        ("A deals won", lambda r: f"{r['a_deal_win_rate']:.1%}"),
        ("A point margin per deal", _margin),
        ("attacker points A / B", lambda r: f"{r['a_attacker_points']:.1f} / {r['b_attacker_points']:.1f}"),
        ("kitty captured attacking A / B", lambda r: _kitty(r, "captured", "attacking_games")),
        ("kitty kept defending A / B", lambda r: _kitty(r, "kept", "defending_games")),
        ("illegal actions", lambda r: str(r["illegal"])),
        ("external bot faults", lambda r: f"{r['external_faults']['a']} / {r['external_faults']['b']}"),
        ("A ms p50 / p95 / max", lambda r: ms(r["latency_ms"]["a"])),
        ("B ms p50 / p95 / max", lambda r: ms(r["latency_ms"]["b"])),
    ]
    if any(r["external_faults"]["a"] or r["external_faults"]["b"] for r in pairings):
        rows.append(("external fault reasons", lambda r: _reasons(r["external_fault_reasons"])))
    if any("matches" in r for r in pairings):
        rows.append(
            (
                "A matches won",
                lambda r: f"{r['a_match_win_rate']:.1%} of {r['matches']}, {r['match_draws']} drawn" if "matches" in r else "-",
            )
        )
    for label, cell in rows:
        table.add_row(label, *(cell(r) for r in pairings))
    console = Console()
    console.print(table)
    for spec, path in report.get("external_logs", {}).items():
        console.print(f"standard error of {spec}: {path}", markup=False, highlight=False)


def _margin(r: dict[str, Any]) -> str:
    lo, hi = r["point_margin_ci95"]
    return f"{r['a_point_margin_per_deal']:+.1f} [{lo:+.1f}, {hi:+.1f}]"


def _kitty(r: dict[str, Any], key: str, games: str) -> str:
    k = r["kitty"]
    return f"{k['a'][key]} of {k['a'][games]} / {k['b'][key]} of {k['b'][games]}"


def _reasons(by_side: dict[str, dict[str, int]]) -> str:
    lines = [f"{side.upper()} {n}× {why}" for side in ("a", "b") for why, n in by_side[side].items()]
    return "\n".join(lines) or "-"


if __name__ == "__main__":
    raise SystemExit(main())
