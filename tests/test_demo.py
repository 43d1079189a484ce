"""``tuolaji demo`` ends: a match that has an end plays to it; one that wraps past A stops cleanly."""

from __future__ import annotations

import pytest

from tuolaji.bots.driver import Table
from tuolaji.bots.registry import make_bot
from tuolaji.demo import main
from tuolaji.engine.match import Match
from tuolaji.ruleset import PRESETS


def test_super_four_deck_demo_stops_after_the_round_cap(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--rules", "super-four-deck", "--seed", "1", "--rounds", "3", "--quiet-tricks"]) == 0
    out = capsys.readouterr().out
    assert "Round 3" in out and "Round 4" not in out
    assert "Stopped after 3 rounds" in out and "no end of its own" in out


def test_super_four_deck_match_with_a_target_level_ends() -> None:
    """Scaled thresholds keep four-deck rounds close, and a target level (seed 004 appendix) ends it."""
    rules = PRESETS["super-four-deck"].replace(match_target_level="4")
    match = Match(rules=rules, seed=2)
    Table(match, [make_bot("heuristic", seed=s) for s in range(4)]).play_match(max_rounds=80)
    assert match.over and match.levels[match.winner] >= 2
