"""The deal log of ``benchmarks/bench_bots.py table --deal-log`` gives back the run's figures
(``bench_bots.py summary``), so a long run stopped part-way can be read and continued."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))

import bench_bots  # noqa: E402

KEYS = (
    "deals",
    "a_level_gain_per_deal",
    "ci95",
    "a_deal_win_rate",
    "a_point_margin_per_deal",
    "point_margin_ci95",
    "a_kitty_captures",
    "b_kitty_captures",
    "kitty",
)


def test_the_deal_log_gives_the_figures_of_the_run_that_wrote_it(tmp_path: Path) -> None:
    log = tmp_path / "deals.jsonl"
    first = bench_bots._run("heuristic", "random", 4, 1, 2026, batch=2, deal_log=str(log))
    [whole] = bench_bots.summarize([str(log)])
    assert {k: whole[k] for k in KEYS} == {k: first[k] for k in KEYS}
    assert (whole["first_deal"], whole["last_deal"], whole["deal_runs"]) == (0, 3, [[0, 3]])


def test_the_point_margin_is_the_mean_of_each_deals_attacker_points_a_minus_b(tmp_path: Path) -> None:
    """Levels tie in many deals; the margin (A's attacker points minus B's with the same cards)
    is the finer figure an ablation reads first."""
    log = tmp_path / "deals.jsonl"
    s = bench_bots._run("random", "heuristic", 6, 1, 2026, deal_log=str(log))
    margins = []
    for line in log.read_text(encoding="utf-8").splitlines():
        games = json.loads(line)["games"]
        margins.append(sum(g["attacker_points"] * (1 if g["a_attacks"] else -1) for g in games if not g["mixed"]))
    mean = sum(margins) / len(margins)
    sd = (sum((m - mean) ** 2 for m in margins) / (len(margins) - 1)) ** 0.5
    half = 1.96 * sd / len(margins) ** 0.5
    assert s["a_point_margin_per_deal"] == round(mean, 2) < 0, "random attacks for fewer points than the heuristic"
    assert s["point_margin_ci95"] == [round(mean - half, 2), round(mean + half, 2)]


def test_a_continued_log_counts_each_deal_once_and_skips_a_torn_line(tmp_path: Path) -> None:
    log = tmp_path / "deals.jsonl"
    both = bench_bots._run("heuristic", "random", 5, 1, 2026, deal_log=str(tmp_path / "straight.jsonl"))
    bench_bots._run("heuristic", "random", 3, 1, 2026, deal_log=str(log))
    bench_bots._run("heuristic", "random", 3, 1, 2026, deal_log=str(log), first_deal=2)  # deal 2 again
    with open(log, "a", encoding="utf-8") as f:
        f.write(json.dumps({"a": "heuristic", "b": "random", "deal": 5})[:20])  # a line being written
    [whole] = bench_bots.summarize([str(log)])
    assert {k: whole[k] for k in KEYS} == {k: both[k] for k in KEYS}
    assert whole["deals"] == 5 and whole["deal_runs"] == [[0, 4]]


def test_logs_of_two_processes_read_as_one_sample_with_the_gap_shown(tmp_path: Path) -> None:
    low, high = tmp_path / "low.jsonl", tmp_path / "high.jsonl"
    bench_bots._run("heuristic", "random", 2, 1, 2026, deal_log=str(low))
    bench_bots._run("heuristic", "random", 2, 1, 2026, deal_log=str(high), first_deal=6)
    [whole] = bench_bots.summarize([str(low), str(high)])
    assert whole["deals"] == 4 and whole["deal_runs"] == [[0, 1], [6, 7]]


def test_a_prior_known_by_its_figures_pools_as_the_deals_themselves_would(tmp_path: Path) -> None:
    """A log lost with its machine is known by its published figures only (deals, gain, interval,
    deals won): pooled with a log, they give what one log of all the deals gives."""
    first, second, both = tmp_path / "first.jsonl", tmp_path / "second.jsonl", tmp_path / "both.jsonl"
    bench_bots._run("heuristic", "random", 6, 1, 2026, deal_log=str(first))
    bench_bots._run("heuristic", "random", 5, 1, 2026, deal_log=str(second), first_deal=6)
    bench_bots._run("heuristic", "random", 11, 1, 2026, deal_log=str(both))
    [lost] = bench_bots.summarize([str(first)])
    [kept] = bench_bots.summarize([str(second)])
    [whole] = bench_bots.summarize([str(both)])
    lo, hi = lost["ci95"]
    prior = f"deals={lost['deals']},gain={lost['a_level_gain_per_deal']},lo={lo},hi={hi},won={lost['a_deal_win_rate']}"
    pooled = bench_bots.pool_prior(kept, prior)
    assert pooled["deals"] == 11
    assert abs(pooled["a_level_gain_per_deal"] - whole["a_level_gain_per_deal"]) < 1e-3
    assert all(abs(a - b) < 2e-3 for a, b in zip(pooled["ci95"], whole["ci95"], strict=True))
    assert abs(pooled["a_deal_win_rate"] - whole["a_deal_win_rate"]) < 1e-3
