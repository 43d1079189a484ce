"""Running a tournament: tasks over deal indices, three backends, and the per-pairing summary.

Work is cut into tasks of consecutive deal indices. A task's result depends only on its
pairing, the rules, the seed and its indices, so the serial, process-pool and Ray backends
give identical results (decision latencies aside); results are put back in index order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots.external import DEFAULT_TIMEOUT
from ..ruleset import RuleSet
from .latency import Histogram
from .runner import DealResult, GameRecord, MatchResult, SideStats, play_deal, play_match_pair


@dataclass(frozen=True)
class Task:
    pairing: int
    a: str
    b: str
    rules: dict[str, Any]
    seed: int
    kind: str  # "deal" or "match"
    indices: tuple[int, ...]
    ext_timeout: float = DEFAULT_TIMEOUT
    ext_log_dir: str | None = None  # where external bots' standard error goes


def run_task(task: Task) -> tuple[int, str, list[DealResult] | list[MatchResult]]:
    rules = RuleSet.from_dict(task.rules)
    if task.kind == "deal":
        deals = [play_deal(task.a, task.b, rules, task.seed, i, task.ext_timeout, task.ext_log_dir) for i in task.indices]
        return task.pairing, task.kind, deals
    matches = [
        play_match_pair(task.a, task.b, rules, task.seed, i, task.ext_timeout, ext_log_dir=task.ext_log_dir) for i in task.indices
    ]
    return task.pairing, task.kind, matches


def make_tasks(
    pairings: Sequence[tuple[str, str]],
    rules: RuleSet,
    seed: int,
    deals: int,
    matches: int,
    chunk: int,
    ext_timeout: float = DEFAULT_TIMEOUT,
    first: int = 0,
    ext_log_dir: str | None = None,
) -> list[Task]:
    """Deals (and match pairs) ``first`` .. ``first + n - 1`` of every pairing, ``chunk`` per task."""
    tasks: list[Task] = []
    rd = rules.to_dict()
    for p, (a, b) in enumerate(pairings):
        for kind, n, size in (("deal", deals, chunk), ("match", matches, 1)):
            for lo in range(first, first + n, size):
                tasks.append(Task(p, a, b, rd, seed, kind, tuple(range(lo, min(first + n, lo + size))), ext_timeout, ext_log_dir))
    return tasks


Runner = Callable[[list[Task]], Iterator[tuple[Task, tuple[int, str, Any]]]]


def serial(tasks: list[Task]) -> Iterator[tuple[Task, tuple[int, str, Any]]]:
    for t in tasks:
        yield t, run_task(t)


def processes(workers: int) -> Runner:
    def run(tasks: list[Task]) -> Iterator[tuple[Task, tuple[int, str, Any]]]:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor, as_completed

        with ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn")) as pool:
            futures = {pool.submit(run_task, t): t for t in tasks}
            for f in as_completed(futures):
                yield futures[f], f.result()

    return run


def ray_runner(address: str | None, workers: int | None = None) -> Runner:
    """Ray backend: ``address`` "auto" joins a running cluster (else starts a local one)."""

    def run(tasks: list[Task]) -> Iterator[tuple[Task, tuple[int, str, Any]]]:
        import logging

        import ray

        started = False
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {
                "include_dashboard": False,
                "log_to_driver": False,
                "logging_level": logging.WARNING,
                "configure_logging": True,
            }
            if address and address != "local":
                try:
                    ray.init(address=address, **kwargs)
                except (ConnectionError, RuntimeError):
                    if address != "auto":
                        raise
                    ray.init(num_cpus=workers, **kwargs)
            else:
                ray.init(num_cpus=workers, **kwargs)
            started = True
        try:
            remote = ray.remote(run_task)
            pending = {remote.remote(t): t for t in tasks}
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    yield pending.pop(ref), ray.get(ref)
        finally:
            if started:
                ray.shutdown()

    return run


# ------------------------------------------------------------------ summary
@dataclass
class PairingResult:
    a: str
    b: str
    deals: list[DealResult] = field(default_factory=list)
    matches: list[MatchResult] = field(default_factory=list)
    # each side's latencies, illegal actions and faults, merged as results arrive (see add())
    a_stats: SideStats = field(default_factory=SideStats)
    b_stats: SideStats = field(default_factory=SideStats)

    def add(self, items: Sequence[DealResult] | Sequence[MatchResult]) -> None:
        """Keep finished deals or matches; their per-side statistics are merged into the
        running totals at once and dropped, so memory does not grow with them per deal."""
        for item in items:
            for mine, theirs in ((self.a_stats, item.a), (self.b_stats, item.b)):
                _merge(mine, theirs)
            item.a = item.b = _MERGED
            if isinstance(item, DealResult):
                self.deals.append(item)
            else:
                self.matches.append(item)

    def extend(self, other: PairingResult) -> None:
        """Take in another batch of the same pairing (its totals and its results)."""
        _merge(self.a_stats, other.a_stats)
        _merge(self.b_stats, other.b_stats)
        self.deals.extend(other.deals)
        self.matches.extend(other.matches)

    def summary(self) -> dict[str, Any]:
        deals = sorted(self.deals, key=lambda d: d.index)
        matches = sorted(self.matches, key=lambda m: m.index)
        a_side, b_side = SideStats(), SideStats()
        sides: list[tuple[SideStats, SideStats]] = [(self.a_stats, self.b_stats)]
        sides += [(d.a, d.b) for d in deals] + [(m.a, m.b) for m in matches]  # results not add()ed
        for da, db in sides:
            for mine, theirs in ((a_side, da), (b_side, db)):
                _merge(mine, theirs)
        gains = [d.a_level_gain for d in deals]
        n = len(gains)
        mean = sum(gains) / n if n else 0.0
        var = sum((g - mean) ** 2 for g in gains) / (n - 1) if n > 1 else 0.0
        half = 1.96 * math.sqrt(var / n) if n > 1 else 0.0
        wins = sum(1.0 if _key(d) > (0, 0) else 0.5 if _key(d) == (0, 0) else 0.0 for d in deals)
        a_att = [g for d in deals for g in d.games if g.a_attacks and not g.redeal]
        b_att = [g for d in deals for g in d.games if not g.a_attacks and not g.redeal]
        out: dict[str, Any] = {
            "a": self.a,
            "b": self.b,
            "deals": n,
            "a_level_gain_per_deal": round(mean, 4),
            "ci95": [round(mean - half, 4), round(mean + half, 4)],
            "a_deal_win_rate": round(wins / n, 4) if n else 0.0,
            "a_attacker_points": round(_mean([g.attacker_points for g in a_att]), 2),
            "b_attacker_points": round(_mean([g.attacker_points for g in b_att]), 2),
            "a_kitty_captures": sum(g.kitty_captured for g in a_att),
            "b_kitty_captures": sum(g.kitty_captured for g in b_att),
            "kitty": {"a": _kitty(a_att, b_att), "b": _kitty(b_att, a_att)},
            "illegal": a_side.illegal + b_side.illegal,
            "illegal_by_side": {"a": a_side.illegal, "b": b_side.illegal},
            "external_faults": {"a": a_side.faults, "b": b_side.faults},
            "external_fault_reasons": {
                "a": dict(a_side.fault_reasons.most_common()),
                "b": dict(b_side.fault_reasons.most_common()),
            },
            "latency_ms": {"a": a_side.latency.summary_ms(), "b": b_side.latency.summary_ms()},
        }
        if matches:
            won = [w for m in matches for w in m.a_won]
            out["matches"] = len(won)
            out["match_draws"] = won.count(None)
            # a draw counts half a win, as in a chess score
            out["a_match_win_rate"] = round(sum(0.5 if w is None else float(w) for w in won) / len(won), 4)
            out["rounds_per_match"] = round(sum(m.rounds for m in matches) / len(won), 2)
        return out


def _kitty(attacking: Sequence[GameRecord], defending: Sequence[GameRecord]) -> dict[str, int]:
    """One bot's kitty record: captured when attacking (winning the last trick takes the kitty,
    multiplied), kept when defending (its side won the last trick), out of how many games."""
    return {
        "attacking_games": len(attacking),
        "captured": sum(g.kitty_captured for g in attacking),
        "captured_points": sum(g.kitty_points for g in attacking if g.kitty_captured),
        "defending_games": len(defending),
        "kept": sum(not g.kitty_captured for g in defending),
    }


_MERGED = SideStats()  # what a result holds once its statistics are in the totals (never changed)


def _merge(mine: SideStats, theirs: SideStats) -> None:
    mine.latency.merge(theirs.latency)
    mine.illegal += theirs.illegal
    mine.faults += theirs.faults
    mine.fault_reasons.update(theirs.fault_reasons)


def _key(d: DealResult) -> tuple[int, int]:
    """A deal is won on paired levels, ties broken by the attacker-points margin."""
    return d.a_level_gain, d.a_point_margin()


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def run_tournament(
    pairings: Sequence[tuple[str, str]],
    rules: RuleSet,
    *,
    seed: int,
    deals: int,
    matches: int = 0,
    runner: Runner = serial,
    chunk: int = 0,
    workers: int = 1,
    ext_timeout: float = DEFAULT_TIMEOUT,
    first: int = 0,
    ext_log_dir: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> list[PairingResult]:
    """Play every pairing; ``on_progress(games_done, pairing)`` after each finished task."""
    if chunk <= 0:  # enough tasks to keep every worker busy, few enough to be cheap
        chunk = max(1, min(25, deals // max(1, workers * 4)))
    tasks = make_tasks(pairings, rules, seed, deals, matches, chunk, ext_timeout, first, ext_log_dir)
    results = [PairingResult(a, b) for a, b in pairings]
    for task, (p, _kind, items) in runner(tasks):
        results[p].add(items)
        if on_progress is not None:
            on_progress(len(task.indices), p)
    return results


__all__ = ["Task", "run_task", "make_tasks", "serial", "processes", "ray_runner", "PairingResult", "run_tournament", "Histogram"]
