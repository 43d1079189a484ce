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
class SideGames:
    """One side's games as attackers (the kitty record counts them from both sides)."""

    games: int = 0
    points: int = 0  # attacker points, summed
    captured: int = 0  # games whose kitty the attackers took
    captured_points: int = 0  # what the taken kitties added, summed

    def add(self, g: GameRecord) -> None:
        self.games += 1
        self.points += g.attacker_points
        if g.kitty_captured:
            self.captured += 1
            self.captured_points += g.kitty_points

    def merge(self, other: SideGames) -> None:
        self.games += other.games
        self.points += other.points
        self.captured += other.captured
        self.captured_points += other.captured_points


@dataclass
class Tally:
    """Running totals of every deal and match a pairing has taken in: what the summary reports,
    in integers (level gains and their squares, half wins), so that nothing is kept per deal."""

    deals: int = 0
    gain: int = 0  # A's level gains, summed
    gain_sq: int = 0  # ... and their squares
    half_wins: int = 0  # a deal won counts 2, a tied one 1
    margin: int = 0  # A's attacker points minus B's on the same cards, summed over the deals
    margin_sq: int = 0  # ... and their squares
    a_attacking: SideGames = field(default_factory=SideGames)
    b_attacking: SideGames = field(default_factory=SideGames)
    matches: int = 0  # match results taken in
    match_games: int = 0
    match_draws: int = 0
    match_half_wins: int = 0
    match_rounds: int = 0

    def add_deal(self, d: DealResult) -> None:
        g = d.a_level_gain
        self.deals += 1
        self.gain += g
        self.gain_sq += g * g
        key = _key(d)
        self.margin += key[1]
        self.margin_sq += key[1] * key[1]
        self.half_wins += 2 if key > (0, 0) else 1 if key == (0, 0) else 0
        for game in d.games:
            if not game.redeal and not game.mixed:
                (self.a_attacking if game.a_attacks else self.b_attacking).add(game)

    def add_match(self, m: MatchResult) -> None:
        self.matches += 1
        self.match_games += len(m.a_won)
        self.match_draws += m.a_won.count(None)
        self.match_half_wins += sum(1 if w is None else 2 * w for w in m.a_won)
        self.match_rounds += m.rounds

    def merge(self, other: Tally) -> None:
        for name in _COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.a_attacking.merge(other.a_attacking)
        self.b_attacking.merge(other.b_attacking)


_COUNTS = (
    "deals",
    "gain",
    "gain_sq",
    "half_wins",
    "margin",
    "margin_sq",
    "matches",
    "match_games",
    "match_draws",
    "match_half_wins",
    "match_rounds",
)


@dataclass
class PairingResult:
    a: str
    b: str
    deals: list[DealResult] = field(default_factory=list)  # results given here directly (add() keeps none)
    matches: list[MatchResult] = field(default_factory=list)
    # each side's latencies, illegal actions and faults, merged as results arrive (see add())
    a_stats: SideStats = field(default_factory=SideStats)
    b_stats: SideStats = field(default_factory=SideStats)
    tally: Tally = field(default_factory=Tally)  # the results add() took in

    def add(self, items: Sequence[DealResult] | Sequence[MatchResult]) -> None:
        """Take in finished deals or matches: their per-side statistics and their scores are
        merged into the running totals at once and the results dropped, so memory does not
        grow with the number of deals."""
        for item in items:
            for mine, theirs in ((self.a_stats, item.a), (self.b_stats, item.b)):
                _merge(mine, theirs)
            if isinstance(item, DealResult):
                self.tally.add_deal(item)
            else:
                self.tally.add_match(item)

    def extend(self, other: PairingResult) -> None:
        """Take in another batch of the same pairing (its totals and its results)."""
        _merge(self.a_stats, other.a_stats)
        _merge(self.b_stats, other.b_stats)
        self.tally.merge(other.tally)
        self.deals.extend(other.deals)
        self.matches.extend(other.matches)

    def summary(self) -> dict[str, Any]:
        t = Tally()
        t.merge(self.tally)
        for d in self.deals:
            t.add_deal(d)
        for m in self.matches:
            t.add_match(m)
        a_side, b_side = SideStats(), SideStats()
        sides: list[tuple[SideStats, SideStats]] = [(self.a_stats, self.b_stats)]
        sides += [(d.a, d.b) for d in self.deals] + [(m.a, m.b) for m in self.matches]  # results not add()ed
        for da, db in sides:
            for mine, theirs in ((a_side, da), (b_side, db)):
                _merge(mine, theirs)
        n = t.deals
        mean, half = _mean_ci(n, t.gain, t.gain_sq)
        margin, margin_half = _mean_ci(n, t.margin, t.margin_sq)
        a_att, b_att = t.a_attacking, t.b_attacking
        out: dict[str, Any] = {
            "a": self.a,
            "b": self.b,
            "deals": n,
            "a_level_gain_per_deal": round(mean, 4),
            "ci95": [round(mean - half, 4), round(mean + half, 4)],
            "a_deal_win_rate": round(t.half_wins / 2 / n, 4) if n else 0.0,
            # finer than the levels, which tie in many deals (an ablation's small effects show here first)
            "a_point_margin_per_deal": round(margin, 2),
            "point_margin_ci95": [round(margin - margin_half, 2), round(margin + margin_half, 2)],
            "a_attacker_points": round(a_att.points / a_att.games if a_att.games else 0.0, 2),
            "b_attacker_points": round(b_att.points / b_att.games if b_att.games else 0.0, 2),
            "a_kitty_captures": a_att.captured,
            "b_kitty_captures": b_att.captured,
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
        if t.matches:
            out["matches"] = t.match_games
            out["match_draws"] = t.match_draws
            # a draw counts half a win, as in a chess score
            out["a_match_win_rate"] = round(t.match_half_wins / 2 / t.match_games, 4)
            out["rounds_per_match"] = round(t.match_rounds / t.match_games, 2)
        return out


def _mean_ci(n: int, total: int, total_sq: int) -> tuple[float, float]:
    """The mean of n per-deal integers known by their sum and sum of squares, and the half width
    of its normal 95 % interval."""
    if n < 2:
        return (total / n if n else 0.0), 0.0
    var = (n * total_sq - total * total) / (n * (n - 1))  # exact until this division
    return total / n, 1.96 * math.sqrt(var / n)


def _kitty(attacking: SideGames, defending: SideGames) -> dict[str, int]:
    """One bot's kitty record: captured when attacking (winning the last trick takes the kitty,
    multiplied), kept when defending (its side won the last trick), out of how many games."""
    return {
        "attacking_games": attacking.games,
        "captured": attacking.captured,
        "captured_points": attacking.captured_points,
        "defending_games": defending.games,
        "kept": defending.games - defending.captured,
    }


def _merge(mine: SideStats, theirs: SideStats) -> None:
    mine.latency.merge(theirs.latency)
    mine.illegal += theirs.illegal
    mine.faults += theirs.faults
    mine.fault_reasons.update(theirs.fault_reasons)


def _key(d: DealResult) -> tuple[int, int]:
    """A deal is won on paired levels, ties broken by the attacker-points margin."""
    return d.a_level_gain, d.a_point_margin()


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
