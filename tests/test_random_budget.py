"""The budgeted random runs: fresh seeds, at least the minimum, and a failure names its seed."""

from __future__ import annotations

import pytest

from random_budget import run_seeds


def test_a_failure_names_the_seed_to_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUOLAJI_SEED", "500")
    seen: list[int] = []

    def play(seed: int) -> None:
        seen.append(seed)
        assert seed != 502

    with pytest.raises(AssertionError, match="at seed 502: replay with TUOLAJI_SEED=502"):
        run_seeds("t", play, seconds=60)
    assert seen == [500, 501, 502]


def test_fresh_seeds_each_run_and_the_minimum_is_played(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TUOLAJI_SEED", raising=False)
    runs: list[list[int]] = [[], []]
    for seen in runs:
        assert run_seeds("t", seen.append, seconds=0, minimum=3) == 3
    assert runs[0] != runs[1]
    assert runs[0] == list(range(runs[0][0], runs[0][0] + 3))
